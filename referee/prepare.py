"""`make serve`'s and `make hall`'s steps before the servers start, ``manage.py migrate`` then ``manage.py
collectstatic``, run in one Python (``python -m referee.prepare``): each command as manage.py runs it (its
system checks, its messages, its exit status; bad configuration stops with manage.py's one line), but Django is
started once instead of once per command, a second or more of a small machine's CPU at every start."""

from __future__ import annotations

import os
import sys

STEPS = (("migrate", "--no-input", "-v0"), ("collectstatic", "--no-input", "-v0"))


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "referee.settings")
    from django.core.exceptions import ImproperlyConfigured
    from django.core.management import execute_from_command_line

    try:
        for step in STEPS:
            execute_from_command_line(["manage.py", *step])
    except ImproperlyConfigured as exc:
        sys.stderr.write(f"configuration error: {exc}\n")
        sys.exit(2)


if __name__ == "__main__":
    main()
