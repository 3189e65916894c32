"""A match (RULES §12): fold deal results into a state and say when and how the match ends.

The site stores only deals; it rebuilds the match with ``replay`` (or ``start_match`` + ``fold_deal``) from
``MatchDeal``s, each made from a scored deal (``MatchDeal.from_score``) or from a stored record and its
verdict (``MatchDeal.from_record``). Every function is pure; states are frozen.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any

from .facts import PenaltyCall
from .levels import LevelGain, ladder_gap, level_changes, wins_match
from .ranks import parse_rank
from .ruleset import Ruleset, TimeRule, TimeTie
from .scoring import DealScore, penalty_effects
from .seats import SEATS, SIDES, next_seat, other_side, side_of

END_HOWS = ("target", "strikes", "forfeit", "time", "mercy")
TIME_POINTS = {
    "win": 2,
    "draw": 1,
    "loss": 0,
}  # time rule ``points``: the match's points, whatever the event's


class MatchError(ValueError):
    """A deal that cannot be folded: the match is over, it contradicts the state, or it started after time."""


def _zero() -> dict[str, int]:
    return {"NS": 0, "EW": 0}


@dataclass(frozen=True, slots=True)
class MatchDeal:
    """One deal as the match needs it. ``won``: the banker side won the deal; ``void``: both sides faulted."""

    banker: str
    level: str
    side: str
    levels: int
    won: bool
    next_banker: str | None
    jack_reset: bool = False
    void: bool = False
    level_penalties: Mapping[str, int] = field(default_factory=_zero)
    strikes: Mapping[str, int] = field(default_factory=_zero)
    attackers_points: int = 0
    started_at: datetime | None = None
    finished_at: datetime | None = None

    @classmethod
    def from_score(
        cls, score: DealScore, *, started_at: datetime | None = None, finished_at: datetime | None = None
    ) -> MatchDeal:
        """From ``score_deal``'s answer (the exact path: carries the J rule and void flags)."""
        r = score.result
        return cls(
            banker=score.banker,
            level=score.level,
            side=r.side,
            levels=r.levels,
            won=score.won,
            next_banker=r.next_banker,
            jack_reset=score.jack_reset,
            void=score.void,
            level_penalties=dict(score.level_penalties),
            strikes=dict(score.strikes),
            attackers_points=score.attackers_points.total,
            started_at=started_at,
            finished_at=finished_at,
        )

    @classmethod
    def from_record(
        cls,
        rs: Ruleset,
        record: Mapping[str, Any],
        verdict: Mapping[str, Any],
        *,
        started_at: datetime | None = None,
        finished_at: datetime | None = None,
        jack_reset: bool | None = None,
    ) -> MatchDeal:
        """From a stored deal record (DEAL-RECORD) and its verdict JSON.

        Only the record's ``banker``, ``level``, ``penalties`` (and, if present, ``ruleset`` and ``levels``) are
        read, and only the verdict's ``result`` and ``attackers_points.total``: a site that stores these as
        columns can pass small dicts built from them.

        Strikes and level penalties are recomputed from the record's ``penalties``. A void deal is one whose
        ``next_banker`` is null without winning the match. The J rule is read from ``levels_after`` (banker
        side sent from J back to the start) when the record gave ``levels``; otherwise pass ``jack_reset``.
        """
        if "ruleset" in record and Ruleset.from_spec(record["ruleset"]) != rs:
            raise MatchError(f"the deal's ruleset {record['ruleset']!r} is not the match's {rs.to_spec()!r}")
        result = verdict.get("result")
        if not result:
            raise MatchError("a deal without a result (partial or unreadable) cannot be folded into a match")
        banker = record["banker"]
        if banker not in SEATS:
            raise MatchError(f"unknown banker seat {banker!r}")
        level = parse_rank(record["level"])
        calls = [
            PenaltyCall(p["seat"], p["code"], p.get("trick"), p.get("note", ""))
            for p in record.get("penalties") or ()
        ]
        effects = penalty_effects(rs, calls)
        outcome = result["outcome"]
        void = result["next_banker"] is None and outcome != "match_won"
        if jack_reset is None:
            after = result.get("levels_after")
            bs = side_of(banker)
            jack_reset = bool(
                rs.j_rule
                and level == "J"
                and not effects.deal_ending
                and after is not None
                and parse_rank(after[bs]) == rs.start_level
            )
        return cls(
            banker=banker,
            level=level,
            side=result["side"],
            levels=int(result["levels"]),
            won=outcome != "takeover" and not void,
            next_banker=result["next_banker"],
            jack_reset=jack_reset,
            void=void,
            level_penalties=dict(effects.level_penalties),
            strikes=dict(effects.strikes),
            attackers_points=int(verdict.get("attackers_points", {}).get("total", 0)),
            started_at=started_at,
            finished_at=finished_at,
        )

    def as_dict(self) -> dict[str, Any]:
        return {
            "banker": self.banker,
            "level": self.level,
            "side": self.side,
            "levels": self.levels,
            "won": self.won,
            "next_banker": self.next_banker,
            "jack_reset": self.jack_reset,
            "void": self.void,
            "level_penalties": dict(self.level_penalties),
            "strikes": dict(self.strikes),
            "attackers_points": self.attackers_points,
            "started_at": self.started_at.isoformat() if self.started_at else None,
            "finished_at": self.finished_at.isoformat() if self.finished_at else None,
        }


@dataclass(frozen=True, slots=True)
class MatchEnd:
    """How a match ended: ``how`` in END_HOWS; ``winner`` a side, or None for a draw."""

    how: str
    winner: str | None
    levels: Mapping[str, str]
    deals: int

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class MatchState:
    """Both sides' levels, who banks next (None: contested by declaration), counts, and the end if any.

    ``overtime``: time was called under the ``sudden_death`` time rule, so both sides were put at the target and
    the match plays on, with no time limit, until a side wins it.
    """

    ruleset: Ruleset
    levels: Mapping[str, str]
    banker: str | None = None
    deals: int = 0
    strikes: Mapping[str, int] = field(default_factory=_zero)
    banker_wins: Mapping[str, int] = field(default_factory=_zero)
    attackers_points: Mapping[str, int] = field(default_factory=_zero)
    started_at: datetime | None = None
    last_finished_at: datetime | None = None
    end: MatchEnd | None = None
    overtime: bool = False

    @property
    def over(self) -> bool:
        return self.end is not None

    @property
    def deadline(self) -> datetime | None:
        """When no new deal may start (time limit), or None (no limit, or in sudden-death overtime)."""
        if self.overtime or self.started_at is None or self.ruleset.time_limit_minutes is None:
            return None
        return self.started_at + timedelta(minutes=self.ruleset.time_limit_minutes)

    @property
    def elapsed(self) -> timedelta | None:
        if self.started_at is None or self.last_finished_at is None:
            return None
        return self.last_finished_at - self.started_at

    def as_dict(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset.to_spec(),
            "levels": dict(self.levels),
            "banker": self.banker,
            "deals": self.deals,
            "strikes": dict(self.strikes),
            "banker_wins": dict(self.banker_wins),
            "attackers_points": dict(self.attackers_points),
            "started_at": self.started_at.isoformat() if self.started_at else None,
            "elapsed_seconds": None if self.elapsed is None else int(self.elapsed.total_seconds()),
            "end": None if self.end is None else self.end.as_dict(),
            "overtime": self.overtime,
        }


def start_match(
    rs: Ruleset, *, started_at: datetime | None = None, first_banker: str | None = None
) -> MatchState:
    """A new match: both sides at the start level; the first banker is whoever won the declaration."""
    if first_banker is not None and first_banker not in SEATS:
        raise MatchError(f"unknown seat {first_banker!r}")
    return MatchState(rs, {"NS": rs.start_level, "EW": rs.start_level}, first_banker, started_at=started_at)


def _ended(state: MatchState, how: str, winner: str | None) -> MatchState:
    return replace(state, end=MatchEnd(how, winner, dict(state.levels), state.deals))


def can_start_deal(state: MatchState, now: datetime | None) -> bool:
    """A new deal may start: the match is not over and (with a time limit) time has not run out."""
    if state.over:
        return False
    deadline = state.deadline
    return deadline is None or now is None or now < deadline


def fold_deal(state: MatchState, deal: MatchDeal) -> MatchState:
    """The state after one more deal; ends the match on the target, strikes, or the mercy rule."""
    rs = state.ruleset
    n = state.deals + 1
    if state.over:
        raise MatchError(f"deal {n}: the match is already over ({state.end.how})")  # type: ignore[union-attr]
    bs = side_of(deal.banker)
    if state.levels[bs] != deal.level:
        raise MatchError(f"deal {n}: played at {deal.level!r} but {bs} is at {state.levels[bs]!r}")
    if state.banker is not None and deal.banker != state.banker:
        raise MatchError(f"deal {n}: banker {deal.banker} but the bank belongs to {state.banker}")
    deadline = state.deadline
    if deadline is not None and deal.started_at is not None and deal.started_at >= deadline:
        raise MatchError(f"deal {n}: started after the time limit ({deadline.isoformat()})")
    gain = LevelGain("banker", 0) if deal.void else LevelGain(deal.side, deal.levels)
    levels = level_changes(
        rs,
        state.levels,
        banker=deal.banker,
        gain=gain,
        won=deal.won,
        jack_reset=deal.jack_reset,
        level_penalties=deal.level_penalties,
    )[0]
    strikes = {s: state.strikes[s] + deal.strikes.get(s, 0) for s in SIDES}
    banker_wins = dict(state.banker_wins)
    if deal.won:
        banker_wins[bs] += 1
    att_pts = dict(state.attackers_points)
    att_pts[other_side(bs)] += deal.attackers_points
    new = replace(
        state,
        levels=levels,
        banker=deal.next_banker,
        deals=n,
        strikes=strikes,
        banker_wins=banker_wins,
        attackers_points=att_pts,
        last_finished_at=deal.finished_at or state.last_finished_at,
    )
    if wins_match(
        rs,
        deal.level,
        won=deal.won,
        jack_reset=deal.jack_reset,
        banker_level_penalty=deal.level_penalties.get(bs, 0),
    ):
        return _ended(new, "target", bs)
    limit = rs.strikes_to_forfeit
    if limit is not None:
        out = [s for s in SIDES if strikes[s] >= limit]
        if out:
            # Both sides out in the same deal: a draw (spec silent).
            return _ended(new, "strikes", other_side(out[0]) if len(out) == 1 else None)
    if rs.mercy_levels is not None:
        gap = ladder_gap(rs, levels)
        if abs(gap) >= rs.mercy_levels:
            return _ended(new, "mercy", "NS" if gap > 0 else "EW")
    return new


def forfeit(state: MatchState, side: str, how: str = "forfeit") -> MatchState:
    """``side`` forfeits (no-show, withdrawal): the other side wins."""
    if side not in SIDES:
        raise MatchError(f"unknown side {side!r}")
    if state.over:
        raise MatchError("the match is already over")
    return _ended(state, how, other_side(side))


def call_time(state: MatchState, now: datetime) -> MatchState:
    """Apply the time limit if ``now`` is past it, by the ruleset's ``time_rule``.

    ``higher_level``: the match ends, the higher level wins; equal levels per ``time_tie`` — ``banker_side``
    (seed 002 JJ比赛: 同级时，台上一方获胜) gives it to the side holding the bank for the next deal, a contested
    bank (void deal) or ``draw`` makes it a draw. ``points``: the side ahead wins, equal levels draw, scored
    ``TIME_POINTS``. ``sudden_death``: the match goes on in overtime (``_sudden_death``).
    """
    deadline = state.deadline
    if state.over or deadline is None or now < deadline:
        return state
    rule = state.ruleset.time_rule
    if rule == TimeRule.SUDDEN_DEATH:
        return _sudden_death(state)
    ahead = _side_ahead(state)
    if ahead is not None or rule == TimeRule.POINTS:
        return _ended(state, "time", ahead)
    if state.ruleset.time_tie == TimeTie.BANKER_SIDE and state.banker is not None:
        return _ended(state, "time", side_of(state.banker))
    return _ended(state, "time", None)


def _side_ahead(state: MatchState) -> str | None:
    """The side higher on the ladder, or None at equal levels."""
    gap = ladder_gap(state.ruleset, state.levels)
    return None if not gap else "NS" if gap > 0 else "EW"


def _sudden_death(state: MatchState) -> MatchState:
    """Time called, club style "both ruled at A, the side ahead declares first": both sides go to the target,
    the side ahead takes the bank and play goes on with no time limit until a side wins at the target.

    The bank: a banker already on the side ahead keeps it; otherwise it passes as on a takeover (the next seat in
    play order, which is on the side ahead); a contested bank goes to the side ahead's first seat (N or W). Equal
    levels: the bank stays where it is (contested stays contested).
    """
    rs = state.ruleset
    ahead = _side_ahead(state)
    banker = state.banker
    if ahead is not None and (banker is None or side_of(banker) != ahead):
        banker = next_seat(banker, rs.clockwise) if banker else next(s for s in SEATS if side_of(s) == ahead)
    target = rs.target_level
    return replace(state, levels={"NS": target, "EW": target}, banker=banker, overtime=True)


def time_points(rs: Ruleset, how: str, winner: str | None) -> dict[str, int] | None:
    """Each side's match points when the match's own rule fixes them (an end by time under the ``points``
    time rule: 2 to the side ahead, 1 each at equal levels), else None: the event's win/draw/loss points."""
    if how != "time" or rs.time_rule != TimeRule.POINTS:
        return None
    if winner is None:
        return {side: TIME_POINTS["draw"] for side in SIDES}
    return {winner: TIME_POINTS["win"], other_side(winner): TIME_POINTS["loss"]}


def replay(
    rs: Ruleset,
    deals: Iterable[MatchDeal],
    *,
    started_at: datetime | None = None,
    first_banker: str | None = None,
    now: datetime | None = None,
    forfeited_by: str | None = None,
) -> MatchState:
    """Rebuild a match from its stored deals in order; then apply a forfeit, or the time limit at ``now``.

    With a time limit, a deal finishing at or after the deadline applies the time rule (no new deal after
    time, or sudden-death overtime); so does ``now`` (time called), before the first deal started at or after
    it. A deal after the match ended raises ``MatchError`` naming it.
    """
    state = start_match(rs, started_at=started_at, first_banker=first_banker)
    for deal in deals:
        state = _fold_timed(state, deal, now)
    return _close(state, forfeited_by, now)


def _fold_timed(state: MatchState, deal: MatchDeal, now: datetime | None = None) -> MatchState:
    """Fold one deal, after time called at ``now`` if the deal started after that; a deal finishing at or after
    the deadline then applies the time rule."""
    if now is not None and deal.started_at is not None and deal.started_at >= now:
        state = call_time(state, now)
    state = fold_deal(state, deal)
    if not state.over and deal.finished_at is not None:
        state = call_time(state, deal.finished_at)
    return state


def _close(state: MatchState, forfeited_by: str | None, now: datetime | None) -> MatchState:
    """After the deals: a forfeit, then the time limit at ``now``."""
    if forfeited_by is not None and not state.over:
        state = forfeit(state, forfeited_by)
    if now is not None and not state.over:
        state = call_time(state, now)
    return state


def replay_played(
    rs: Ruleset,
    deals: Iterable[MatchDeal],
    *,
    started_at: datetime | None = None,
    first_banker: str | None = None,
    now: datetime | None = None,
    forfeited_by: str | None = None,
) -> tuple[MatchState, tuple[str, ...]]:
    """``replay`` for deals as they were played, after corrections: returns the state and notes.

    A correction to an early deal can leave a later deal with a banker or a level the corrected state would
    not give. That deal was still played, so it is folded all the same — with the banker who played it, at the
    level that side now holds — and the mismatch is noted. Deals after the match has ended are noted and left
    out. This is how a correction flows through to everything after it (the site's recomputation).
    """
    state = start_match(rs, started_at=started_at, first_banker=first_banker)
    notes: list[str] = []
    for deal in deals:
        n = state.deals + 1
        if now is not None and deal.started_at is not None and deal.started_at >= now and not state.over:
            state = call_time(state, now)  # time was called before this deal: its rule applies first
        if state.over:
            notes.append(f"deal {n}: played after the match ended ({state.end.how}); left out")  # type: ignore[union-attr]
            break
        if state.banker is not None and deal.banker != state.banker:
            notes.append(f"deal {n}: banker {deal.banker}, but the bank now belongs to {state.banker}")
        bs = side_of(deal.banker)
        if state.levels[bs] != deal.level:
            notes.append(f"deal {n}: played at {deal.level}, but {bs} is now at {state.levels[bs]}")
        state = play_on(state, deal)
    return _close(state, forfeited_by, now), tuple(notes)


def play_on(state: MatchState, deal: MatchDeal) -> MatchState:
    """One step of ``replay_played`` with no time called: ``deal`` folded as it was played (its banker, at the
    level that side now holds); a match already over stays as it is (``replay_played`` leaves the rest out).

    A caller that needs the state before every deal (each deal's starting levels) steps through the deals once
    with this and ``closed``, where calling ``replay_played`` for every prefix would fold the match n²/2 times."""
    if state.over:
        return state
    state = replace(state, banker=deal.banker)
    return _fold_timed(state, replace(deal, level=state.levels[side_of(deal.banker)], started_at=None))


def closed(state: MatchState, forfeited_by: str | None) -> MatchState:
    """The state ``replay_played`` returns after the deals stepped through (``play_on``), with no time called."""
    return _close(state, forfeited_by, None)


__all__: Sequence[str] = (
    "END_HOWS",
    "MatchDeal",
    "MatchEnd",
    "MatchError",
    "MatchState",
    "TIME_POINTS",
    "call_time",
    "can_start_deal",
    "closed",
    "fold_deal",
    "forfeit",
    "play_on",
    "replay",
    "replay_played",
    "start_match",
    "time_points",
)
