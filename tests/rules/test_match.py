"""The match fold (RULES §12): levels, banker, strikes, and every way a match ends."""

from __future__ import annotations

import json
from datetime import datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.facts import LeadShape, PenaltyCall, TrickFacts
from rules.judge import judge
from rules.match import (
    MatchDeal,
    MatchError,
    call_time,
    can_start_deal,
    fold_deal,
    forfeit,
    replay,
    start_match,
)
from rules.ruleset import PRESETS, Ruleset
from rules.scoring import score_deal
from rules.seats import next_seat, side_of
from rules.simulate import simulate_deal

STANDARD = PRESETS["standard"]
JJ = PRESETS["jj-competition"]
CLUB = PRESETS["club-competition"]
T0 = datetime(2026, 11, 29, 9, 0)
SINGLE = LeadShape("single")


def scored(state, points, *, penalties=(), jack=False, last_to_attackers=False):
    """Score a deal at the state's banker and levels: the attackers take ``points`` in one trick."""
    banker = state.banker
    level = state.levels[side_of(banker)]
    att = next_seat(banker)
    winner = att if last_to_attackers else banker
    tricks = [
        TrickFacts(banker, att, points, SINGLE),
        TrickFacts(winner, winner, 0, SINGLE, winner_has_jack=jack),
    ]
    return score_deal(
        state.ruleset,
        banker=banker,
        level=level,
        tricks=tricks,
        kitty_points=0,
        penalties=penalties,
        levels=state.levels,
    )


def play(state, points, *, minutes=None, **kw):
    s = scored(state, points, **kw)
    times = {}
    if minutes is not None:
        times = {
            "started_at": T0 + timedelta(minutes=minutes[0]),
            "finished_at": T0 + timedelta(minutes=minutes[1]),
        }
    new = fold_deal(state, MatchDeal.from_score(s, **times))
    # The fold and the deal's own levels_after always agree.
    assert dict(new.levels) == dict(s.result.levels_after)
    return new


def test_match_starts_at_the_presets_start_level_with_the_first_banker():
    m = start_match(CLUB, first_banker="E", started_at=T0)
    assert (dict(m.levels), m.banker, m.deals, m.over) == ({"NS": "2", "EW": "2"}, "E", 0, False)
    assert start_match(PRESETS["permanent-twos"]).levels == {"NS": "3", "EW": "3"}


def test_folding_holds_and_takeovers_moves_levels_and_bank():
    m = start_match(STANDARD, first_banker="N")
    m = play(m, 0)  # big slam: +3, partner banks
    assert (dict(m.levels), m.banker) == ({"NS": "5", "EW": "2"}, "S")
    m = play(m, 130)  # attackers take over +1; next seat after S is E
    assert (dict(m.levels), m.banker) == ({"NS": "5", "EW": "3"}, "E")
    m = play(m, 45)
    assert (dict(m.levels), m.banker, m.deals) == ({"NS": "5", "EW": "4"}, "W", 3)
    assert dict(m.banker_wins) == {"NS": 1, "EW": 1}
    assert dict(m.attackers_points) == {"NS": 45, "EW": 130}


def test_winning_at_the_target_ends_the_match():
    m = start_match(STANDARD, first_banker="N")
    m = fold_deal(m, MatchDeal("N", "2", "banker", 0, True, "S"))  # sanity: plain constructor works
    m = start_match(Ruleset.from_spec({"preset": "standard", "start_level": "Q"}), first_banker="N")
    m = play(m, 10)  # Q → A (stops on the target)
    assert m.levels["NS"] == "A" and not m.over
    m = play(m, 10)
    assert m.over and m.end.how == "target" and m.end.winner == "NS"
    with pytest.raises(MatchError, match="already over"):
        fold_deal(m, MatchDeal("S", "A", "banker", 1, True, "N"))


def test_jj_first_side_past_ten_wins_and_ten_is_must_play():
    # JJ比赛 三: 先过10为胜，逢10必打.
    m = start_match(JJ, first_banker="W")
    m = play(m, 0)  # +4: 2 → 6
    m = play(m, 0)  # +4: 6 → T (stop)
    assert m.levels["EW"] == "T" and not m.over
    m = play(m, 120)  # attackers NS take over +2
    assert dict(m.levels) == {"NS": "4", "EW": "T"} and m.banker == "S"
    m = play(m, 100)  # EW take back at T, +1 but must-play: stay on T
    assert m.levels["EW"] == "T" and m.banker == "E"
    m = play(m, 75)
    assert m.end.how == "target" and m.end.winner == "EW"


def test_enough_strikes_forfeit_the_match():
    # JJ比赛 五/七: 罚降一级，累计三次，直接被判负.
    m = start_match(JJ, first_banker="N")
    m = play(m, 90, penalties=[PenaltyCall("W", "renege")])
    m = play(m, 90, penalties=[PenaltyCall("E", "revoke")])
    assert dict(m.strikes) == {"NS": 0, "EW": 2} and not m.over
    m = play(m, 90, penalties=[PenaltyCall("W", "revoke")])
    assert m.over and m.end.how == "strikes" and m.end.winner == "NS"


def test_both_sides_strike_out_is_a_draw():
    rs = Ruleset.from_spec({"preset": "jj-competition", "strikes_to_forfeit": 1})
    m = start_match(rs, first_banker="N")
    m = play(m, 50, penalties=[PenaltyCall("W", "renege"), PenaltyCall("N", "renege")])
    assert m.end.how == "strikes" and m.end.winner is None


def test_no_strike_limit_in_standard():
    m = start_match(STANDARD, first_banker="N")
    for _ in range(5):
        m = play(m, 50, penalties=[PenaltyCall("W", "renege")])
    assert m.strikes["EW"] == 5 and not m.over


def test_forfeit_no_show():
    # JJ比赛 一: 少人自动弃权.
    m = forfeit(start_match(JJ), "EW")
    assert m.end.how == "forfeit" and m.end.winner == "NS"
    with pytest.raises(MatchError):
        forfeit(m, "NS")
    with pytest.raises(MatchError):
        forfeit(start_match(JJ), "XX")


def test_time_limit_higher_level_wins():
    # JJ比赛 十一: 每轮比赛时间为一小时，比赛结束时，升级高者获胜，同级时，台上一方获胜.
    m = start_match(JJ, first_banker="N", started_at=T0)
    assert m.deadline == T0 + timedelta(minutes=60)
    m = play(m, 60, minutes=(0, 20))  # NS 2 → 3
    assert can_start_deal(m, T0 + timedelta(minutes=59))
    assert not can_start_deal(m, T0 + timedelta(minutes=60))
    assert call_time(m, T0 + timedelta(minutes=59)) is m
    ended = call_time(m, T0 + timedelta(minutes=60))
    assert ended.end.how == "time" and ended.end.winner == "NS"
    with pytest.raises(MatchError, match="time limit"):
        fold_deal(m, MatchDeal("S", "3", "banker", 1, True, "N", started_at=T0 + timedelta(minutes=61)))


def test_time_limit_tie_goes_to_banker_side():
    m = start_match(JJ, first_banker="N", started_at=T0)
    m = play(m, 80, minutes=(0, 30))  # take over, +0: both at 2, W banks next
    ended = call_time(m, T0 + timedelta(minutes=75))
    assert ended.end.winner == "EW"  # 台上 = the side holding the bank


def test_time_limit_tie_draw_setting():
    rs = Ruleset.from_spec({"preset": "jj-competition", "time_tie": "draw"})
    m = play(start_match(rs, first_banker="N", started_at=T0), 80, minutes=(0, 30))
    assert call_time(m, T0 + timedelta(hours=2)).end.winner is None


def test_replay_deal_over_time_ends_match():
    # Seed 001: 宣布比赛规定时间到，如己开始抓牌，则继续打完本局比赛再计胜负.
    m0 = start_match(JJ, first_banker="N", started_at=T0)
    s1 = scored(m0, 60)
    d1 = MatchDeal.from_score(
        s1, started_at=T0 + timedelta(minutes=50), finished_at=T0 + timedelta(minutes=66)
    )
    m = replay(JJ, [d1], started_at=T0, first_banker="N")
    assert m.end.how == "time" and m.end.winner == "NS" and m.deals == 1
    assert m.elapsed == timedelta(minutes=66)
    no_time = replay(
        STANDARD,
        [MatchDeal.from_score(scored(start_match(STANDARD, first_banker="N"), 60))],
        first_banker="N",
        now=T0 + timedelta(days=1),
    )
    assert not no_time.over


def test_mercy_rule_ends_the_match_five_rungs_ahead():
    rs = Ruleset.from_spec({"preset": "standard", "mercy_levels": 5})
    m = start_match(rs, first_banker="N")
    m = play(m, 0)  # NS 5
    assert not m.over
    m = play(m, 30)  # NS 7: five rungs ahead of EW at 2
    assert m.end.how == "mercy" and m.end.winner == "NS"


def test_jack_rule_in_match():
    m = start_match(Ruleset.from_spec({"preset": "club-competition", "start_level": "2"}), first_banker="N")
    m = play(m, 0)  # 2 → J (+3 along 2, 5, T, J)
    assert m.levels["NS"] == "J"
    m = play(m, 20, last_to_attackers=True, jack=True)
    assert dict(m.levels) == {"NS": "2", "EW": "2"} and m.banker == "N"


def test_void_deal_leaves_the_bank_to_be_contested():
    m = start_match(JJ, first_banker="N")
    m = play(m, 40, penalties=[PenaltyCall("N", "wrong_card_count"), PenaltyCall("E", "wrong_card_count")])
    assert dict(m.levels) == {"NS": "2", "EW": "2"} and m.banker is None
    # Next banker is whoever wins the re-contested declaration: any seat is accepted.
    m = fold_deal(m, MatchDeal.from_score(scored(start_match(JJ, first_banker="E"), 40)))
    assert m.levels["EW"] == "4"


def test_a_deal_inconsistent_with_the_match_is_rejected():
    m = start_match(STANDARD, first_banker="N")
    with pytest.raises(MatchError, match="bank belongs to N"):
        fold_deal(m, MatchDeal("W", "2", "banker", 1, True, "E"))
    with pytest.raises(MatchError, match="played at"):
        fold_deal(m, MatchDeal("N", "5", "banker", 1, True, "S"))


def test_deal_from_a_record_equals_the_deal_from_its_score():
    m = start_match(CLUB, first_banker="N")
    m = play(m, 0)  # NS at J
    calls = [PenaltyCall("S", "misplay")]
    s = scored(m, 20, penalties=calls, last_to_attackers=True, jack=True)
    record = {
        "banker": "S",
        "level": "J",
        "levels": dict(m.levels),
        "penalties": [{"seat": "S", "code": "misplay"}],
    }
    verdict = json.loads(
        json.dumps({"attackers_points": s.attackers_points.as_dict(), "result": s.result.as_dict()})
    )
    a = MatchDeal.from_record(CLUB, record, verdict)
    b = MatchDeal.from_score(s)
    assert a == b
    assert a.jack_reset
    assert json.loads(json.dumps(a.as_dict()))["jack_reset"] is True


def test_deal_from_a_record_counts_strikes_and_void_deals():
    record = {"banker": "N", "level": "2", "penalties": [{"seat": "E", "code": "renege", "trick": 3}]}
    verdict = {
        "attackers_points": {"total": 50},
        "result": {"outcome": "banker_holds", "side": "banker", "levels": 1, "next_banker": "S"},
    }
    d = MatchDeal.from_record(JJ, record, verdict)
    assert d.strikes == {"NS": 0, "EW": 1} and d.won and not d.void and d.attackers_points == 50
    verdict["result"] = {"outcome": "banker_holds", "side": "banker", "levels": 0, "next_banker": None}
    assert MatchDeal.from_record(JJ, record, verdict).void
    with pytest.raises(MatchError, match="partial"):
        MatchDeal.from_record(JJ, record, {"result": None})
    assert MatchDeal.from_record(JJ, record | {"ruleset": "jj-competition"}, verdict).void
    with pytest.raises(MatchError, match="not the match's"):
        MatchDeal.from_record(JJ, record | {"ruleset": "standard"}, verdict)


def test_match_as_dict_survives_json():
    m = start_match(JJ, first_banker="N", started_at=T0)
    m = call_time(play(m, 60, minutes=(0, 70)), T0 + timedelta(minutes=70))
    d = json.loads(json.dumps(m.as_dict()))
    assert d["ruleset"] == "jj-competition"
    assert d["end"] == {"how": "time", "winner": "NS", "levels": {"NS": "3", "EW": "2"}, "deals": 1}
    assert d["elapsed_seconds"] == 70 * 60


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(list(PRESETS.values())), st.lists(st.integers(-2, 50).map(lambda k: 5 * k), max_size=30)
)
def test_random_matches_stay_consistent(rs, points):
    """Levels stay between start and target, the fold agrees with each deal's levels_after, deals count up."""
    m = start_match(rs, first_banker="N")
    lo, hi = rs.ladder_index(rs.start_level), rs.ladder_index(rs.target_level)
    for i, p in enumerate(points):
        if m.over:
            break
        m = play(m, p)
        assert m.deals == i + 1
        for side in ("NS", "EW"):
            assert lo <= rs.ladder_index(m.levels[side]) <= hi
    if m.over:
        assert m.end.how == "target" and m.levels[m.end.winner] == rs.target_level


@pytest.mark.parametrize("preset", list(PRESETS))
def test_simulated_deals_folded_as_the_site_does_agree_with_levels_after(preset):
    """The site's path: stored record + judged verdict → MatchDeal.from_record → fold; agrees with levels_after."""
    rs = PRESETS[preset]
    m = start_match(rs, first_banker="N")
    for seed in range(12):
        if m.over:
            break
        banker = m.banker
        record = simulate_deal(preset, banker=banker, level=m.levels[side_of(banker)], seed=seed)
        record["levels"] = dict(m.levels)
        verdict = judge(record)
        assert verdict.result is not None
        deal = MatchDeal.from_record(
            rs, record, {"attackers_points": verdict.attackers_points, "result": verdict.result}
        )
        m = fold_deal(m, deal)
        if verdict.result["outcome"] != "match_won":
            assert dict(m.levels) == verdict.result["levels_after"]
        assert m.banker == verdict.result["next_banker"]
    assert m.deals >= 1
