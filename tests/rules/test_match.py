"""The match fold (RULES §12): levels, banker, strikes, and every way a match ends."""

from __future__ import annotations

import json
from dataclasses import replace
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
    closed,
    fold_deal,
    forfeit,
    play_on,
    replay,
    replay_played,
    start_match,
    time_points,
)
from rules.ruleset import PRESETS, Ruleset, TimeRule
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


# ---- the time rules clubs write (issue 31 item 4) ----

POINTS_RULE = Ruleset.from_spec({"preset": "jj-competition", "time_rule": "points"})
SUDDEN = Ruleset.from_spec({"preset": "standard", "time_limit_minutes": 60, "time_rule": "sudden_death"})
AT_TIME = T0 + timedelta(minutes=60)


def test_the_higher_level_rule_is_every_presets_default():
    assert {rs.time_rule for rs in PRESETS.values()} == {TimeRule.HIGHER_LEVEL}
    assert Ruleset().time_rule == TimeRule.HIGHER_LEVEL


def test_the_points_rule_gives_the_side_ahead_the_match_and_two_points():
    m = play(start_match(POINTS_RULE, first_banker="N", started_at=T0), 60, minutes=(0, 20))  # NS 2 → 3
    ended = call_time(m, AT_TIME)
    assert (ended.end.how, ended.end.winner) == ("time", "NS")
    assert time_points(POINTS_RULE, ended.end.how, ended.end.winner) == {"NS": 2, "EW": 0}


def test_the_points_rule_makes_equal_levels_a_draw_of_one_point_each_whoever_banks():
    m = play(
        start_match(POINTS_RULE, first_banker="N", started_at=T0), 80, minutes=(0, 30)
    )  # both at 2, W banks
    ended = call_time(m, AT_TIME)
    assert ended.end.winner is None  # the higher-level rule would give it to the banker side (EW)
    assert call_time(replace(m, ruleset=JJ), AT_TIME).end.winner == "EW"
    assert time_points(POINTS_RULE, "time", None) == {"NS": 1, "EW": 1}


def test_only_an_end_by_time_under_the_points_rule_fixes_the_points():
    assert time_points(POINTS_RULE, "target", "NS") is None
    assert time_points(JJ, "time", "NS") is None


def sudden_match(points_first=60):
    """A sudden-death match: N banks, NS climbs (2 → 3 on 60 points), finishing before time."""
    return play(start_match(SUDDEN, first_banker="N", started_at=T0), points_first, minutes=(0, 20))


def test_sudden_death_puts_both_sides_at_a_and_the_side_ahead_banks_without_ending_the_match():
    m = play(sudden_match(), 130, minutes=(20, 40))  # S loses the deal: E takes over, EW 2 → 3
    m = replace(m, levels={"NS": "5", "EW": "3"})  # NS ahead, EW banks next
    assert m.banker == "E"
    after = call_time(m, AT_TIME)
    assert not after.over and after.overtime
    assert dict(after.levels) == {"NS": "A", "EW": "A"}
    assert after.banker == "N"  # the seat that takes the bank from E, as on a takeover: on NS, the side ahead
    assert after.deadline is None
    assert can_start_deal(after, AT_TIME + timedelta(minutes=30))


def test_sudden_death_leaves_the_bank_with_a_banker_already_on_the_side_ahead():
    m = sudden_match()  # NS ahead, S banks next
    after = call_time(m, AT_TIME)
    assert (after.banker, after.overtime) == ("S", True)


def test_sudden_death_at_equal_levels_leaves_the_bank_where_it_is():
    m = play(start_match(SUDDEN, first_banker="N", started_at=T0), 80, minutes=(0, 30))  # both 2, W banks
    after = call_time(m, AT_TIME)
    assert (after.banker, dict(after.levels), after.over) == ("W", {"NS": "A", "EW": "A"}, False)


def test_sudden_death_gives_a_contested_bank_to_the_side_aheads_first_seat():
    m = replace(sudden_match(), banker=None)
    assert call_time(m, AT_TIME).banker == "N"
    m = replace(m, levels={"NS": "2", "EW": "4"})
    assert call_time(m, AT_TIME).banker == "W"


def test_in_sudden_death_a_deal_started_after_the_deadline_is_folded_and_the_banker_winning_at_a_ends_it():
    m = call_time(sudden_match(), AT_TIME)
    m = play(m, 130, minutes=(61, 80))  # S loses at A: E takes over, the match goes on
    assert (m.over, m.banker, dict(m.levels)) == (False, "E", {"NS": "A", "EW": "A"})
    m = play(m, 60, minutes=(81, 100))  # E's side wins a deal at A: the match is won
    assert (m.end.how, m.end.winner) == ("target", "EW")
    assert m.overtime and m.as_dict()["overtime"] is True


def test_without_sudden_death_a_deal_started_after_the_deadline_is_refused():
    m = call_time(sudden_match(), AT_TIME)
    late = MatchDeal("S", "A", "banker", 1, True, "N", started_at=AT_TIME + timedelta(minutes=1))
    assert fold_deal(m, late).over
    with pytest.raises(MatchError, match="time limit"):
        fold_deal(
            replace(m, overtime=False, ruleset=JJ, levels={"NS": "T", "EW": "T"}), replace(late, level="T")
        )


def sudden_deals():
    """Deal 1 before time, deal 2 finishing after the deadline (it triggers overtime), deal 3 at A after it."""
    m = start_match(SUDDEN, first_banker="N", started_at=T0)
    d1 = MatchDeal.from_score(scored(m, 60), started_at=T0, finished_at=T0 + timedelta(minutes=30))
    m = fold_deal(m, d1)  # NS 3, S banks
    d2 = MatchDeal.from_score(
        scored(m, 60), started_at=T0 + timedelta(minutes=40), finished_at=T0 + timedelta(minutes=65)
    )
    m = call_time(fold_deal(m, d2), d2.finished_at)  # NS 4, then time: both A, N banks (NS ahead, N kept)
    d3 = MatchDeal.from_score(
        scored(m, 130), started_at=T0 + timedelta(minutes=66), finished_at=T0 + timedelta(minutes=80)
    )
    return [d1, d2, d3], fold_deal(m, d3)


def test_replay_reproduces_sudden_death_from_the_deal_finishing_after_the_deadline():
    deals, folded = sudden_deals()
    state = replay(SUDDEN, deals, started_at=T0, first_banker="N")
    assert state == folded
    assert state.overtime and not state.over and dict(state.levels) == {"NS": "A", "EW": "A"}
    assert state.banker == "W"  # N lost at A: the bank passes on


def test_replay_reproduces_sudden_death_from_time_called_between_deals():
    m = start_match(SUDDEN, first_banker="N", started_at=T0)
    d1 = MatchDeal.from_score(scored(m, 60), started_at=T0, finished_at=T0 + timedelta(minutes=30))
    called = T0 + timedelta(minutes=62)
    m = call_time(fold_deal(m, d1), called)
    d2 = MatchDeal.from_score(scored(m, 0), started_at=called + timedelta(minutes=1))
    state = replay(SUDDEN, [d1, d2], started_at=T0, first_banker="N", now=called)
    assert (state.end.how, state.end.winner, state.overtime) == ("target", "NS", True)
    played, notes = replay_played(SUDDEN, [d1, d2], started_at=T0, first_banker="N", now=called)
    assert played.end == state.end and notes == ()
    # Before the deal after the call, the state is overtime at A: what the table shows for deal 2.
    before = replay(SUDDEN, [d1], started_at=T0, first_banker="N", now=called)
    assert (before.overtime, dict(before.levels)) == (True, {"NS": "A", "EW": "A"})


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from([TimeRule.HIGHER_LEVEL, TimeRule.POINTS, TimeRule.SUDDEN_DEATH]),
    st.lists(st.tuples(st.integers(0, 40).map(lambda k: 5 * k), st.integers(5, 30)), max_size=12),
)
def test_replaying_a_random_timed_match_equals_folding_it_deal_by_deal(rule, deals):
    """Deal by deal with the time rule applied at each finish, as the table plays it, is what replay rebuilds."""
    rs = replace(SUDDEN, time_rule=rule)
    m = start_match(rs, first_banker="N", started_at=T0)
    clock, played = T0, []
    for points, minutes in deals:
        if not can_start_deal(m, clock):
            break
        deal = MatchDeal.from_score(
            scored(m, points), started_at=clock, finished_at=clock + timedelta(minutes=minutes)
        )
        clock = deal.finished_at
        m = call_time(fold_deal(m, deal), clock)
        played.append(deal)
    assert replay(rs, played, started_at=T0, first_banker="N") == m
    assert m.overtime == (rule == TimeRule.SUDDEN_DEATH and clock >= AT_TIME)


@settings(max_examples=40, deadline=None)
@given(
    points=st.lists(st.sampled_from([0, 20, 40, 60, 80, 120, 160]), min_size=1, max_size=12),
    order=st.randoms(use_true_random=False),
    forfeited_by=st.sampled_from([None, "NS", "EW"]),
)
def test_stepping_the_deals_gives_each_prefix_the_state_replaying_it_gives(points, order, forfeited_by):
    """``play_on`` then ``closed`` (one pass: the site's re-scoring) give the state before every deal that
    ``replay_played`` gives for each prefix, deals played out of order (a correction) and after the end included."""
    state, deals = start_match(STANDARD, first_banker="N"), []
    for p in points:
        s = scored(state, p)
        deals.append(MatchDeal.from_score(s))
        state = fold_deal(state, deals[-1])
        if state.over:
            break
    order.shuffle(deals)
    stepped = start_match(STANDARD, first_banker="N")
    for k in range(len(deals) + 1):
        replayed, _notes = replay_played(STANDARD, deals[:k], first_banker="N", forfeited_by=forfeited_by)
        assert closed(stepped, forfeited_by) == replayed, f"after {k} deals"
        if k < len(deals):
            stepped = play_on(stepped, deals[k])
