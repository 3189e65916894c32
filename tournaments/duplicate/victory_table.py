"""A duplicate teams event's victory-point table (RULES §14.5: "win 2, draw 1, loss 0 unless the tournament sets a
victory-point table"), as the director writes it and as the scoring reads it.

The director writes one row a line, ``margin: winner's VP – loser's VP`` (``3: 16–4``): from that margin in
scale points up to the next row's, the winner takes the first figure and the loser the second; the first row is
the margin 0, a drawn match, both teams alike. Kept as ``TeamEvent.victory_table``, rows ``[margin, winner,
loser]`` with VP in hundredths (as every victory point of the team pages), so ``12.5`` is exact. Left empty, the
table is the default 20-VP one for the boards a round (``rules.scale_points.default_victory_table``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from decimal import Decimal

from django.utils.translation import gettext as _

from rules.scale_points import default_victory_table

ROW = re.compile(
    r"^\s*(\d{1,3})\s*[:：]\s*(\d{1,3}(?:\.\d{1,2})?)\s*[-–—－~～]\s*(\d{1,3}(?:\.\d{1,2})?)\s*$"
)
Rows = list[list[int]]


class VictoryTableError(ValueError):
    """A table the director wrote that cannot be read; ``message`` is one sentence in the page's language."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def hundredths(text: str) -> int:
    return int(Decimal(text) * 100)


def vp_text(value: int) -> str:
    """VP in hundredths as the director writes them: ``12``, ``12.5``, ``12.25``."""
    whole, rest = divmod(value, 100)
    return str(whole) if not rest else f"{whole}.{rest:02d}".rstrip("0")


def default_rows(boards: int) -> Rows:
    """The default table for ``boards`` boards a match, in hundredths."""
    return [[m, w * 100, lo * 100] for m, (w, lo) in default_victory_table(boards).items()]


def read_table(text: str) -> Rows:
    """The rows of the director's text, checked (see the module's docstring); an empty text: no rows."""
    rows: Rows = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        found = ROW.match(line)
        if found is None:
            raise VictoryTableError(
                _("Line %(n)s: write each row as “margin: winner's VP – loser's VP”, for example “3: 16–4”.")
                % {"n": number}
            )
        rows.append([int(found[1]), hundredths(found[2]), hundredths(found[3])])
    check_rows(rows)
    return rows


def check_rows(rows: Sequence[Sequence[int]]) -> None:
    """Refuse a table that does not read one way: margins up from 0 (a draw, alike), the winner never below the
    loser, a bigger margin never worse for the winner nor better for the loser."""
    if not rows:
        return
    if rows[0][0] != 0 or rows[0][1] != rows[0][2]:
        raise VictoryTableError(_("The first row is the margin 0, a draw: both teams take the same VP."))
    for (m0, w0, l0), (m1, w1, l1) in zip(rows, rows[1:], strict=False):
        if m1 <= m0:
            raise VictoryTableError(
                _("The margins go up from row to row (%(m)s is not above %(p)s).") % {"m": m1, "p": m0}
            )
        if w1 < l1 or w1 < w0 or l1 > l0:
            raise VictoryTableError(
                _("From margin %(m)s the winner takes fewer VP than the loser or than at a smaller margin.")
                % {"m": m1}
            )


def table_text(rows: Sequence[Sequence[int]]) -> str:
    """The rows as the director writes them, one a line."""
    return "\n".join(f"{m}: {vp_text(w)}–{vp_text(lo)}" for m, w, lo in rows)


def table_of(rows: Sequence[Sequence[int]], boards: int) -> Mapping[int, tuple[int, int]]:
    """The table as ``rules.scale_points.match_points`` reads it (VP in hundredths): the event's rows, else the
    default for ``boards`` boards a match."""
    chosen = rows or default_rows(boards)
    return {int(m): (int(w), int(lo)) for m, w, lo in chosen}
