"""Why a side's climb stopped short (RULES §10): a must-play level held or reached, the target, the J rule —
exposed by the engine (``LevelStop``) so the review can say it instead of showing a gain the levels do not."""

from __future__ import annotations

from rules.judge import judge
from rules.levels import JACK, MUST_PLAY, TARGET, LevelGain, LevelStop, climb_stop, level_changes
from rules.ruleset import PRESETS, Ruleset
from rules.simulate import simulate_deal

STANDARD = PRESETS["standard"]
CLUB = PRESETS["club-competition"]  # ladder 2 5 10 J Q K A; must-play 2 and A
JJ = PRESETS["jj-competition"]  # target 10


def test_a_side_on_a_must_play_level_it_has_not_won_as_banker_stays_there_and_says_so():
    assert climb_stop(CLUB, "2", 3, may_leave=False) == ("2", MUST_PLAY)
    after, stops = level_changes(
        CLUB, {"NS": "2", "EW": "2"}, banker="N", gain=LevelGain("attackers", 3), won=False
    )
    assert after == {"NS": "2", "EW": "2"}
    assert stops == (LevelStop("EW", "2", "2", MUST_PLAY, 3),) and stops[0].held


def test_a_climb_that_reaches_a_must_play_level_early_stops_there_with_its_reason():
    five = Ruleset.from_spec({"preset": "standard", "must_play": ["5"]})
    assert climb_stop(five, "3", 3, may_leave=True) == ("5", MUST_PLAY)
    after, stops = level_changes(
        five, {"NS": "3", "EW": "2"}, banker="E", gain=LevelGain("attackers", 3), won=False
    )
    assert after["NS"] == "5" and stops == (LevelStop("NS", "3", "5", MUST_PLAY, 3),) and not stops[0].held
    assert climb_stop(STANDARD, "J", 4, may_leave=True) == ("A", TARGET)
    assert climb_stop(JJ, "8", 4, may_leave=True) == ("T", TARGET)
    assert climb_stop(STANDARD, "K", 1, may_leave=True) == ("A", None)  # exactly the levels gained: no stop
    assert climb_stop(CLUB, "K", 3, may_leave=False) == ("A", TARGET)


def test_a_climb_of_every_level_gained_has_no_reason_and_no_stop():
    assert climb_stop(STANDARD, "2", 3, may_leave=True) == ("5", None)
    assert climb_stop(STANDARD, "4", 0, may_leave=True) == ("4", None)
    after, stops = level_changes(
        STANDARD, {"NS": "2", "EW": "2"}, banker="N", gain=LevelGain("banker", 2), won=True
    )
    assert after["NS"] == "4" and stops == ()


def test_the_banker_side_that_wins_on_a_must_play_level_leaves_it():
    assert climb_stop(CLUB, "2", 1, may_leave=True) == ("5", None)


def test_a_side_at_the_target_goes_no_higher_and_the_reason_is_the_target():
    assert climb_stop(STANDARD, "A", 2, may_leave=False) == ("A", TARGET)


def test_the_j_rule_sends_the_banker_side_back_and_names_itself():
    after, stops = level_changes(
        CLUB, {"NS": "J", "EW": "5"}, banker="N", gain=LevelGain("banker", 1), won=True, jack_reset=True
    )
    assert after["NS"] == "2" and stops == (LevelStop("NS", "J", "2", JACK, 1),)


def test_a_scored_deal_carries_the_stop_outside_its_record_verdict():
    record = simulate_deal("club-competition", banker="N", level="2", trump="S", seed=8)
    score = judge({**record, "levels": {"NS": "2", "EW": "2"}}).score
    result = score.result
    assert result.outcome == "takeover" and result.levels == 3
    assert result.levels_after == {"NS": "2", "EW": "2"}
    assert result.stops == (LevelStop("EW", "2", "2", MUST_PLAY, 3),)
    assert "stops" not in result.as_dict()  # the DEAL-RECORD verdict keeps its fields
