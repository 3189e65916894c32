"""A table's result on a board (RULES §14.3): the final ``P``, its outcome, and the NS score.

Play always runs to the last trick, so ``P`` (the attackers' points of the played-out deal: tricks, kitty bonus,
point penalties) is known. Then, in order: a fault that fixes the outcome (revoke under ``lose_deal``, a wrong
card count) gives the side not at fault at least that outcome by moving ``P`` to the edge of its band; both
sides at fault leaves the board not played at the table; a level penalty moves ``P`` by 20 × decks against the
side at fault. The outcome is the level table's (no ladder, must-play levels, targets, caps or J rule).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from .facts import PenaltyCall
from .levels import LevelGain, level_gain
from .ruleset import Ruleset
from .scoring import _decide, penalty_effects
from .seats import other_side, side_of

POINT_STEP = 5  # every count of points is a multiple of 5 (5s, 10s, Ks, 10-point penalties)


@dataclass(frozen=True, slots=True)
class TableResult:
    """``points`` is the final ``P``; ``gain`` the level table's outcome for it; ``ns_score`` is ``+P`` when N–S
    attacked and ``−P`` when they held the bank. ``not_played`` when both sides faulted a deal-ending way: the
    director then gives artificial scores (§14.4) and ``points``, ``gain`` and ``ns_score`` are None."""

    points: int | None
    gain: LevelGain | None
    ns_score: int | None
    not_played: bool = False

    @property
    def outcome(self) -> str | None:
        """The outcome as the traveller writes it: ``banker+2``, ``attackers+0`` (a take-over), …"""
        return None if self.gain is None else f"{self.gain.side}+{self.gain.levels}"

    @property
    def ew_score(self) -> int | None:
        return None if self.ns_score is None else -self.ns_score


def _uncapped(rs: Ruleset) -> Ruleset:
    """The ruleset whose level table §14.3 reads: caps left out."""
    return replace(rs, level_cap=None) if rs.level_cap is not None else rs


def _rank(gain: LevelGain) -> int:
    """Outcomes in order, worst for the attackers first: banker +3 < banker +2 < … < attackers +0 < +1 …"""
    return gain.levels + 1 if gain.side == "attackers" else -gain.levels


def _span(rs: Ruleset) -> range:
    return range(-rs.deck_points, 4 * rs.deck_points + POINT_STEP, POINT_STEP)


def lowest_points_for(rs: Ruleset, gain: LevelGain) -> int:
    """The lowest ``P`` whose outcome is at least ``gain`` for the attackers (take over: ``2s`` with a step)."""
    table = _uncapped(rs)
    return next(p for p in _span(rs) if _rank(level_gain(table, p)) >= _rank(gain))


def highest_points_for(rs: Ruleset, gain: LevelGain) -> int:
    """The highest ``P`` whose outcome is at least ``gain`` for the banker side (banker +1: ``2s − 5``)."""
    table = _uncapped(rs)
    return next(p for p in reversed(_span(rs)) if _rank(level_gain(table, p)) <= _rank(gain))


def table_result(rs: Ruleset, banker: str, points: int, penalties: Sequence[PenaltyCall] = ()) -> TableResult:
    """The table's result from the played-out deal's ``P`` and the judge's calls."""
    effects = penalty_effects(rs, penalties)
    bs = side_of(banker)
    if effects.deal_ending:
        fixed, _next, void = _decide(rs, banker, points, effects)
        if void:
            return TableResult(None, None, None, not_played=True)
        if fixed.side == "attackers":
            points = max(points, lowest_points_for(rs, fixed))
        else:
            points = min(points, highest_points_for(rs, fixed))
    swing = 20 * rs.decks
    points += swing * effects.level_penalties[bs] - swing * effects.level_penalties[other_side(bs)]
    gain = level_gain(_uncapped(rs), points)
    ns_score = points if bs == "EW" else -points
    return TableResult(points, gain, ns_score)
