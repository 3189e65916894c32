"""Teams in duplicate (RULES §14.5): two tables, the same boards, scale points (级分) per board.

Team A sits NS at table 1 and EW at table 2. Its difference on a board is ``d`` = NS score at table 1 − NS
score at table 2; ``x = |d| · 2 / decks`` is read on the scale, and the points go to the side with the better
score. A match is won on the sum (win 2, draw 1, loss 0, or the tournament's victory-point table).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction

from .teams import VictoryScale, victory_points

SCALE: tuple[tuple[int, int], ...] = ((5, 0), (25, 1), (45, 2), (75, 3), (115, 4), (155, 5), (195, 6))
MOST = 7
MATCH_POINTS: Mapping[str, int] = {"win": 2, "draw": 1, "loss": 0}
# The default victory-point table: the WBF's continuous 20-VP scale (``rules.teams.victory_points``) read in
# whole VP, its blitz ``BLITZ_PER_BOARD`` scale points times the square root of the match's boards.
WHOLE_VP = 20
BLITZ_PER_BOARD = 5.0


def scale_points(difference: int, decks: int = 2) -> int:
    """Team A's scale points on a board for its difference ``d``: positive when A did better, negative when
    B did (B's are the negative)."""
    x = Fraction(abs(difference) * 2, decks)
    points = next((sp for limit, sp in SCALE if x <= limit), MOST)
    return points if difference > 0 else -points if difference < 0 else 0


def board_difference(ns_table1: int, ns_table2: int) -> int:
    """Team A's difference ``d`` on a board."""
    return ns_table1 - ns_table2


def match_scale_points(differences: Iterable[int], decks: int = 2) -> tuple[int, int]:
    """Both teams' scale points over a match's boards (A, B); a board's points all go to one side."""
    a = b = 0
    for d in differences:
        sp = scale_points(d, decks)
        if sp > 0:
            a += sp
        else:
            b -= sp
    return a, b


def match_points(
    team_a: int, team_b: int, table: Mapping[int, tuple[int, int]] | None = None
) -> tuple[int, int]:
    """The match's points from its scale points: win 2, draw 1, loss 0; or the victory-point table the director
    set, keyed by the winner's margin (the largest margin at or below it applies) to (winner, loser)."""
    if table:
        margin = abs(team_a - team_b)
        key = max((m for m in table if m <= margin), default=min(table))
        win, lose = table[key]
        return (win, lose) if team_a >= team_b else (lose, win)
    if team_a == team_b:
        return MATCH_POINTS["draw"], MATCH_POINTS["draw"]
    return (
        (MATCH_POINTS["win"], MATCH_POINTS["loss"])
        if team_a > team_b
        else (MATCH_POINTS["loss"], MATCH_POINTS["win"])
    )


def default_victory_table(boards: int) -> dict[int, tuple[int, int]]:
    """The 20-VP table for a match of ``boards`` boards: by the smallest scale-point margin of each step, the
    winner's and the loser's whole VP (margin 0: 10–10), up to the margin that takes all 20."""
    scale = VictoryScale(whole=WHOLE_VP, blitz_per_table=BLITZ_PER_BOARD)
    table: dict[int, tuple[int, int]] = {}
    margin, last = 0, None
    while last is None or last[0] < WHOLE_VP:
        vp = victory_points(margin, max(1, boards), scale)
        if vp != last:
            table[margin] = last = vp
        margin += 1
    return table
