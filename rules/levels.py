"""Level change (RULES §10): the level table, the ladder with must-play stops, the J rule, next banker.

Everything here is a pure function of a ``Ruleset``; scoring (one deal) and the match fold (many deals) both
use it so that a deal's ``levels_after`` and the recomputed match agree by construction.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .ruleset import Ruleset
from .seats import SIDES, next_seat, other_side, partner, side_of


@dataclass(frozen=True, slots=True)
class LevelGain:
    """The level table's verdict: ``side`` (``"banker"``/``"attackers"``) gains ``levels`` (before stops)."""

    side: str
    levels: int

    @property
    def takeover(self) -> bool:
        return self.side == "attackers"


def level_gain(rs: Ruleset, points: int) -> LevelGain:
    """Who gains how many levels for attackers' points ``P``: step table or the preset's bands, then cap."""
    if rs.level_bands is None:
        s = rs.step
        if points <= 0:
            gain = LevelGain("banker", 3)
        elif points < s:
            gain = LevelGain("banker", 2)
        elif points < 2 * s:
            gain = LevelGain("banker", 1)
        elif points < 3 * s:
            gain = LevelGain("attackers", 0)
        else:
            gain = LevelGain("attackers", 1 + (points - 3 * s) // s)
    else:
        band = rs.level_bands[0]
        for b in rs.level_bands[1:]:
            if b.low is not None and points >= b.low:
                band = b
        n = band.levels
        if band.every is not None and band.low is not None:
            n += (points - band.low) // band.every
        gain = LevelGain(band.side, n)
    if rs.level_cap is not None and gain.levels > rs.level_cap:
        gain = LevelGain(gain.side, rs.level_cap)
    return gain


# Why a side climbed fewer levels than it gained (``LevelStop.reason``).
MUST_PLAY = "must_play"  # it is on, or reached, a must-play level it has not won as the banker side
TARGET = "target"  # it is at the target and can go no higher
JACK = "jack"  # the J rule sent the banker side back to the start level


@dataclass(frozen=True, slots=True)
class LevelStop:
    """Why ``side`` ended a deal lower than its gain would take it: it went from ``start`` to ``level`` for
    ``gained`` levels, stopped by ``reason`` (``MUST_PLAY``, ``TARGET`` or ``JACK``), so a page can say so."""

    side: str
    start: str
    level: str
    reason: str
    gained: int

    @property
    def held(self) -> bool:
        """The side did not move at all (it stays on the must-play level it has to win)."""
        return self.start == self.level


def climb_stop(rs: Ruleset, level: str, steps: int, *, may_leave: bool) -> tuple[str, str | None]:
    """The level ``climb`` reaches and why it stopped short (``MUST_PLAY``, ``TARGET``), or None when it
    climbed every step it gained."""
    i = rs.ladder_index(level)
    top = rs.ladder_index(rs.target_level)
    if steps <= 0:
        return level, None
    if i >= top:
        return level, TARGET
    if rs.is_must_play(level) and not may_leave:
        return level, MUST_PLAY
    for k in range(steps):
        i += 1
        if i >= top or rs.is_must_play(rs.ladder[i]):
            short = k < steps - 1
            reason = (TARGET if i >= top else MUST_PLAY) if short else None
            return rs.ladder[i], reason
    return rs.ladder[i], None


def climb(rs: Ruleset, level: str, steps: int, *, may_leave: bool) -> str:
    """Climb ``steps`` rungs, stopping on the first must-play level reached and never passing the target.

    ``may_leave`` is true only for a banker side that won the deal at ``level``: a side at a must-play level
    leaves it only that way (RULES §10).
    """
    return climb_stop(rs, level, steps, may_leave=may_leave)[0]


def step_down(rs: Ruleset, level: str, steps: int) -> str:
    """Go down ``steps`` rungs for a level penalty; never below the start level (RULES §9)."""
    floor = rs.ladder_index(rs.start_level)
    i = max(floor, rs.ladder_index(level) - max(0, steps))
    return rs.ladder[i] if rs.ladder_index(level) >= floor else level


def next_banker(rs: Ruleset, banker: str, takeover: bool) -> str:
    """Banker side keeps the bank → the banker's partner; a takeover → the next seat in play order."""
    return next_seat(banker, rs.clockwise) if takeover else partner(banker)


def level_changes(
    rs: Ruleset,
    levels: Mapping[str, str],
    *,
    banker: str,
    gain: LevelGain,
    won: bool,
    jack_reset: bool = False,
    level_penalties: Mapping[str, int] | None = None,
) -> tuple[dict[str, str], tuple[LevelStop, ...]]:
    """Both sides' levels after a deal, with why a side's climb stopped short (a must-play level, the target, the
    J rule), so the review can say it in one line instead of leaving a gain the levels do not show.

    ``won`` is true when the banker side won the deal (it may then leave a must-play level). The J rule sends
    the banker side back to the start level instead of any gain; level penalties are applied last, one rung
    each, never below the start level.
    """
    bs = side_of(banker)
    after = {side: levels[side] for side in SIDES}
    stops: list[LevelStop] = []
    side = bs if gain.side == "banker" else other_side(bs)
    if not (jack_reset and side == bs):
        after[side], reason = climb_stop(rs, after[side], gain.levels, may_leave=won and side == bs)
        if reason is not None:
            stops.append(LevelStop(side, levels[side], after[side], reason, gain.levels))
    if jack_reset:
        after[bs] = rs.start_level
        stops.append(LevelStop(bs, levels[bs], after[bs], JACK, gain.levels if gain.side == "banker" else 0))
    for penalised, n in (level_penalties or {}).items():
        if n:
            after[penalised] = step_down(rs, after[penalised], n)
    return after, tuple(stops)


def wins_match(rs: Ruleset, level: str, *, won: bool, jack_reset: bool, banker_level_penalty: int) -> bool:
    """The banker side won a deal at the target: the match is over (RULES §10).

    A level penalty on the banker side in that deal (or the J rule) cancels the win: the penalty is served
    "after the deal" (seed 002 JJ比赛: 等打完当把牌后…罚降一级), so the side ends the deal below the target.
    """
    return won and level == rs.target_level and not jack_reset and not banker_level_penalty


def ladder_gap(rs: Ruleset, levels: Mapping[str, str]) -> int:
    """NS's ladder position minus EW's (mercy rule, time-limit winner)."""
    return rs.ladder_index(levels["NS"]) - rs.ladder_index(levels["EW"])
