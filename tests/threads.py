"""Running a piece of a test in a thread of its own, with a database connection of its own (closed after), and
waiting for what such a thread reports without timing it."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

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


def until(check: Callable[[], bool], what: str, wait: float) -> None:
    """Look again at ``check`` until it holds. ``wait`` seconds only bound a broken case: a passing test never
    reaches them, and how long ``check`` takes to hold is never asserted."""
    deadline = time.monotonic() + wait
    while not check():
        assert time.monotonic() < deadline, f"never seen: {what}"
        time.sleep(0.01)
