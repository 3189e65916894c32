"""Matchpoints (RULES §14.4): each direction's scores on a board compared, Neuberg, artificial scores, a pair's
percentage.

Everything is kept exact (``Fraction``): Neuberg's ``(MP + 1) · N / n − 1`` and 60 % of a top are rarely whole,
and pairs are ranked on the exact value; only the shown percentage is rounded, half up, to two decimals.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction
from typing import TypeVar

K = TypeVar("K", bound=Hashable)


class Fault(StrEnum):
    """A side's share of the blame where a board was not played or was fouled: 60 %, 50 % or 40 % of the top."""

    NONE = "none"
    PARTLY = "partly"
    AT_FAULT = "at_fault"


ARTIFICIAL_SHARE: Mapping[Fault, Fraction] = {
    Fault.NONE: Fraction(60, 100),
    Fault.PARTLY: Fraction(50, 100),
    Fault.AT_FAULT: Fraction(40, 100),
}


def top(plays: int) -> int:
    """A board's top when its scores are compared ``plays`` times: ``2(plays − 1)``."""
    return 2 * (plays - 1)


def compare(scores: Sequence[int]) -> list[int]:
    """Each score's matchpoints among ``scores``: 2 for every score it beats, 1 for every equal one."""
    return [sum(2 if s > o else 1 if s == o else 0 for o in scores) - 1 for s in scores]


def neuberg(mp: Fraction | int, n: int, plays: int) -> Fraction:
    """Matchpoints won among ``n`` results scaled to a board played ``plays`` times: ``(MP + 1) · N / n − 1``."""
    return (Fraction(mp) + 1) * plays / n - 1


def artificial(fault: Fault | str, plays: int) -> Fraction:
    """The director's artificial score: 60 / 50 / 40 % of the session's top ``2(N − 1)``."""
    return ARTIFICIAL_SHARE[Fault(fault)] * top(plays)


@dataclass(frozen=True, slots=True)
class BoardEntry:
    """One table's line on a board: the NS score, or None when it was not played or fouled there (then the
    faults say what each side is given)."""

    ns_score: int | None
    ns_fault: Fault = Fault.NONE
    ew_fault: Fault = Fault.NONE


def score_board(entries: Mapping[K, BoardEntry], plays: int) -> dict[K, tuple[Fraction, Fraction]]:
    """Each table's (NS matchpoints, EW matchpoints) on one board of a session whose boards are played
    ``plays`` times (``N``): compared among the played scores, scaled by Neuberg when fewer than ``N``, and
    artificial where the board was not played or fouled."""
    keys = [k for k, e in entries.items() if e.ns_score is not None]
    ns_scores = [entries[k].ns_score for k in keys]
    n = len(keys)
    ns_mp = compare(ns_scores)  # type: ignore[arg-type]
    ew_mp = compare([-s for s in ns_scores])  # type: ignore[operator]
    out: dict[K, tuple[Fraction, Fraction]] = {}
    for k, ns, ew in zip(keys, ns_mp, ew_mp, strict=True):
        if n == plays:
            out[k] = (Fraction(ns), Fraction(ew))
        else:
            out[k] = (neuberg(ns, n, plays), neuberg(ew, n, plays))
    for k, e in entries.items():
        if e.ns_score is None:
            out[k] = (artificial(e.ns_fault, plays), artificial(e.ew_fault, plays))
    return out


@dataclass(frozen=True, slots=True)
class PairScore:
    """A pair's matchpoints and tops over the session; ``ratio`` is exact, ``percentage`` the shown text."""

    matchpoints: Fraction
    tops: int

    @property
    def ratio(self) -> Fraction:
        return self.matchpoints / self.tops if self.tops else Fraction(0)

    @property
    def percentage(self) -> Decimal:
        """The ratio as a percentage rounded half up to two decimals (exact arithmetic, no float)."""
        hundredths = math.floor(self.ratio * 10000 + Fraction(1, 2))
        return Decimal(hundredths).scaleb(-2)


def percentage(matchpoints: Fraction, tops: int) -> Decimal:
    """A pair's percentage, rounded half up to two decimals."""
    return PairScore(matchpoints, tops).percentage


def rank(scores: Mapping[K, PairScore]) -> list[tuple[int, K]]:
    """Places by the exact ratio, best first; exact ties share a place (1, 2, 2, 4)."""
    ordered = sorted(scores, key=lambda k: scores[k].ratio, reverse=True)
    places: list[tuple[int, K]] = []
    for i, k in enumerate(ordered):
        same = i and scores[ordered[i - 1]].ratio == scores[k].ratio
        places.append((places[-1][0] if same else i + 1, k))
    return places
