"""Level table, ladder, must-play stops, J rule reset, next banker (RULES §10, presets §11)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.levels import (
    LevelGain,
    climb,
    ladder_gap,
    level_changes,
    level_gain,
    next_banker,
    step_down,
    wins_match,
)
from rules.ruleset import PRESETS, Ruleset

STANDARD = PRESETS["standard"]
TWOS = PRESETS["permanent-twos"]
JJ = PRESETS["jj-competition"]
CLUB = PRESETS["club-competition"]

# Seed 000/002/003 (两副牌): 得分为0庄家方连升3级; 不满40连升2级; 40–80 升1级; 80–120 轮换庄家;
# 120–160 抓分方升1级; 160–200 连升2级; 以后以40分为一个等级.
STEP_40 = [
    (-40, "banker", 3),
    (-10, "banker", 3),
    (0, "banker", 3),
    (5, "banker", 2),
    (35, "banker", 2),
    (40, "banker", 1),
    (75, "banker", 1),
    (80, "attackers", 0),
    (95, "attackers", 0),
    (100, "attackers", 0),
    (115, "attackers", 0),
    (120, "attackers", 1),
    (145, "attackers", 1),
    (150, "attackers", 1),
    (155, "attackers", 1),
    (160, "attackers", 2),
    (195, "attackers", 2),
    (200, "attackers", 3),
    (240, "attackers", 4),
]

# Seed 002 JJ比赛 十: 0分—4级；5-25分—庄家升3级；30-50分—庄家升2级；55-75—庄家升1级； 80-95—庄家下台；
# 100-115—台下升1级；120－135台下升2级，依次类推.
JJ_BANDS = [
    (-10, "banker", 4),
    (0, "banker", 4),
    (5, "banker", 3),
    (25, "banker", 3),
    (30, "banker", 2),
    (35, "banker", 2),
    (40, "banker", 2),
    (50, "banker", 2),
    (55, "banker", 1),
    (75, "banker", 1),
    (80, "attackers", 0),
    (95, "attackers", 0),
    (100, "attackers", 1),
    (115, "attackers", 1),
    (120, "attackers", 2),
    (135, "attackers", 2),
    (140, "attackers", 3),
    (145, "attackers", 3),
    (150, "attackers", 3),
    (155, "attackers", 3),
    (160, "attackers", 4),
    (200, "attackers", 6),
]

# Seed 004 比赛规则 十一: 每局最高升级为三级. 0 分 对方升三级; 5 35 分 对方升二级; 40 75 分 对方升一级;
# 80 115 分 倒庄; 120145 分 升二级; 150 分以上 升三级 (as written: no +1 band for the attackers).
CLUB_BANDS = [
    (-10, "banker", 3),
    (0, "banker", 3),
    (5, "banker", 2),
    (35, "banker", 2),
    (40, "banker", 1),
    (75, "banker", 1),
    (80, "attackers", 0),
    (95, "attackers", 0),
    (100, "attackers", 0),
    (115, "attackers", 0),
    (120, "attackers", 2),
    (145, "attackers", 2),
    (150, "attackers", 3),
    (155, "attackers", 3),
    (160, "attackers", 3),
    (200, "attackers", 3),
    (400, "attackers", 3),
]


@pytest.mark.parametrize(("points", "side", "n"), STEP_40)
@pytest.mark.parametrize("rs", [STANDARD, TWOS], ids=["standard", "permanent-twos"])
def test_step_40_bands_give_the_level_change_at_each_edge(rs, points, side, n):
    assert level_gain(rs, points) == LevelGain(side, n)


@pytest.mark.parametrize(("points", "side", "n"), JJ_BANDS)
def test_jj_bands_give_the_level_change_at_each_edge(points, side, n):
    assert level_gain(JJ, points) == LevelGain(side, n)


@pytest.mark.parametrize(("points", "side", "n"), CLUB_BANDS)
def test_club_bands_give_the_level_change_at_each_edge(points, side, n):
    assert level_gain(CLUB, points) == LevelGain(side, n)


def test_three_decks_use_bands_of_60_points():
    # Seed 000: 三副牌的分数段为 60 分一段.
    rs = Ruleset.from_spec({"preset": "standard", "decks": 3})
    assert rs.step == 60
    assert level_gain(rs, 55) == LevelGain("banker", 2)
    assert level_gain(rs, 60) == LevelGain("banker", 1)
    assert level_gain(rs, 119) == LevelGain("banker", 1)
    assert level_gain(rs, 120) == LevelGain("attackers", 0)
    assert level_gain(rs, 180) == LevelGain("attackers", 1)
    assert level_gain(rs, 240) == LevelGain("attackers", 2)


def test_explicit_step_and_cap_set_the_bands_and_the_most_levels():
    rs = Ruleset.from_spec({"preset": "standard", "level_step": 50, "level_cap": 2})
    assert level_gain(rs, 0) == LevelGain("banker", 2)  # +3 capped
    assert level_gain(rs, 49) == LevelGain("banker", 2)
    assert level_gain(rs, 50) == LevelGain("banker", 1)
    assert level_gain(rs, 150) == LevelGain("attackers", 1)
    assert level_gain(rs, 400) == LevelGain("attackers", 2)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(list(PRESETS.values())), st.integers(-400, 600), st.integers(0, 80))
def test_more_attackers_points_never_help_the_banker_side(rs, p, d):
    """More attackers' points never help the banker side: the signed gain is non-increasing in P."""

    def signed(g: LevelGain) -> float:
        return g.levels if g.side == "banker" else -(g.levels + 0.5)

    p2 = p + d * 5
    assert signed(level_gain(rs, p2)) <= signed(level_gain(rs, p))


# ---- ladder ------------------------------------------------------------------------------------------------


def test_climb_moves_up_the_ladder_by_the_gain():
    assert climb(STANDARD, "2", 3, may_leave=True) == "5"
    assert climb(STANDARD, "9", 2, may_leave=False) == "J"
    assert climb(STANDARD, "4", 0, may_leave=True) == "4"


def test_climb_never_passes_target():
    # Target A is must-play: K + 3 stops at A.
    assert climb(STANDARD, "K", 3, may_leave=True) == "A"
    assert climb(STANDARD, "A", 2, may_leave=True) == "A"


def test_jj_must_play_ten_stops_a_jump():
    # Seed 002 JJ比赛: 先过10为胜，逢10必打.
    assert climb(JJ, "8", 4, may_leave=True) == "T"
    assert climb(JJ, "8", 4, may_leave=False) == "T"
    assert climb(JJ, "T", 2, may_leave=False) == "T"


def test_club_ladder_and_must_play_two():
    # Seed 004: 比赛级牌为：2、5、10、J、Q、K、A 七个级别。其中逢 2、A 级必须打.
    assert climb(CLUB, "2", 3, may_leave=True) == "J"  # banker side won at 2: leaves it
    assert climb(CLUB, "2", 3, may_leave=False) == "2"  # attackers at 2 take over: stay on 2
    assert climb(CLUB, "5", 1, may_leave=False) == "T"
    assert climb(CLUB, "Q", 3, may_leave=True) == "A"


def test_must_play_stops_for_both_sides():
    rs = Ruleset.from_spec({"preset": "standard", "must_play": ["5", "T"]})
    # Banker side at 3 gains 3: stops on 5.
    after = level_changes(rs, {"NS": "3", "EW": "2"}, banker="N", gain=LevelGain("banker", 3), won=True)[0]
    assert after == {"NS": "5", "EW": "2"}
    # Attackers at 4 take over with +2: stop on 5.
    after = level_changes(rs, {"NS": "9", "EW": "4"}, banker="S", gain=LevelGain("attackers", 2), won=False)[
        0
    ]
    assert after == {"NS": "9", "EW": "5"}
    # Attackers at 5 (must-play) take over with +2: they have not won at 5 as banker, so stay.
    after = level_changes(rs, {"NS": "9", "EW": "5"}, banker="N", gain=LevelGain("attackers", 2), won=False)[
        0
    ]
    assert after == {"NS": "9", "EW": "5"}
    # Banker side at 5 wins: leaves 5 and climbs to the next stop (T) or fewer.
    after = level_changes(rs, {"NS": "5", "EW": "2"}, banker="N", gain=LevelGain("banker", 2), won=True)[0]
    assert after == {"NS": "7", "EW": "2"}
    after = level_changes(rs, {"NS": "8", "EW": "2"}, banker="N", gain=LevelGain("banker", 3), won=True)[0]
    assert after == {"NS": "T", "EW": "2"}


def test_target_wins_match():
    assert wins_match(STANDARD, "A", won=True, jack_reset=False, banker_level_penalty=0)
    assert not wins_match(STANDARD, "K", won=True, jack_reset=False, banker_level_penalty=0)
    assert not wins_match(STANDARD, "A", won=False, jack_reset=False, banker_level_penalty=0)
    assert not wins_match(STANDARD, "A", won=True, jack_reset=False, banker_level_penalty=1)
    assert wins_match(JJ, "T", won=True, jack_reset=False, banker_level_penalty=0)


def test_j_rule_sends_the_banker_side_back_to_the_start():
    # Seed 004: 庄家打 J 级时，对家用 J 牌抠底，庄家重新从 2 级开始.
    after = level_changes(
        CLUB, {"NS": "J", "EW": "5"}, banker="N", gain=LevelGain("banker", 1), won=True, jack_reset=True
    )[0]
    assert after == {"NS": "2", "EW": "5"}
    after = level_changes(
        CLUB, {"NS": "J", "EW": "5"}, banker="N", gain=LevelGain("attackers", 2), won=False, jack_reset=True
    )[0]
    assert after == {"NS": "2", "EW": "J"}


def test_step_down_never_goes_below_the_start_level():
    assert step_down(STANDARD, "5", 1) == "4"
    assert step_down(STANDARD, "2", 1) == "2"
    assert step_down(TWOS, "3", 2) == "3"
    assert step_down(CLUB, "T", 1) == "5"


def test_level_penalty_applies_after_the_climb():
    after = level_changes(
        JJ,
        {"NS": "4", "EW": "6"},
        banker="E",
        gain=LevelGain("banker", 2),
        won=True,
        level_penalties={"EW": 1, "NS": 1},
    )[0]
    assert after == {"NS": "3", "EW": "7"}


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(list(PRESETS.values())),
    st.data(),
    st.sampled_from(["N", "W", "S", "E"]),
    st.sampled_from(["banker", "attackers"]),
    st.integers(0, 6),
    st.booleans(),
    st.integers(0, 3),
    st.integers(0, 3),
)
def test_levels_stay_on_ladder_between_start_and_target(rs, data, banker, side, n, jack, pen_ns, pen_ew):
    usable = rs.ladder[rs.ladder_index(rs.start_level) : rs.ladder_index(rs.target_level) + 1]
    levels = {"NS": data.draw(st.sampled_from(usable)), "EW": data.draw(st.sampled_from(usable))}
    after = level_changes(
        rs,
        levels,
        banker=banker,
        gain=LevelGain(side, n),
        won=side == "banker",
        jack_reset=jack and rs.j_rule,
        level_penalties={"NS": pen_ns, "EW": pen_ew},
    )[0]
    for s in ("NS", "EW"):
        assert after[s] in usable
        if not pen_ns and not pen_ew and not jack:
            # Without penalties or the J rule nobody goes down, and at most n rungs up.
            assert 0 <= rs.ladder_index(after[s]) - rs.ladder_index(levels[s]) <= n


def test_next_banker_is_the_partner_on_hold_and_the_next_seat_on_takeover():
    assert next_banker(STANDARD, "N", takeover=False) == "S"
    assert next_banker(STANDARD, "N", takeover=True) == "W"  # counter-clockwise: N → W
    assert next_banker(STANDARD, "E", takeover=True) == "N"
    cw = Ruleset.from_spec({"preset": "standard", "clockwise": True})
    assert next_banker(cw, "N", takeover=True) == "E"
    assert next_banker(cw, "W", takeover=False) == "E"


def test_ladder_gap_counts_the_rungs_between_the_sides():
    assert ladder_gap(CLUB, {"NS": "J", "EW": "5"}) == 2
    assert ladder_gap(STANDARD, {"NS": "2", "EW": "2"}) == 0


FOUR_DECK_LEVELS = [
    (0, "banker", 3),
    (5, "banker", 2),
    (75, "banker", 2),
    (80, "banker", 1),
    (155, "banker", 1),
    (160, "attackers", 0),
    (235, "attackers", 0),
    (240, "attackers", 1),
    (320, "attackers", 2),
    (400, "attackers", 3),
    (480, "attackers", 3),  # 1 + (480 − 240) / 80 = 4, capped at 3 (seed 001: 每局最多升三级)
]


@pytest.mark.parametrize("points, side, levels", FOUR_DECK_LEVELS)
def test_four_deck_level_table_steps_80_capped_at_3(points, side, levels):
    """Seed 001 四副牌竞赛规则 (RULES §11): 0 +3, 5–75 +2, 80–155 +1, 160 上台, 240 +1, 320 +2, 400 +3."""
    assert level_gain(PRESETS["four-deck"], points) == LevelGain(side, levels)


@pytest.mark.parametrize(
    "name, points, side, levels",
    [
        ("three-deck", 0, "banker", 3),  # 大光
        ("three-deck", 55, "banker", 2),  # 小光
        ("three-deck", 60, "banker", 1),
        ("three-deck", 119, "banker", 1),
        ("three-deck", 120, "attackers", 0),  # 上台
        ("three-deck", 180, "attackers", 1),
        ("three-deck", 240, "attackers", 2),
        ("one-deck", 0, "banker", 3),
        ("one-deck", 15, "banker", 2),
        ("one-deck", 20, "banker", 1),
        ("one-deck", 40, "attackers", 0),
        ("one-deck", 60, "attackers", 1),
    ],
)
def test_one_and_three_deck_levels_step_20_per_deck(name, points, side, levels):
    assert level_gain(PRESETS[name], points) == LevelGain(side, levels)
