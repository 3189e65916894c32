"""A duplicate pairs session scored whole (RULES §14.4): every board's traveller compared, then each pair's
matchpoints, tops, percentage and place in its direction.

The site scores from its database and an API reader recomputes from the travellers it publishes; both call
``score_session`` so that they agree by construction.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from .matchpoints import BoardEntry, PairScore, rank, score_board, top


@dataclass(frozen=True, slots=True)
class TravellerLine:
    """One table's line on a board: its pairs (any hashable ids), its entry, and the matchpoints it earned."""

    board: int
    ns_pair: object
    ew_pair: object
    entry: BoardEntry


@dataclass(frozen=True, slots=True)
class SessionScore:
    """Each line's (NS, EW) matchpoints and each direction's pair scores and places."""

    lines: Mapping[TravellerLine, tuple[Fraction, Fraction]]
    pairs: Mapping[str, Mapping[object, PairScore]]
    places: Mapping[str, list[tuple[int, object]]]


def score_session(lines: Sequence[TravellerLine], plays: int) -> SessionScore:
    """Score every board of a session whose boards are played ``plays`` times (``N``); every line is worth one
    top ``2(N − 1)`` to each of its pairs."""
    by_board: dict[int, dict[TravellerLine, BoardEntry]] = {}
    for line in lines:
        by_board.setdefault(line.board, {})[line] = line.entry
    scored: dict[TravellerLine, tuple[Fraction, Fraction]] = {}
    for entries in by_board.values():
        scored.update(score_board(entries, plays))
    totals: dict[str, dict[object, PairScore]] = {"NS": {}, "EW": {}}
    for line, (ns_mp, ew_mp) in scored.items():
        for direction, pair, mp in (("NS", line.ns_pair, ns_mp), ("EW", line.ew_pair, ew_mp)):
            old = totals[direction].get(pair, PairScore(Fraction(0), 0))
            totals[direction][pair] = PairScore(old.matchpoints + mp, old.tops + top(plays))
    return SessionScore(scored, totals, {d: rank(scores) for d, scores in totals.items()})
