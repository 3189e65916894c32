"""`make serve`'s backup timer: a small process of its own that takes a backup every BACKUP_EVERY seconds while the
server runs (``python -m referee.backup_timer --parent PID --every SECONDS``).

``referee.serve`` starts it just before it becomes gunicorn (the same process id, ``--parent``), so no thread runs
inside gunicorn's workers and a slow copy never holds a request. It checks every second that its parent is alive
and ends when it is not (the server stopped or was killed), so no timer outlives its server. A failed backup is
recorded by the service (the desk and the board show it in red) and printed here; the timer goes on.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable

POLL_SECONDS = 1.0


def parent_alive(parent: int) -> bool:
    """Whether the server that started us still runs: once it dies we are adopted, and our parent id changes."""
    return os.getppid() == parent


def backup_once() -> None:
    import django
    from django.apps import apps

    if not apps.ready:  # Django starts at the first backup, not with the server (a second of CPU)
        django.setup()
    from django.db import connections

    from tournaments.backup.services import BackupError, take_backup

    try:
        summary = take_backup(reason="timer")
        print(f"backup: {summary.line()}", flush=True)
    except BackupError as exc:
        print(f"backup FAILED: {exc}", file=sys.stderr, flush=True)
    finally:
        connections.close_all()


def run(
    every: float,
    alive: Callable[[], bool],
    take: Callable[[], None] = backup_once,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
) -> int:
    """Take a backup each ``every`` seconds while ``alive()``; returns how many were taken."""
    taken = 0
    due = clock() + every
    while alive():
        if clock() >= due:
            take()
            taken += 1
            due = clock() + every
        sleep(min(POLL_SECONDS, max(0.0, due - clock())))
    return taken


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m referee.backup_timer", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--parent", type=int, required=True, help="the server's process id")
    parser.add_argument("--every", type=float, required=True, help="seconds between backups")
    args = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "referee.settings")
    try:
        run(args.every, lambda: parent_alive(args.parent))
    except KeyboardInterrupt:  # Ctrl-C in serve's terminal reaches the whole group
        pass


if __name__ == "__main__":
    main()
