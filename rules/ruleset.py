"""The ruleset: every point on which the seeds disagree is a setting here (RULES §9–12, presets §11).

A ``Ruleset`` is immutable. ``Ruleset.from_spec`` reads what a deal record or the site stores — a preset
name, or ``{"preset": NAME, …settings that differ}`` — and ``to_spec`` writes the shortest such spec back, so
the site can store a ruleset as plain JSON. Anything unknown or out of range raises ``RulesetError``
naming the culprit.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

from .cards import POINTS
from .order import Trump, trump_from_text
from .ranks import RANKS
from .ruleset_types import (  # re-exported: every reader of a ruleset imports them from here
    MAX_DECKS,
    MAX_NUMBER,
    Band,
    BandSide,
    FailedThrow,
    FaultEffect,
    KittyScheme,
    RulesetError,
    TimeRule,
    TimeTie,
    WrongCardCount,
)
from .ruleset_values import _INT, _INT_OPTIONAL, _TABLE_KINDS, coerce, follow_tables, to_json

__all__ = [
    "MAX_DECKS", "MAX_NUMBER", "Band", "BandSide", "FailedThrow", "FaultEffect", "KittyScheme", "Ruleset",
    "RulesetError", "TimeRule", "TimeTie", "WrongCardCount",
]  # fmt: skip


@dataclass(frozen=True, slots=True)
class Ruleset:
    """All the settings of one ruleset. Build one with ``from_spec`` or from ``PRESETS``."""

    preset: str = "standard"
    decks: int = 2
    # Cards in the kitty; None: what is left after an even deal, at least 4 (RULES §13: four decks have none).
    kitty_cards: int | None = None
    clockwise: bool = False
    permanent_twos: bool = False
    trump_throws: bool = True
    # Units (§4, §13.1): do chains skip the level rank and run through the level cards (four-deck: no)?
    chain_skips_level: bool = True
    # §13.4: on a lead of one tractor a quad, or a chain of triples or quads of as many cards, is a bomb.
    bombs: bool = False
    # §13.3: explicit follow orders, lead kind ("3x2": a chain of 2 triples, "4x*": any chain of quads) → lines,
    # each the units a play must contain ("3x1" a triple, "2x+" the longest tractor the cards allow, "2+" as many
    # pairs as they allow, at least one; "2*" the same, possibly none); the first line the follower can form
    # rules. Empty: the general rule of §6/§13.3.
    follow_tables: tuple[tuple[str, tuple[tuple[str, ...], ...]], ...] = ()
    # Ladder (§10): ranks climbed one step at a time; the target is always must-play.
    ladder: tuple[str, ...] = RANKS
    start_level: str = "2"
    target_level: str = "A"
    must_play: tuple[str, ...] = ()
    # Kitty (§9).
    kitty_scheme: KittyScheme = KittyScheme.UNIT_POWER
    kitty_cap: int = 64
    kitty_table: tuple[tuple[str, int], ...] = ()
    throws_as_single: bool = False
    # Level table (§10): a step (default 20 × decks) or explicit bands; an optional cap per deal.
    level_step: int | None = None
    level_bands: tuple[Band, ...] | None = None
    level_cap: int | None = None
    # Penalties (§9).
    failed_throw: FailedThrow = FailedThrow.PER_CARD
    failed_throw_points: int = 10
    misplay_points: int = 10
    signal_points: int | None = 30
    revoke: FaultEffect = FaultEffect.LOSE_DEAL
    renege: FaultEffect = FaultEffect.LEVEL
    wrong_card_count: WrongCardCount = WrongCardCount.STANDARD
    strikes_to_forfeit: int | None = None
    # Match (§10, §12).
    j_rule: bool = False
    time_limit_minutes: int | None = None
    time_rule: TimeRule = TimeRule.HIGHER_LEVEL
    time_tie: TimeTie = TimeTie.BANKER_SIDE
    mercy_levels: int | None = None

    # ---- derived ----
    @property
    def kitty_size(self) -> int:
        """Cards in the kitty: ``kitty_cards``, else what is left after an even deal, at least 4 (8 for two
        decks, 6 for one or three)."""
        if self.kitty_cards is not None:
            return self.kitty_cards
        total = 54 * self.decks
        return total % 4 + 4 if total % 4 else 8

    @property
    def max_set(self) -> int:
        """The largest set the decks allow: 1 (one deck: singles only), 2 pairs, 3 triples, 4 quads (§13.1)."""
        return min(self.decks, 4)

    def trump(self, level: str, trump: str) -> Trump:
        """The deal's ``Trump`` under this ruleset (twos, set size, chain rule): ``trump("5", "H")``."""
        return trump_from_text(level, trump, self.permanent_twos, self.max_set, self.chain_skips_level)

    def follow_lines(self, n: int, length: int) -> tuple[tuple[str, ...], ...] | None:
        """The explicit follow order for a lead of one unit of ``n``-sets chained ``length`` long, or None."""
        if not self.follow_tables:
            return None
        tables = dict(self.follow_tables)
        found = tables.get(f"{n}x{length}")
        if found is None and length >= 2:
            found = tables.get(f"{n}x*")
        return found

    @property
    def deck_points(self) -> int:
        """Points in all the cards of the game (100 a deck)."""
        return self.decks * sum(POINTS)

    @property
    def hand_size(self) -> int:
        """Cards dealt to each seat."""
        return (54 * self.decks - self.kitty_size) // 4

    @property
    def step(self) -> int:
        """The level-table step ``s`` (RULES §10): ``level_step`` or 20 × decks."""
        return self.level_step if self.level_step is not None else 20 * self.decks

    def is_must_play(self, level: str) -> bool:
        return level == self.target_level or level in self.must_play

    def ladder_index(self, level: str) -> int:
        """Position of a level on the ladder (0 = first rung); RulesetError when it is not on it."""
        try:
            return self.ladder.index(level)
        except ValueError:
            raise RulesetError("level_off_ladder", level=level, ladder="-".join(self.ladder)) from None

    # ---- spec I/O ----
    @classmethod
    def from_spec(cls, spec: str | Mapping[str, Any] | Ruleset | None) -> Ruleset:
        """A ruleset from a preset name or ``{"preset": NAME, …overrides}``; ``None`` means ``standard``."""
        if isinstance(spec, Ruleset):
            return spec
        if spec is None:
            spec = "standard"
        if isinstance(spec, str):
            if spec not in PRESETS:
                raise RulesetError("unknown_preset", preset=spec, known=", ".join(PRESETS))
            return PRESETS[spec]
        if not isinstance(spec, Mapping):
            raise RulesetError("not_a_ruleset", type=type(spec).__name__)
        name = spec.get("preset", "standard")
        if not isinstance(name, str) or name not in PRESETS:
            raise RulesetError("unknown_preset", preset=name, known=", ".join(PRESETS))
        base = PRESETS[name]
        changes: dict[str, Any] = {}
        for key, value in spec.items():
            if key == "preset":
                continue
            if key not in _SETTINGS:
                raise RulesetError("unknown_setting", key if isinstance(key, str) else None, key=key)
            changes[key] = coerce(key, value)
        return _validate(replace(base, **changes))

    def as_dict(self) -> dict[str, Any]:
        """Every setting as JSON-ready values (``from_spec`` reads it back)."""
        return {"preset": self.preset} | {name: to_json(name, getattr(self, name)) for name in _SETTINGS}

    def to_spec(self) -> str | dict[str, Any]:
        """The shortest spec: the preset name, or the preset plus only the settings that differ from it."""
        if self.preset not in PRESETS:
            raise RulesetError("unknown_preset", preset=self.preset, known=", ".join(PRESETS))
        base = PRESETS[self.preset].as_dict()
        mine = self.as_dict()
        diff = {k: v for k, v in mine.items() if k != "preset" and base[k] != v}
        return self.preset if not diff else {"preset": self.preset} | diff


_SETTINGS: tuple[str, ...] = tuple(f.name for f in fields(Ruleset) if f.name != "preset")


def _numbers(rs: Ruleset) -> list[tuple[str, int]]:
    """Every number of the ruleset, named by its setting (bands and the kitty table too)."""
    found = [(key, getattr(rs, key)) for key in sorted(_INT | _INT_OPTIONAL)]
    found += [("kitty_table", m) for _kind, m in rs.kitty_table]
    for b in rs.level_bands or ():
        found += [("level_bands", n) for n in (b.low, b.levels, b.every)]
    return [(key, n) for key, n in found if n is not None]


def _check_numbers(rs: Ruleset) -> None:
    """No number larger than any setting needs (a time limit past the calendar, a penalty past any total)."""
    for key, n in _numbers(rs):
        if abs(n) > MAX_NUMBER:  # not written out: it may have more digits than Python writes
            raise RulesetError("out_of_range", key, max=MAX_NUMBER)


def _validate(rs: Ruleset) -> Ruleset:
    """Check cross-setting consistency; return the ruleset unchanged."""
    _check_numbers(rs)
    if rs.decks < 1:
        raise RulesetError("decks_too_few", "decks", decks=rs.decks)
    if rs.decks > MAX_DECKS:
        raise RulesetError("decks_too_many", "decks", decks=rs.decks, max=MAX_DECKS)
    if rs.kitty_cards is not None and (rs.kitty_cards < 0 or (54 * rs.decks - rs.kitty_cards) % 4):
        raise RulesetError(
            "kitty_unshared", "kitty_cards", kitty=rs.kitty_cards, left=54 * rs.decks - rs.kitty_cards
        )
    if rs.hand_size < 1:
        raise RulesetError("kitty_no_hand", "kitty_cards", kitty=rs.kitty_cards, decks=rs.decks)
    for kind, _lines in rs.follow_tables:
        if int(kind[0]) > rs.max_set:
            raise RulesetError("follow_lead_too_large", "follow_tables", kind=kind, n=kind[0], decks=rs.decks)
    if len(rs.ladder) < 2 or len(set(rs.ladder)) != len(rs.ladder):
        raise RulesetError("ladder_short", "ladder", ladder=list(rs.ladder))
    if [RANKS.index(r) for r in rs.ladder] != sorted(RANKS.index(r) for r in rs.ladder):
        raise RulesetError("ladder_order", "ladder", ladder=list(rs.ladder))
    for key in ("start_level", "target_level"):
        if getattr(rs, key) not in rs.ladder:
            raise RulesetError("level_not_on_ladder", key, level=getattr(rs, key), ladder=rs.ladder)
    if rs.ladder.index(rs.start_level) >= rs.ladder.index(rs.target_level):
        raise RulesetError("target_not_above", "target_level", target=rs.target_level, start=rs.start_level)
    for lv in rs.must_play:
        if lv not in rs.ladder:
            raise RulesetError("must_play_off_ladder", "must_play", level=lv, ladder=list(rs.ladder))
    if rs.permanent_twos and "2" in rs.ladder[rs.ladder.index(rs.start_level) :]:
        raise RulesetError("twos_on_ladder", "permanent_twos")
    if rs.kitty_cap < 1:
        raise RulesetError("not_positive", "kitty_cap", value=rs.kitty_cap)
    if rs.kitty_scheme == KittyScheme.TABLE:
        kinds = dict(rs.kitty_table)
        missing = [k for k in _TABLE_KINDS if k not in kinds]
        if missing:
            raise RulesetError("kitty_table_incomplete", "kitty_table", kind=missing[0])
    if any(m < 1 for _, m in rs.kitty_table):
        raise RulesetError("kitty_table_multiplier", "kitty_table")
    if rs.level_step is not None and rs.level_step < 1:
        raise RulesetError("not_positive", "level_step", value=rs.level_step)
    if rs.level_bands is not None:
        bands = rs.level_bands
        if not bands or bands[0].low is not None:
            raise RulesetError("bands_first", "level_bands")
        lows = [b.low for b in bands[1:]]
        if any(lo is None for lo in lows) or lows != sorted(set(lows)):  # type: ignore[type-var]
            raise RulesetError("bands_rise", "level_bands")
        if any(b.levels < 0 for b in bands) or any(b.every is not None and b.every < 1 for b in bands):
            raise RulesetError("bands_levels", "level_bands")
        if any(b.every is not None for b in bands[:-1]):
            raise RulesetError("bands_every", "level_bands")
        signed = [b.levels if b.side == BandSide.BANKER else -1 - b.levels for b in bands]
        if any(later > earlier for earlier, later in zip(signed, signed[1:], strict=False)):
            raise RulesetError("bands_order", "level_bands")
    for key in ("level_cap", "strikes_to_forfeit", "time_limit_minutes", "mercy_levels"):
        v = getattr(rs, key)
        if v is not None and v < 1:
            raise RulesetError("not_positive_or_null", key, value=v)
    for key in ("failed_throw_points", "misplay_points"):
        if getattr(rs, key) < 0:
            raise RulesetError("negative", key)
    if rs.signal_points is not None and rs.signal_points < 0:
        raise RulesetError("negative", "signal_points")
    return rs


# Seed 002 【出牌规则】 (RULES §13.3): 泰坦尼克 (a chain of 2 triples) and a triple. "tractor + any 2" is the
# line 2x2; "triple + pair + single" is 3x1 2x1, the single being the fill.
THREE_DECK_FOLLOW = follow_tables(
    {
        "3x2": [["3x2"], ["2x2"], ["3x1", "3x1"], ["3x1", "2x1"], ["3x1"], ["2x1", "2x1"], ["2x1"], []],
        "3x1": [["3x1"], ["2x1"], []],
    }
)
# Seed 001 （三）出牌顺序 (RULES §13.3). Where a line names "tractor" or "pair" the play owes the longest tractor
# and the most pairs the lead's card count allows and the hand can form (§13.6), and after a tractor or a triple
# as many pairs as still fit (the reading that asks more of the follower, docs/engine.md).
FOUR_DECK_FOLLOW = follow_tables(
    {
        "4x1": [["4x1"], ["2x2"], ["2+"], ["3x1"], []],
        "3x1": [["3x1"], ["2+"], []],
        "4x*": [["4x*"], ["3x*", "2+"], ["2x+", "2*"], ["3x1", "2+"], ["2+"], []],
        "3x*": [["3x*"], ["2x+", "2*"], ["3x1", "2+"], ["2+"], []],
        "2x*": [["2x+", "2*"], ["2+"], []],
    }
)


def _preset(**kw: Any) -> Ruleset:
    return _validate(Ruleset(**kw))


PRESETS: dict[str, Ruleset] = {
    # seeds 000, 002, 003: 2…A, step 40 ("以后以 40 分为一个等级"), 单扣×2 双扣×4 拖拉机×8 (unit_power).
    "standard": _preset(preset="standard"),
    # seed 001 (二副牌): 从打3开始…先打过"A"者; 2 常主; 抓底 ×2, 对子 ×4, 拖拉机 ×16; 提示…扣30分.
    "permanent-twos": _preset(
        preset="permanent-twos",
        permanent_twos=True,
        ladder=RANKS[1:],
        start_level="3",
        kitty_scheme=KittyScheme.TABLE,
        kitty_table=(("single", 2), ("pair", 4), ("tractor", 16)),
    ),
    # seed 002 JJ比赛 (双升比赛规则): 先过10为胜，逢10必打;
    # 0分—4级 … 100-115 台下升1级, 120-135 升2级 依次类推;
    # 跟牌错误 罚降一级 累计三次判负; 悔牌 同; 多牌少牌 (八);
    # 甩牌 N 张 扣 N*10 分; 一小时, 同级台上胜.
    "jj-competition": _preset(
        preset="jj-competition",
        target_level="T",
        must_play=("T",),
        level_bands=(
            Band(None, BandSide.BANKER, 4),
            Band(1, BandSide.BANKER, 3),
            Band(30, BandSide.BANKER, 2),
            Band(55, BandSide.BANKER, 1),
            Band(80, BandSide.ATTACKERS, 0),
            Band(100, BandSide.ATTACKERS, 1, every=20),
        ),
        revoke=FaultEffect.LEVEL,
        wrong_card_count=WrongCardCount.JJ,
        strikes_to_forfeit=3,
        time_limit_minutes=60,
        time_rule=TimeRule.HIGHER_LEVEL,
        time_tie=TimeTie.BANKER_SIDE,
    ),
    # seed 004 比赛规则: 级牌 2、5、10、J、Q、K、A, 逢 2、A 级必须打;
    # 庄家打 J 级时对家用 J 牌抠底重新从 2 级开始; 甩牌抠底按单抠计;
    # 每局最高升级为三级; 出错牌 罚 10 分; kitty ×2/×4/×8 as RULES §11 (unit_power).
    "club-competition": _preset(
        preset="club-competition",
        ladder=("2", "5", "T", "J", "Q", "K", "A"),
        must_play=("2", "A"),
        throws_as_single=True,
        level_bands=(
            Band(None, BandSide.BANKER, 3),
            Band(1, BandSide.BANKER, 2),
            Band(40, BandSide.BANKER, 1),
            Band(80, BandSide.ATTACKERS, 0),
            Band(120, BandSide.ATTACKERS, 2),
            Band(150, BandSide.ATTACKERS, 3),
        ),
        level_cap=3,
        failed_throw=FailedThrow.MISPLAY,
        j_rule=True,
    ),
    # seeds 002, 003 (一副牌: 分数段 20 分一段): one deck, 12 cards a hand, kitty 6, singles only, step 20.
    "one-deck": _preset(preset="one-deck", decks=1),
    # seed 002 【三副牌规则】, seed 000 (Titanic kitty 2·3^len): 39 a hand, kitty 6, step 60; its 出牌规则 tables.
    "three-deck": _preset(preset="three-deck", decks=3, follow_tables=THREE_DECK_FOLLOW),
    # seed 001 四副牌竞赛规则: 从3打起, 2 常主, 庄家不垫底牌 (no kitty, 54 a hand), 三张/四张/推土机, 四张胜拖拉机,
    # 推土机胜拖拉机, 点数相连 (chains do not skip the level), step 80, 每局最多升三级, （三）出牌顺序.
    "four-deck": _preset(
        preset="four-deck",
        decks=4,
        kitty_cards=0,
        permanent_twos=True,
        ladder=RANKS[1:],
        start_level="3",
        chain_skips_level=False,
        bombs=True,
        follow_tables=FOUR_DECK_FOLLOW,
        level_cap=3,
    ),
}
