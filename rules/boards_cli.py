"""``python -m rules boards deal SEED COUNT [--preset P]`` and ``python -m rules boards check FILE``: anyone
holding a published seed deals the boards again, or checks a boards file's fingerprints and (when it carries
the seed) every board against it, without the site.

Exit status: 0 every board checks, 1 a board does not (its number on standard error), 2 unreadable input.
"""

from __future__ import annotations

import sys

from .boards import BoardError, deal_boards
from .boards_file import BoardsFile, loads_boards


def deal_command(seed: str, count: int, preset: str) -> int:
    """Print the boards file of ``count`` boards dealt from ``seed`` (seed included)."""
    if not 1 <= count <= 999:
        print("error: COUNT must be from 1 to 999", file=sys.stderr)
        return 2
    try:
        boards = BoardsFile("", seed, deal_boards(seed, count, preset))
    except BoardError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    sys.stdout.write(boards.dumps() + "\n")
    return 0


def check_command(path: str) -> int:
    """Read and verify a boards file; print one line per board checked."""
    try:
        with open(path, encoding="utf-8-sig") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        print(f"error: cannot read {path}: {e}", file=sys.stderr)
        return 2
    try:
        boards = loads_boards(text)
    except BoardError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1 if e.number is not None else 2
    checked = "fingerprint and seed" if boards.seed else "fingerprint"
    for b in boards.boards:
        print(f"board {b.number}: {checked} ok {b.fingerprint[:8]}")
    return 0
