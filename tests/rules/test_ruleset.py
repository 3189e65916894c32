"""Rulesets: presets reproduce the seeds (RULES §11), JSON round-trip, validation errors name the culprit."""

from __future__ import annotations

import dataclasses
import json

import pytest

from rules.ruleset import PRESETS, Band, Ruleset, RulesetError, TimeRule


def must_play_levels(rs):
    """The levels a side must play to leave, the target included."""
    return {level for level in rs.ladder if rs.is_must_play(level)}


def test_seven_presets_and_standard_is_the_default():
    assert list(PRESETS) == [
        "standard",
        "permanent-twos",
        "jj-competition",
        "club-competition",
        "one-deck",
        "three-deck",
        "four-deck",
    ]
    assert Ruleset.from_spec(None) is PRESETS["standard"]
    assert Ruleset.from_spec("standard") == Ruleset()
    for name, rs in PRESETS.items():
        assert rs.preset == name
        assert Ruleset.from_spec(name) is rs


def test_standard_plays_two_decks_counter_clockwise_with_trump_throws():
    rs = PRESETS["standard"]
    assert (rs.decks, rs.clockwise, rs.permanent_twos, rs.trump_throws) == (2, False, False, True)
    assert PRESETS["permanent-twos"].permanent_twos is True


def test_standard_preset_follows_seeds_000_002_003():
    rs = PRESETS["standard"]
    assert rs.ladder == ("2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A")
    assert (rs.start_level, rs.target_level, must_play_levels(rs)) == ("2", "A", frozenset({"A"}))
    assert (rs.kitty_scheme, rs.step, rs.level_bands, rs.level_cap) == ("unit_power", 40, None, None)
    assert (rs.failed_throw, rs.revoke, rs.renege, rs.wrong_card_count) == (
        "per_card",
        "lose_deal",
        "level",
        "standard",
    )
    assert (rs.strikes_to_forfeit, rs.j_rule, rs.time_limit_minutes) == (None, False, None)


def test_permanent_twos_preset_follows_seed_001():
    # Seed 001: 升级游戏从打3开始 … 先打过"A"者则本轮比赛结束; 抓底 ×2 / 对子 ×4 / 拖拉机 ×16.
    rs = PRESETS["permanent-twos"]
    assert rs.ladder[0] == "3" and rs.start_level == "3" and rs.target_level == "A"
    assert rs.kitty_scheme == "table" and dict(rs.kitty_table) == {"single": 2, "pair": 4, "tractor": 16}
    assert rs.signal_points == 30  # 提示 … 扣30分


def test_jj_competition_preset_follows_seed_002():
    # JJ比赛: 从2开始，不用"逢2必打"；先过10为胜，逢10必打；每轮比赛时间为一小时 … 同级时，台上一方获胜.
    rs = PRESETS["jj-competition"]
    assert (rs.start_level, rs.target_level, must_play_levels(rs)) == ("2", "T", frozenset({"T"}))
    assert not rs.is_must_play("2")
    assert (rs.revoke, rs.renege, rs.wrong_card_count, rs.strikes_to_forfeit) == ("level", "level", "jj", 3)
    assert (rs.time_limit_minutes, rs.time_rule, rs.time_tie) == (60, "higher_level", "banker_side")
    assert rs.level_bands[0] == Band(None, "banker", 4)


def test_club_competition_preset_follows_seed_004():
    # 比赛规则 四: 比赛级牌为：2、5、10、J、Q、K、A 七个级别。其中逢 2、A 级必须打 … 庄家重新从 2 级开始.
    rs = PRESETS["club-competition"]
    assert rs.ladder == ("2", "5", "T", "J", "Q", "K", "A")
    assert must_play_levels(rs) == frozenset({"2", "A"})
    assert (rs.throws_as_single, rs.level_cap, rs.failed_throw, rs.j_rule) == (True, 3, "misplay", True)


@pytest.mark.parametrize("name", list(PRESETS))
def test_each_preset_round_trips_through_json(name):
    rs = PRESETS[name]
    assert rs.to_spec() == name
    full = json.loads(json.dumps(rs.as_dict()))
    assert Ruleset.from_spec(full) == rs
    assert Ruleset.from_spec(full).to_spec() == name


def test_overrides_round_trip_keeping_only_differences():
    spec = {
        "preset": "jj-competition",
        "clockwise": True,
        "target_level": "10",
        "kitty_scheme": "card_power",
        "kitty_cap": 32,
        "time_limit_minutes": 90,
        "time_rule": "sudden_death",
        "time_tie": "draw",
        "mercy_levels": 5,
        "level_bands": [
            {"from": None, "side": "banker", "levels": 2},
            {"from": 80, "side": "attackers", "levels": 0},
        ],
    }
    rs = Ruleset.from_spec(spec)
    assert rs.target_level == "T"
    out = rs.to_spec()
    assert out["preset"] == "jj-competition"
    assert "target_level" not in out  # "10" is the preset's T: not a difference
    assert out["clockwise"] is True and out["kitty_cap"] == 32 and out["mercy_levels"] == 5
    assert out["time_rule"] == "sudden_death" and rs.time_rule == TimeRule.SUDDEN_DEATH
    assert Ruleset.from_spec(json.loads(json.dumps(out))) == rs


def test_override_back_to_preset_value_is_dropped():
    assert Ruleset.from_spec({"preset": "standard", "decks": 2}).to_spec() == "standard"
    assert (
        Ruleset.from_spec({"preset": "club-competition", "must_play": ["2", "A"]}).to_spec()
        == "club-competition"
    )


@pytest.mark.parametrize(
    ("spec", "culprit"),
    [
        ("standrad", "'standrad'"),
        ({"preset": "nope"}, "'nope'"),
        (42, "int"),
        ({"preset": "standard", "colour": "red"}, "'colour'"),
        ({"decks": 0}, "'decks'"),
        ({"decks": "2"}, "'decks'"),
        ({"decks": True}, "'decks'"),
        ({"clockwise": "yes"}, "'clockwise'"),
        ({"kitty_scheme": "double"}, "'double'"),
        ({"failed_throw": "per_trick"}, "'per_trick'"),
        ({"revoke": "warning"}, "'warning'"),
        ({"wrong_card_count": "x"}, "'wrong_card_count'"),
        ({"time_tie": "coin"}, "'time_tie'"),
        ({"time_rule": "coin"}, "'time_rule'"),
        ({"time_rule": None}, "'time_rule'"),
        ({"start_level": "1"}, "'start_level'"),
        ({"start_level": "A"}, "'target_level'"),
        ({"target_level": "Z"}, "'target_level'"),
        ({"must_play": ["5", "X"]}, "'must_play'"),
        ({"must_play": "5"}, "'must_play'"),
        ({"preset": "club-competition", "start_level": "3"}, "'start_level'"),
        ({"preset": "club-competition", "must_play": ["4"]}, "'must_play'"),
        ({"ladder": ["2", "2", "3"]}, "'ladder'"),
        ({"ladder": ["5", "3", "A"]}, "'ladder'"),
        ({"permanent_twos": True}, "'permanent_twos'"),
        ({"kitty_scheme": "table"}, "'kitty_table'"),
        ({"kitty_table": {"triple": 3}}, "'triple'"),
        ({"kitty_cap": 0}, "'kitty_cap'"),
        ({"level_step": 0}, "'level_step'"),
        ({"level_cap": 0}, "'level_cap'"),
        ({"strikes_to_forfeit": -1}, "'strikes_to_forfeit'"),
        ({"level_bands": [{"from": 0, "side": "banker", "levels": 3}]}, "'level_bands'"),
        ({"level_bands": [{"from": None, "side": "dealer", "levels": 3}]}, "'level_bands'"),
        (
            {
                "level_bands": [
                    {"from": None, "side": "banker", "levels": 3},
                    {"from": None, "side": "banker", "levels": 1},
                ]
            },
            "'level_bands'",
        ),
        ({"level_bands": [{"from": None, "side": "banker", "levels": 3, "to": 5}]}, "'to'"),
        ({"misplay_points": -10}, "'misplay_points'"),
        (
            {
                "level_bands": [
                    {"from": None, "side": "banker", "levels": 1},
                    {"from": 40, "side": "banker", "levels": 2},
                ]
            },
            "never help",
        ),
        (
            {
                "level_bands": [
                    {"from": None, "side": "attackers", "levels": 0},
                    {"from": 40, "side": "banker", "levels": 1},
                ]
            },
            "never help",
        ),
        (
            {
                "level_bands": [
                    {"from": None, "side": "banker", "levels": 1},
                    {"from": 80, "side": "attackers", "levels": 2},
                    {"from": 120, "side": "attackers", "levels": 1},
                ]
            },
            "never help",
        ),
    ],
)
def test_validation_errors_name_the_culprit(spec, culprit):
    with pytest.raises(RulesetError) as err:
        Ruleset.from_spec(spec)
    assert culprit in str(err.value)
    assert isinstance(err.value, ValueError)


def test_ruleset_is_frozen_and_hashable():
    rs = PRESETS["club-competition"]
    with pytest.raises(AttributeError):
        rs.decks = 3  # type: ignore[misc]
    assert hash(rs) == hash(Ruleset.from_spec("club-competition"))


def test_ranks_in_settings_accept_10_and_lower_case():
    rs = Ruleset.from_spec({"preset": "standard", "must_play": ["10", "j"], "target_level": "k"})
    assert rs.must_play == ("T", "J") and rs.target_level == "K"
    assert must_play_levels(rs) == frozenset({"T", "J", "K"})


@pytest.mark.parametrize(
    "name, decks, hand, kitty, points, step, cap",
    [
        ("one-deck", 1, 12, 6, 100, 20, None),
        ("three-deck", 3, 39, 6, 300, 60, None),
        ("four-deck", 4, 54, 0, 400, 80, 3),
    ],
)
def test_the_one_three_and_four_deck_presets_follow_the_table_of_section_11(
    name, decks, hand, kitty, points, step, cap
):
    rs = PRESETS[name]
    assert (rs.decks, rs.hand_size, rs.kitty_size, rs.deck_points, rs.step, rs.level_cap) == (
        decks,
        hand,
        kitty,
        points,
        step,
        cap,
    )
    assert rs.signal_points == 30 and rs.max_set == min(decks, 4)
    assert Ruleset.from_spec(json.loads(json.dumps(rs.as_dict()))) == rs


def test_four_decks_start_at_3_with_permanent_twos_bombs_and_strict_chains():
    rs = PRESETS["four-deck"]
    assert rs.ladder[0] == "3" and rs.start_level == "3" and rs.target_level == "A"
    assert rs.permanent_twos and rs.bombs and not rs.chain_skips_level
    assert PRESETS["three-deck"].chain_skips_level and not PRESETS["three-deck"].bombs


def test_a_club_can_write_its_own_follow_table_and_read_it_back():
    spec = {"preset": "three-deck", "follow_tables": {"3x1": [["3x1"], ["2+"], []], "3x*": [["3x*"], []]}}
    rs = Ruleset.from_spec(spec)
    assert rs.follow_lines(3, 1) == (("3x1",), ("2+",), ())
    assert rs.follow_lines(3, 4) == (("3x*",), ())
    assert rs.follow_lines(2, 2) is None
    assert Ruleset.from_spec(json.loads(json.dumps(rs.to_spec()))) == rs


@pytest.mark.parametrize(
    "tables, culprit",
    [
        ("3x1", "follow_tables"),
        ({"5x1": [[]]}, "'5x1'"),
        ({"3x1": "3x1"}, "'3x1'"),
        ({"3x1": [["3y1"]]}, "'3y1'"),
        ({"3x1": []}, "'3x1'"),
    ],
)
def test_a_bad_follow_table_is_refused_naming_the_culprit(tables, culprit):
    with pytest.raises(RulesetError, match=culprit):
        Ruleset.from_spec({"preset": "three-deck", "follow_tables": tables})


def test_a_kitty_that_four_hands_cannot_share_is_refused():
    with pytest.raises(RulesetError, match="kitty_cards"):
        Ruleset.from_spec({"preset": "four-deck", "kitty_cards": 3})


# One value per setting outside what the engine covers (issue 20: decks 5 … 99,999 were accepted).
BEYOND = {
    "decks": 5,
    "kitty_cards": 112,
    "clockwise": "yes",
    "permanent_twos": 1,
    "trump_throws": None,
    "chain_skips_level": "no",
    "bombs": 0,
    "follow_tables": {"4x1": [["4x1"], []]},  # sets of four with two decks
    "ladder": ["2", "2"],
    "start_level": "1",
    "target_level": "Z",
    "must_play": ["X"],
    "kitty_scheme": "dice",
    "kitty_cap": 100_000,
    "kitty_table": {"single": 2, "pair": 4, "tractor": 100_000},
    "throws_as_single": "true",
    "level_step": 10**30,
    "level_bands": [{"from": None, "side": "banker", "levels": 100_000}],
    "level_cap": 0,
    "failed_throw": "always",
    "failed_throw_points": 100_000,
    "misplay_points": -1,
    "signal_points": -100_000,
    "revoke": "jail",
    "renege": "jail",
    "wrong_card_count": "both",
    "strikes_to_forfeit": 0,
    "j_rule": "on",
    "time_limit_minutes": 10**30,
    "time_rule": "overtime",
    "time_tie": "coin",
    "mercy_levels": 100_000,
}


def test_every_setting_has_a_value_beyond_what_the_engine_covers():
    assert set(BEYOND) == {f.name for f in dataclasses.fields(Ruleset)} - {"preset"}


@pytest.mark.parametrize(("setting", "value"), list(BEYOND.items()))
def test_from_spec_refuses_each_setting_beyond_what_the_engine_covers_naming_it(setting, value):
    with pytest.raises(RulesetError, match=f"'{setting}'"):
        Ruleset.from_spec({"preset": "standard", setting: value})


@pytest.mark.parametrize("decks", [5, 8, 99_999])
def test_more_decks_than_the_rules_cover_are_refused_by_the_ruleset_itself(decks):
    with pytest.raises(RulesetError, match="the rules cover 1 to 4"):
        Ruleset.from_spec({"preset": "standard", "decks": decks})


def test_the_largest_numbers_a_setting_takes_are_accepted():
    rs = Ruleset.from_spec(
        {"preset": "standard", "time_limit_minutes": 99_999, "failed_throw_points": 99_999}
    )
    assert (rs.time_limit_minutes, rs.failed_throw_points) == (99_999, 99_999)
    assert Ruleset.from_spec({"preset": "standard", "decks": 2, "kitty_cards": 104}).hand_size == 1


def test_a_number_too_long_to_write_is_refused_without_writing_it():
    with pytest.raises(RulesetError, match="'decks' is out of range"):
        Ruleset.from_spec({"preset": "standard", "decks": 10**5000})


def test_a_refused_ruleset_carries_its_code_setting_and_values_and_keeps_its_english():
    import pickle

    with pytest.raises(RulesetError) as err:
        Ruleset.from_spec({"preset": "standard", "decks": 9})
    e = err.value
    assert (e.code, e.setting, e.values) == ("decks_too_many", "decks", {"decks": 9, "max": 4})
    assert str(e) == "setting 'decks': 9 decks (the rules cover 1 to 4)"
    again = pickle.loads(pickle.dumps(e))
    assert (again.code, again.setting, again.values, str(again)) == (e.code, e.setting, e.values, str(e))
