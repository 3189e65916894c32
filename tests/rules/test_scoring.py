"""Scoring one deal (RULES §9–11): points, kitty multipliers, penalties per preset, outcome and next banker."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.facts import LeadShape, PenaltyCall, TrickFacts
from rules.ruleset import PRESETS, Ruleset
from rules.scoring import ScoringError, kitty_multiplier, score_deal

STANDARD = PRESETS["standard"]
TWOS = PRESETS["permanent-twos"]
JJ = PRESETS["jj-competition"]
CLUB = PRESETS["club-competition"]

SINGLE = LeadShape("single")
PAIR = LeadShape("pair", 1)
TRACTOR2 = LeadShape("tractor", 2)
TRACTOR3 = LeadShape("tractor", 3)
THROW_PAIR = LeadShape("pair", 1, is_throw=True)  # a throw whose largest unit is a pair
THROW_SINGLE = LeadShape("single", 0, is_throw=True)


def deal(
    rs: Ruleset = STANDARD,
    *,
    attackers: int = 0,
    banker_pts: int = 0,
    banker: str = "N",
    level: str = "2",
    last_to_attackers: bool = False,
    shape: LeadShape = SINGLE,
    kitty: int = 0,
    penalties=(),
    levels=None,
    failed=None,
    jack: bool = False,
):
    """A two-trick deal: the attackers (seat after the banker) take ``attackers`` points, then a last trick."""
    from rules.seats import next_seat, partner

    att = next_seat(banker)
    tricks = [
        TrickFacts(banker, att, attackers, SINGLE),
        TrickFacts(banker, banker, banker_pts, SINGLE),
    ]
    if failed is not None:
        seat, back = failed
        tricks.append(
            TrickFacts(seat, partner(banker), 0, SINGLE, failed_throw_seat=seat, cards_taken_back=back)
        )
    winner = att if last_to_attackers else banker
    tricks.append(TrickFacts(winner, winner, 0, shape, winner_has_jack=jack))
    return score_deal(
        rs, banker=banker, level=level, tricks=tricks, kitty_points=kitty, penalties=penalties, levels=levels
    )


# ---- points -------------------------------------------------------------------------------------------------


def test_points_only_attackers_tricks():
    s = deal(attackers=85, banker_pts=40)
    assert s.attackers_points.as_dict() == {
        "tricks": 85,
        "kitty": 0,
        "multiplier": 0,
        "kitty_bonus": 0,
        "penalties": 0,
        "total": 85,
    }


def test_kitty_only_when_attackers_win_last_trick():
    kept = deal(attackers=40, kitty=25, shape=PAIR)
    assert kept.attackers_points.kitty_bonus == 0 and kept.attackers_points.multiplier == 0
    assert kept.attackers_points.kitty == 25
    taken = deal(attackers=40, kitty=25, shape=PAIR, last_to_attackers=True)
    assert taken.attackers_points.multiplier == 4
    assert taken.attackers_points.kitty_bonus == 100
    assert taken.attackers_points.total == 140


def test_attackers_are_the_non_banker_side():
    s = score_deal(
        STANDARD,
        banker="E",
        level="2",
        tricks=[
            TrickFacts("E", "N", 30, SINGLE),
            TrickFacts("N", "W", 50, SINGLE),
            TrickFacts("W", "S", 20, SINGLE),
        ],
        kitty_points=10,
    )
    assert s.attackers_points.tricks == 50
    assert s.attackers_points.kitty_bonus == 20  # S is an attacker, won the last trick with a single


# ---- kitty schemes -----------------------------------------------------------------------------------------

# Seed 000/003 and JJ比赛 九: 单扣N=2，双扣N=4，拖拉机扣N=8，以此类推 (unit_power: tractor of n pairs ×2·2ⁿ).
UNIT_POWER = [(SINGLE, 2), (PAIR, 4), (TRACTOR2, 8), (TRACTOR3, 16), (THROW_PAIR, 4), (THROW_SINGLE, 2)]
# Seed 002 扣底规则: 抠底分倍数为 2 的 (牌张数) 次方 … 最大 64 倍; 445566 翻 64 倍; 4455 翻 16 倍;
# 甩牌 AKQJ 10 9 8 77 扣底 根据对子 77 计算，为 4 倍.
CARD_POWER = [
    (SINGLE, 2),
    (PAIR, 4),
    (TRACTOR2, 16),
    (TRACTOR3, 64),
    (LeadShape("tractor", 4), 64),
    (THROW_PAIR, 4),
]
# Seed 001 抓底: 底牌中的分数要加倍 … 包含对子 4倍 … 有拖拉机 16倍.
TABLE = [(SINGLE, 2), (PAIR, 4), (TRACTOR2, 16), (TRACTOR3, 16), (THROW_PAIR, 4)]
# Seed 004 十: 单抠加倍 … 甩牌抠底按单抠计 (throws_as_single).
CLUB_KITTY = [(SINGLE, 2), (PAIR, 4), (TRACTOR2, 8), (TRACTOR3, 16), (THROW_PAIR, 2), (THROW_SINGLE, 2)]


@pytest.mark.parametrize(("shape", "mult"), UNIT_POWER)
def test_unit_power_kitty_multiplier_by_lead_shape(shape, mult):
    assert kitty_multiplier(STANDARD, shape) == mult
    assert kitty_multiplier(JJ, shape) == mult


@pytest.mark.parametrize(("shape", "mult"), CARD_POWER)
def test_card_power_kitty_multiplier_doubles_per_card(shape, mult):
    rs = Ruleset.from_spec({"preset": "standard", "kitty_scheme": "card_power"})
    assert kitty_multiplier(rs, shape) == mult


def test_card_power_multiplier_stops_at_the_cap():
    rs = Ruleset.from_spec({"preset": "standard", "kitty_scheme": "card_power", "kitty_cap": 16})
    assert kitty_multiplier(rs, TRACTOR3) == 16


@pytest.mark.parametrize(("shape", "mult"), TABLE)
def test_kitty_table_gives_the_multiplier_by_kind(shape, mult):
    assert kitty_multiplier(TWOS, shape) == mult


def test_kitty_table_may_set_a_multiplier_per_tractor_length():
    rs = Ruleset.from_spec(
        {"preset": "permanent-twos", "kitty_table": {"single": 2, "pair": 4, "tractor": 8, "tractor:3": 32}}
    )
    assert kitty_multiplier(rs, TRACTOR2) == 8
    assert kitty_multiplier(rs, TRACTOR3) == 32


@pytest.mark.parametrize(("shape", "mult"), CLUB_KITTY)
def test_club_kitty_counts_a_throw_as_a_single(shape, mult):
    assert kitty_multiplier(CLUB, shape) == mult


def test_kitty_bonus_in_deal_by_shape():
    s = deal(attackers=20, kitty=15, last_to_attackers=True, shape=TRACTOR2)
    assert (s.attackers_points.multiplier, s.attackers_points.kitty_bonus, s.attackers_points.total) == (
        8,
        120,
        140,
    )


# ---- point penalties ---------------------------------------------------------------------------------------


def test_failed_throw_per_card_attacker_and_banker():
    # JJ比赛 六: 甩牌出错时扣分办法：有N张甩不出去应扣N*10分.
    s = deal(JJ, attackers=60, failed=("W", 3))  # W is an attacker (banker N)
    assert s.attackers_points.penalties == -30 and s.attackers_points.total == 30
    s = deal(JJ, attackers=60, failed=("S", 2))  # S is the banker's partner
    assert s.attackers_points.penalties == 20 and s.attackers_points.total == 80


def test_failed_throw_per_attempt():
    rs = Ruleset.from_spec({"preset": "standard", "failed_throw": "per_attempt"})
    assert deal(rs, attackers=60, failed=("E", 4)).attackers_points.penalties == -10


def test_failed_throw_club_is_a_misplay():
    # Seed 004 九.4: 必须保证最大性，否则将以出错牌论处，罚 10 分给对方.
    assert deal(CLUB, attackers=60, failed=("E", 4)).attackers_points.penalties == -10
    assert deal(CLUB, attackers=60, failed=("N", 1)).attackers_points.penalties == 10


def test_misplay_and_signal_points_go_to_the_opponents():
    calls = [PenaltyCall("W", "misplay"), PenaltyCall("S", "signal", 3, "tapped")]
    s = deal(attackers=60, penalties=calls)
    assert s.attackers_points.penalties == -10 + 30
    assert s.attackers_points.total == 80
    # Seed 001: 竞赛中不允许提示 … 违者给予警告并扣30分.
    assert deal(TWOS, attackers=0, penalties=[PenaltyCall("E", "signal")]).attackers_points.total == -30


def test_signal_costs_no_points_when_the_ruleset_sets_none():
    rs = Ruleset.from_spec({"preset": "standard", "signal_points": None})
    assert deal(rs, attackers=60, penalties=[PenaltyCall("E", "signal")]).attackers_points.penalties == 0


def test_penalty_can_cross_a_band():
    # 75 + a banker-side misplay (10) = 85: the attackers take over.
    assert deal(attackers=75).result.outcome == "banker_holds"
    s = deal(attackers=75, penalties=[PenaltyCall("S", "misplay")])
    assert s.result.as_dict() == {"outcome": "takeover", "side": "attackers", "levels": 0, "next_banker": "W"}


# ---- results -----------------------------------------------------------------------------------------------


def test_result_dict_holds_outcome_levels_and_next_banker():
    hold = deal(attackers=35, levels={"NS": "2", "EW": "2"})
    assert hold.result.as_dict() == {
        "outcome": "banker_holds",
        "side": "banker",
        "levels": 2,
        "next_banker": "S",
        "levels_after": {"NS": "4", "EW": "2"},
    }
    take = deal(attackers=165, banker="W", level="5", levels={"NS": "9", "EW": "5"})
    assert take.result.as_dict() == {
        "outcome": "takeover",
        "side": "attackers",
        "levels": 2,
        "next_banker": "S",
        "levels_after": {"NS": "J", "EW": "5"},
    }
    assert "levels_after" not in deal(attackers=10).result.as_dict()


def test_match_won_at_target():
    s = deal(attackers=40, level="A", levels={"NS": "A", "EW": "K"})
    assert s.result.as_dict() == {
        "outcome": "match_won",
        "side": "banker",
        "levels": 1,
        "next_banker": None,
        "levels_after": {"NS": "A", "EW": "K"},
    }
    assert deal(attackers=80, level="A").result.outcome == "takeover"
    # JJ比赛 三: 先过10为胜.
    assert deal(JJ, attackers=55, level="T").result.outcome == "match_won"
    assert deal(JJ, attackers=55, level="9").result.outcome == "banker_holds"


def test_levels_must_match_deal_level():
    with pytest.raises(ScoringError, match="deal level"):
        deal(level="5", levels={"NS": "4", "EW": "2"})
    with pytest.raises(ScoringError, match="NS and EW"):
        deal(level="5", levels={"NS": "5"})
    assert deal(level="10", levels={"NS": "10", "EW": "j"}).result.levels_after == {"NS": "K", "EW": "J"}


def test_unknown_penalty_code_and_seat():
    with pytest.raises(ScoringError, match="'cheat'"):
        deal(penalties=[PenaltyCall("N", "cheat")])
    with pytest.raises(ScoringError, match="'X'"):
        deal(penalties=[PenaltyCall("X", "misplay")])


# ---- J rule (seed 004: 庄家打 J 级时，对家用 J 牌抠底，庄家重新从 2 级开始) --------------------------------------------


def test_j_rule_sends_banker_side_back():
    s = deal(
        CLUB,
        attackers=20,
        level="J",
        last_to_attackers=True,
        jack=True,
        kitty=0,
        levels={"NS": "J", "EW": "5"},
    )
    assert s.jack_reset
    assert s.result.outcome == "banker_holds"
    assert s.result.levels_after == {"NS": "2", "EW": "5"}
    assert s.result.next_banker == "S"


def test_j_rule_needs_jack_level_and_attackers_last_trick():
    lv = {"NS": "J", "EW": "5"}
    assert not deal(CLUB, level="J", last_to_attackers=True, jack=False, levels=lv).jack_reset
    assert not deal(CLUB, level="J", last_to_attackers=False, jack=True, levels=lv).jack_reset
    assert not deal(
        CLUB, level="Q", last_to_attackers=True, jack=True, levels={"NS": "Q", "EW": "5"}
    ).jack_reset
    assert not deal(STANDARD, level="J", last_to_attackers=True, jack=True, levels=lv).jack_reset


# ---- deal-ending and level penalties per preset ------------------------------------------------------------


@pytest.mark.parametrize("rs", [STANDARD, TWOS, CLUB], ids=["standard", "permanent-twos", "club"])
def test_revoke_loses_the_deal_for_the_offending_side(rs):
    # Seed 004 九.5: 若不如实跟出牌者，经发现将判该方本局为负。如庄家违反本条规定则倒庄，如对家违反本条规定则庄家升级.
    lv = {"NS": "2", "EW": "2"}
    b = deal(
        rs,
        attackers=0,
        level=rs.start_level,
        penalties=[PenaltyCall("S", "revoke")],
        levels={"NS": rs.start_level, "EW": rs.start_level},
    )
    assert b.result.as_dict()["outcome"] == "takeover"
    assert (b.result.side, b.result.levels, b.result.next_banker) == ("attackers", 0, "W")
    a = deal(rs, attackers=150, level=rs.start_level, penalties=[PenaltyCall("E", "revoke")])
    assert (a.result.outcome, a.result.side, a.result.levels, a.result.next_banker) == (
        "banker_holds",
        "banker",
        1,
        "S",
    )
    assert a.strikes == {"NS": 0, "EW": 0}
    del lv


def test_jj_revoke_costs_a_level_and_a_strike():
    # JJ比赛 五: 若每发现跟牌错误，等打完当把牌后，出错牌一方罚降一级，累计三次，直接被判负.
    s = deal(
        JJ, attackers=30, level="5", penalties=[PenaltyCall("S", "revoke")], levels={"NS": "5", "EW": "3"}
    )
    assert s.result.outcome == "banker_holds" and s.result.levels == 2  # points decide the deal
    assert s.result.levels_after == {"NS": "6", "EW": "3"}  # 5 +2 = 7, then −1
    assert s.strikes == {"NS": 1, "EW": 0}
    assert s.level_penalties == {"NS": 1, "EW": 0}


@pytest.mark.parametrize("rs", list(PRESETS.values()), ids=list(PRESETS))
def test_renege_costs_a_level_and_a_strike(rs):
    # JJ比赛 七: 不得悔牌 … 悔牌一方罚降一级，累计三次，直接被判负.
    start = rs.start_level
    up = rs.ladder[rs.ladder_index(start) + 1]
    s = deal(
        rs,
        attackers=45 * rs.decks,  # a takeover with no levels at every step (20 × decks)
        level=up,
        banker="E",
        penalties=[PenaltyCall("E", "renege")],
        levels={"NS": start, "EW": up},
    )
    assert s.result.outcome == "takeover"
    assert s.result.levels_after == {"NS": start, "EW": start}
    assert s.strikes == {"NS": 0, "EW": 1}


def test_level_penalty_never_below_start():
    s = deal(
        STANDARD,
        attackers=150,
        penalties=[PenaltyCall("S", "renege"), PenaltyCall("N", "renege")],
        levels={"NS": "2", "EW": "2"},
    )
    assert s.result.levels_after == {"NS": "2", "EW": "3"}
    assert s.strikes == {"NS": 2, "EW": 0}


def test_level_penalty_cancels_match_win():
    s = deal(
        JJ, attackers=0, level="T", penalties=[PenaltyCall("N", "renege")], levels={"NS": "T", "EW": "2"}
    )
    assert s.result.outcome == "banker_holds"
    assert s.result.levels_after == {"NS": "9", "EW": "2"}


@pytest.mark.parametrize("rs", [STANDARD, TWOS, CLUB], ids=["standard", "permanent-twos", "club"])
def test_wrong_card_count_loses_the_deal_for_the_offending_side(rs):
    # Seed 004 九.6: 如庄家多牌或少牌，则倒庄，如对家多牌或少牌则庄家升级.
    lv = {"NS": rs.start_level, "EW": rs.start_level}
    b = deal(
        rs, attackers=0, level=rs.start_level, penalties=[PenaltyCall("N", "wrong_card_count")], levels=lv
    )
    assert (b.result.outcome, b.result.levels, b.result.next_banker) == ("takeover", 0, "W")
    a = deal(
        rs, attackers=200, level=rs.start_level, penalties=[PenaltyCall("W", "wrong_card_count")], levels=lv
    )
    assert (a.result.outcome, a.result.levels, a.result.next_banker) == ("banker_holds", 1, "S")


def test_jj_wrong_card_count_moves_levels_and_both_at_fault_voids_the_deal():
    # JJ比赛 八: 若台上多牌少牌自动下台，且台下升一级；若台下多牌少牌，台上升一级，且台上继续打；
    # 若双方均出现多牌少牌情况，双方不升降级，且下把牌双方抢庄.
    lv = {"NS": "4", "EW": "6"}
    b = deal(JJ, attackers=0, level="4", penalties=[PenaltyCall("S", "wrong_card_count")], levels=lv)
    assert b.result.as_dict() == {
        "outcome": "takeover",
        "side": "attackers",
        "levels": 1,
        "next_banker": "W",
        "levels_after": {"NS": "4", "EW": "7"},
    }
    a = deal(JJ, attackers=150, level="4", penalties=[PenaltyCall("E", "wrong_card_count")], levels=lv)
    assert a.result.as_dict() == {
        "outcome": "banker_holds",
        "side": "banker",
        "levels": 1,
        "next_banker": "N",
        "levels_after": {"NS": "5", "EW": "6"},
    }
    both = deal(
        JJ,
        attackers=150,
        level="4",
        levels=lv,
        penalties=[PenaltyCall("E", "wrong_card_count"), PenaltyCall("N", "wrong_card_count")],
    )
    assert both.void
    assert both.result.as_dict() == {
        "outcome": "banker_holds",
        "side": "banker",
        "levels": 0,
        "next_banker": None,
        "levels_after": {"NS": "4", "EW": "6"},
    }


def test_deal_ending_wins_at_target():
    s = deal(STANDARD, attackers=200, level="A", penalties=[PenaltyCall("E", "revoke")])
    assert s.result.outcome == "match_won"


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(list(PRESETS.values())), st.integers(0, 40).map(lambda k: 5 * k), st.integers(0, 20))
def test_total_is_sum_of_parts(rs, tricks, kitty):
    s = deal(rs, attackers=tricks, kitty=kitty * 5, last_to_attackers=True, shape=PAIR)
    p = s.attackers_points
    assert p.total == p.tricks + p.kitty_bonus + p.penalties
    assert p.kitty_bonus == p.kitty * p.multiplier


def test_levels_off_the_ladder_rejected():
    # Club ladder 2-5-10-J-Q-K-A has no 3.
    with pytest.raises(ValueError, match="not on the ladder"):
        deal(CLUB, level="3", levels={"NS": "3", "EW": "2"})
    # Without levels a stand-alone deal may be judged at any level.
    assert deal(CLUB, level="3", attackers=50).result.outcome == "banker_holds"


def test_penalty_consequence_follows_the_ruleset():
    """One call's consequence, as scoring applies it: points for the opponents, a deal lost, a level and a strike."""
    from rules.levels import LevelGain
    from rules.scoring import penalty_consequence

    std, jj = Ruleset.from_spec("standard"), Ruleset.from_spec("jj-competition")
    assert penalty_consequence(std, "N", "W", "misplay").points == -10  # an attacker's fault lowers P
    assert penalty_consequence(std, "N", "S", "signal").points == 30  # a banker-side fault raises it
    assert penalty_consequence(std, "N", "W", "revoke").gain == LevelGain("banker", 1)
    assert penalty_consequence(std, "N", "S", "revoke").gain == LevelGain("attackers", 0)
    renege = penalty_consequence(std, "N", "E", "renege")
    assert (renege.gain, renege.level_down, renege.strike) == (None, 1, True)
    assert penalty_consequence(jj, "N", "W", "revoke").level_down == 1
    count = penalty_consequence(jj, "N", "E", "wrong_card_count")
    assert count.gain == LevelGain("banker", 1) and count.same_banker
    assert penalty_consequence(jj, "N", "S", "wrong_card_count").gain == LevelGain("attackers", 1)
