"""Running a piece of a test in a thread of its own, with a database connection of its own (closed after)."""

from __future__ import annotations

import threading

from django.db import connections


def in_thread(work) -> tuple[threading.Thread, list]:
    """``work`` started in a thread; the list gets its result, or the exception it raised, for the test to read."""
    outcome: list = []

    def run():
        try:
            outcome.append(work())
        except Exception as exc:  # the test reads it
            outcome.append(exc)
        finally:
            connections.close_all()

    thread = threading.Thread(target=run)
    thread.start()
    return thread, outcome
