"""Scoring one deal (RULES §9–10): attackers' points, kitty bonus, penalties, and the deal's result.

``score_deal`` turns the trick side's ``TrickFacts`` and the judge's ``PenaltyCall``s into the verdict's
``attackers_points`` and ``result`` (DEAL-RECORD). It also exposes what the match fold needs and the verdict
does not show: strikes and level penalties per side, the J rule, and a void deal.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from .facts import LeadShape, PenaltyCall, TrickFacts
from .levels import LevelGain, LevelStop, level_changes, level_gain, next_banker, wins_match
from .ranks import parse_rank
from .ruleset import FailedThrow, FaultEffect, KittyScheme, Ruleset, WrongCardCount
from .seats import SEATS, SIDES, other_side, side_of

PENALTY_CODES = ("misplay", "signal", "renege", "revoke", "wrong_card_count")

# A fault the engine finds → the penalty the judge may apply with one click (RULES §9).
PENALTY_FOR_VIOLATION = {
    "revoke_suit": "revoke",
    "revoke_pair": "revoke",
    "revoke_tractor": "revoke",
    "not_held": "wrong_card_count",
    "card_count": "wrong_card_count",
    "throw_should_fail": "misplay",
    "wrong_forced_unit": "misplay",
    "bad_challenge": "misplay",
    "mixed_lead": "misplay",
    "play_size": "misplay",
    # A play out of turn (the judge records it as it happened, RULES §9): no preset names another penalty.
    "wrong_order": "misplay",
    "wrong_leader": "misplay",
}


class ScoringError(ValueError):
    """Inputs scoring cannot use: an unknown penalty code or seat, levels that disagree with the deal."""


@dataclass(frozen=True, slots=True)
class AttackersPoints:
    """The verdict's ``attackers_points``: ``total`` = tricks + kitty_bonus + penalties."""

    tricks: int
    kitty: int
    multiplier: int
    kitty_bonus: int
    penalties: int
    total: int

    def as_dict(self) -> dict[str, int]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class DealResult:
    """The verdict's ``result``; ``levels_after`` only when the caller gave both sides' levels."""

    outcome: str
    side: str
    levels: int
    next_banker: str | None
    levels_after: Mapping[str, str] | None = None
    # Why a side climbed fewer levels than it gained (a must-play level, the target, the J rule); not part of
    # the DEAL-RECORD verdict (``as_dict``), which gives only the levels.
    stops: tuple[LevelStop, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "outcome": self.outcome,
            "side": self.side,
            "levels": self.levels,
            "next_banker": self.next_banker,
        }
        if self.levels_after is not None:
            d["levels_after"] = {side: self.levels_after[side] for side in SIDES}
        return d


@dataclass(frozen=True, slots=True)
class PenaltyEffects:
    """What the judge's calls do beyond points: per-side strikes and level penalties, deal-ending faults."""

    strikes: Mapping[str, int] = field(default_factory=lambda: {"NS": 0, "EW": 0})
    level_penalties: Mapping[str, int] = field(default_factory=lambda: {"NS": 0, "EW": 0})
    # Deal-ending faults as (side, kind) with kind "lose_deal", "wrong_card_count".
    deal_ending: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class DealScore:
    """One deal scored: the two verdict parts plus the facts the match fold needs."""

    attackers_points: AttackersPoints
    result: DealResult
    banker: str
    level: str
    gain: LevelGain
    effects: PenaltyEffects
    jack_reset: bool = False
    # Both sides faulted a deal-ending way: no level change, next banker contested.
    void: bool = False

    @property
    def won(self) -> bool:
        """The banker side won the deal (may leave a must-play level; at the target, wins the match)."""
        return self.gain.side == "banker" and not self.void

    @property
    def strikes(self) -> Mapping[str, int]:
        return self.effects.strikes

    @property
    def level_penalties(self) -> Mapping[str, int]:
        return self.effects.level_penalties


def kitty_multiplier(rs: Ruleset, shape: LeadShape) -> int:
    """The kitty multiplier for the last trick's lead shape under the ruleset's scheme (RULES §9)."""
    if shape.is_throw and rs.throws_as_single:
        return 2  # seed 004: 甩牌抠底按单抠计
    if rs.kitty_scheme == KittyScheme.UNIT_POWER:
        if shape.kind == "single":
            return 2
        return 2 * int(
            shape.sets**shape.pairs
        )  # RULES §13.5: 2·n^len (pair ×4, tractor 2·2^len, 泰坦尼克 2·3^len)
    if rs.kitty_scheme == KittyScheme.CARD_POWER:
        return min(int(2**shape.cards), rs.kitty_cap)
    table = dict(rs.kitty_table)
    if shape.kind == "tractor":
        return table.get(f"tractor:{shape.pairs}", table["tractor"])
    return table.get(
        shape.kind, 2 * int(shape.sets**shape.pairs)
    )  # kinds of more decks a table does not name


def _check_seat(seat: str | None, what: str) -> str:
    if seat not in SEATS:
        raise ScoringError(f"{what}: unknown seat {seat!r}")
    return seat


def penalty_points(
    rs: Ruleset, banker: str, tricks: Sequence[TrickFacts], penalties: Sequence[PenaltyCall]
) -> int:
    """Signed change to ``P``: an attacker's fault lowers it, a banker-side fault raises it."""
    bs = side_of(banker)
    total = 0

    def charge(seat: str, pts: int) -> None:
        nonlocal total
        total += pts if side_of(seat) == bs else -pts

    for t in tricks:
        if t.failed_throw_seat is None:
            continue
        seat = _check_seat(t.failed_throw_seat, "failed throw")
        charge(seat, failed_throw_points(rs, t.cards_taken_back))
    for p in penalties:
        seat = _check_seat(p.seat, f"penalty {p.code!r}")
        if p.code == "misplay":
            charge(seat, rs.misplay_points)
        elif p.code == "signal" and rs.signal_points is not None:
            charge(seat, rs.signal_points)
    return total


def failed_throw_points(rs: Ruleset, cards_taken_back: int) -> int:
    """Points one failed throw costs the thrower's side (RULES §9; the judge's screen shows it too)."""
    if rs.failed_throw == FailedThrow.PER_CARD:
        return rs.failed_throw_points * cards_taken_back
    if rs.failed_throw == FailedThrow.PER_ATTEMPT:
        return rs.failed_throw_points
    return rs.misplay_points  # "misplay": seed 004 出错牌 罚 10 分


@dataclass(frozen=True, slots=True)
class Consequence:
    """What one penalty call does under a ruleset, whatever else happens in the deal (RULES §9, §11).

    ``points`` is the change to the attackers' points (negative for an attackers' fault); ``gain`` is set when
    the call ends the deal (who gains how many levels), with ``same_banker`` when the banker banks again;
    ``level_down`` and ``strike`` are what the side at fault serves after the deal.
    """

    points: int = 0
    gain: LevelGain | None = None
    same_banker: bool = False
    level_down: int = 0
    strike: bool = False


def penalty_consequence(rs: Ruleset, banker: str, seat: str, code: str) -> Consequence:
    """The consequence of one call of ``code`` on ``seat`` in a deal banked by ``banker``, as scoring applies it."""
    call = PenaltyCall(_check_seat(seat, f"penalty {code!r}"), code)
    effects = penalty_effects(rs, [call])
    side = side_of(seat)
    gain, same = None, False
    if effects.deal_ending:
        gain, nb, _void = _decide(rs, banker, 0, effects)
        same = nb == banker
    return Consequence(
        penalty_points(rs, banker, (), [call]),
        gain,
        same,
        effects.level_penalties[side],
        effects.strikes[side] > 0,
    )


def penalty_effects(rs: Ruleset, penalties: Sequence[PenaltyCall]) -> PenaltyEffects:
    """Strikes, level penalties and deal-ending faults from the judge's calls (RULES §9, §11)."""
    strikes = {"NS": 0, "EW": 0}
    downs = {"NS": 0, "EW": 0}
    ending: list[tuple[str, str]] = []
    for p in penalties:
        if p.code not in PENALTY_CODES:
            raise ScoringError(f"unknown penalty code {p.code!r} (known: {', '.join(PENALTY_CODES)})")
        side = side_of(_check_seat(p.seat, f"penalty {p.code!r}"))
        effect = {"revoke": rs.revoke, "renege": rs.renege}.get(p.code)
        if effect == FaultEffect.LEVEL:
            strikes[side] += 1
            downs[side] += 1
        elif effect == FaultEffect.LOSE_DEAL:
            ending.append((side, "lose_deal"))
        elif p.code == "wrong_card_count":
            ending.append((side, "wrong_card_count"))
    return PenaltyEffects(strikes, downs, tuple(ending))


def score_deal(
    rs: Ruleset,
    *,
    banker: str,
    level: str,
    tricks: Sequence[TrickFacts],
    kitty_points: int,
    penalties: Sequence[PenaltyCall] = (),
    levels: Mapping[str, str] | None = None,
) -> DealScore:
    """Score one complete deal: points, kitty bonus, penalties, outcome, next banker, levels after."""
    _check_seat(banker, "banker")
    level = parse_rank(level)
    bs = side_of(banker)
    if levels is not None:
        if set(levels) != set(SIDES):
            raise ScoringError(f"levels need exactly the sides NS and EW, not {sorted(levels)}")
        levels = {side: parse_rank(levels[side]) for side in SIDES}
        if levels[bs] != level:
            raise ScoringError(f"levels give the banker side {levels[bs]!r}, the deal level is {level!r}")

    trick_pts = sum(t.points for t in tricks if side_of(t.winner) != bs)
    multiplier = kitty_bonus = 0
    last = tricks[-1] if tricks else None
    if last is not None and side_of(last.winner) != bs:
        multiplier = kitty_multiplier(rs, last.lead_shape)
        kitty_bonus = kitty_points * multiplier
    pen = penalty_points(rs, banker, tricks, penalties)
    total = trick_pts + kitty_bonus + pen
    points = AttackersPoints(trick_pts, kitty_points, multiplier, kitty_bonus, pen, total)

    effects = penalty_effects(rs, penalties)
    gain, nb, void = _decide(rs, banker, total, effects)
    jack_reset = (
        rs.j_rule
        and not effects.deal_ending
        and level == "J"
        and last is not None
        and side_of(last.winner) != bs
        and last.winner_has_jack
    )
    won = gain.side == "banker" and not void
    match_won = wins_match(
        rs, level, won=won, jack_reset=jack_reset, banker_level_penalty=effects.level_penalties[bs]
    )
    if match_won:
        outcome, nb = "match_won", None
    else:
        outcome = "takeover" if gain.side == "attackers" else "banker_holds"
    after = None
    stops: tuple[LevelStop, ...] = ()
    if levels is not None:
        after, stops = level_changes(
            rs,
            levels,
            banker=banker,
            gain=gain,
            won=won,
            jack_reset=jack_reset,
            level_penalties=effects.level_penalties,
        )
    result = DealResult(outcome, gain.side, gain.levels, nb, after, stops)
    return DealScore(points, result, banker, level, gain, effects, jack_reset, void)


def _decide(
    rs: Ruleset, banker: str, points: int, effects: PenaltyEffects
) -> tuple[LevelGain, str | None, bool]:
    """The deal's gain and next banker: deal-ending faults first (RULES §9, §11), else the level table."""
    bs = side_of(banker)
    by_banker = [kind for side, kind in effects.deal_ending if side == bs]
    by_attackers = [kind for side, kind in effects.deal_ending if side == other_side(bs)]
    jj = rs.wrong_card_count == WrongCardCount.JJ
    if by_banker and by_attackers:
        # Seed 002 JJ比赛 八: 双方均出现多牌少牌情况，双方不升降级，且下把牌双方抢庄 — applied to any mix.
        return LevelGain("banker", 0), None, True
    if by_banker:
        # 台上多牌少牌自动下台，且台下升一级 (jj); otherwise 倒庄 with no levels.
        n = 1 if jj and "wrong_card_count" in by_banker else 0
        return LevelGain("attackers", n), next_banker(rs, banker, True), False
    if by_attackers:
        # 台下多牌少牌，台上升一级，且台上继续打 (jj: same banker); otherwise 庄家升级.
        same = jj and "wrong_card_count" in by_attackers
        return LevelGain("banker", 1), banker if same else next_banker(rs, banker, False), False
    gain = level_gain(rs, points)
    return gain, next_banker(rs, banker, gain.takeover), False
