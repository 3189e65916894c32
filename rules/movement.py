"""The Mitchell movement (RULES §14.4): who sits where with which boards, round by round.

In round 1 NS pair ``k``, EW pair ``k`` and board set ``k`` are at table ``k``. NS pairs stay; after each round
the EW pairs move up one table (``t`` to 1) and the board sets down one (1 to ``t``). With ``t`` odd the session
has ``t`` rounds; with ``t`` even ``t − 1``, and before round ``t/2 + 1`` the EW pairs move up two tables (the
skip), so no EW pair meets a board set it has played. Each board is then played ``t`` or ``t − 1`` times.
"""

from __future__ import annotations

from dataclasses import dataclass


class MovementError(ValueError):
    """A movement the tables and boards cannot make."""


@dataclass(frozen=True, slots=True)
class Seating:
    """One table in one round: NS pair ``ns`` and EW pair ``ew`` (numbered 1 … t in their direction) play
    board set ``board_set``, whose boards are ``boards``."""

    round: int
    table: int
    ns: int
    ew: int
    board_set: int
    boards: tuple[int, ...]


def mitchell_rounds(tables: int) -> int:
    """Rounds of a Mitchell for ``tables`` tables: ``t`` when odd, ``t − 1`` when even."""
    return tables if tables % 2 else tables - 1


def plays_per_board(tables: int) -> int:
    """``N``: how many times each board is played in a full Mitchell (equal to its rounds)."""
    return mitchell_rounds(tables)


def board_set(set_number: int, boards_per_round: int) -> tuple[int, ...]:
    """The boards of set ``k``: ``(k − 1)·b + 1`` … ``k·b``."""
    first = (set_number - 1) * boards_per_round + 1
    return tuple(range(first, first + boards_per_round))


def _ew_shift(tables: int, rnd: int) -> int:
    """Tables an EW pair has moved up by round ``rnd`` (the skip adds one from round ``t/2 + 1``)."""
    skip = 1 if tables % 2 == 0 and rnd >= tables // 2 + 1 else 0
    return rnd - 1 + skip


def mitchell(tables: int, boards_per_round: int) -> tuple[tuple[Seating, ...], ...]:
    """Every round's seatings, table by table."""
    if tables < 2:
        raise MovementError("a Mitchell needs at least 2 tables")
    if boards_per_round < 1:
        raise MovementError("a round has at least one board")
    rounds = []
    for rnd in range(1, mitchell_rounds(tables) + 1):
        shift = _ew_shift(tables, rnd)
        row = []
        for table in range(1, tables + 1):
            ew = (table - 1 - shift) % tables + 1
            bs = (table - 1 + rnd - 1) % tables + 1
            row.append(Seating(rnd, table, table, ew, bs, board_set(bs, boards_per_round)))
        rounds.append(tuple(row))
    return tuple(rounds)


def pairs_for_tables(pairs: int) -> int:
    """Tables a Mitchell of ``pairs`` pairs needs; a Mitchell here wants an even field (half NS, half EW)."""
    if pairs < 4 or pairs % 2:
        raise MovementError("a Mitchell needs an even number of pairs, at least 4")
    return pairs // 2
