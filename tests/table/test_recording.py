"""The recording service: whole deals through the judge's path, refusals, submission, confirmation, recompute."""

from __future__ import annotations

import pytest

from referee.table.recording import deal_entry, records
from tests.table.helpers import play_through_service, record_play, simulated
from tournaments.models import Deal, Match
from tournaments.scoring import corrections, fold, snapshot
from tournaments.scoring.errors import IllegalPlay, PermissionRefused, RecordingError, StaleEdit
from tournaments.scoring.rulesets import ruleset_for

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    """Service messages in English here; the Chinese ones are checked where a test overrides it."""
    from django.utils import translation

    with translation.override("en"):
        yield


def start(match, user, trump="S", declarer="N"):
    return deal_entry.start_deal(match, user, trump=trump, declarer=declarer)


def full_deal(match, user, seed=1):
    """Start a deal, enter every play of a simulated deal and its kitty, as the judge's page would."""
    deal = start(match, user)
    record = simulated(deal, seed)
    play_through_service(deal, user, record)
    deal.refresh_from_db()
    deal_entry.set_kitty(deal, user, record["kitty"], version=deal.version)
    deal.refresh_from_db()
    return deal, record


def test_first_deal_takes_the_declarer_and_the_start_level(match, judge):
    deal = start(match, judge, trump="H", declarer="E")
    assert (deal.number, deal.banker, deal.declarer, deal.level, deal.trump) == (1, "E", "E", "2", "H")
    match.refresh_from_db()
    assert match.state == Match.State.IN_PROGRESS and match.started_at is not None


def test_first_deal_needs_a_declarer(match, judge):
    with pytest.raises(RecordingError):
        deal_entry.start_deal(match, judge, trump="S")


def test_a_whole_deal_entered_play_by_play_is_judged_and_scored(match, judge):
    deal, record = full_deal(match, judge)
    assert snapshot.snapshot(deal, fold.levels_before(deal)).complete
    deal_entry.submit_deal(deal, judge, version=deal.version)
    deal.refresh_from_db()
    assert deal.state == Deal.State.SUBMITTED
    from rules.judge import judge as engine_judge

    expected = engine_judge({**record, "levels": {"NS": "2", "EW": "2"}}).as_dict()
    assert deal.verdict["ok"] is True
    assert deal.verdict["attackers_points"] == expected["attackers_points"]
    assert deal.verdict["result"] == expected["result"]


def test_submit_refuses_an_unfinished_deal(match, judge):
    deal = start(match, judge)
    record = simulated(deal)
    play_through_service(deal, judge, record, upto=3)
    deal.refresh_from_db()
    with pytest.raises(RecordingError, match="not finished"):
        deal_entry.submit_deal(deal, judge, version=deal.version)


def test_wrong_size_follow_is_refused_in_chinese_and_nothing_is_saved(match, judge):
    deal = start(match, judge)
    record_play(deal, judge, cards="SA SA", version=0)
    deal.refresh_from_db()
    from django.utils import translation

    with translation.override("zh-hans"), pytest.raises(IllegalPlay) as err:
        record_play(deal, judge, cards="S3", version=deal.version)
    assert err.value.violations[0]["code"] == "play_size"
    assert "首家出的是 2 张" in err.value.message
    assert err.value.forceable is False
    assert deal.tricks.get().plays.count() == 1


def test_a_mixed_lead_is_refused(match, judge):
    deal = start(match, judge, trump="H")
    with pytest.raises(IllegalPlay) as err:
        record_play(deal, judge, cards="SA CA", version=0)
    assert err.value.violations[0]["code"] == "mixed_lead"
    assert not deal.tricks.exists()


def test_unreadable_cards_name_the_token(match, judge):
    deal = start(match, judge)
    with pytest.raises(RecordingError, match="SX"):
        record_play(deal, judge, cards="SA SX", version=0)


def test_a_card_used_up_is_refused(match, judge):
    deal = start(match, judge)
    record_play(deal, judge, cards="BJ", version=0)
    for seat_cards, version in (("LJ", 1), ("S2", 2), ("S3", 3)):
        record_play(deal, judge, cards=seat_cards, version=version)
    deal.refresh_from_db()
    # N led BJ and won; the second BJ may come, a third may not.
    record_play(deal, judge, cards="BJ", version=deal.version)
    deal.refresh_from_db()
    with pytest.raises(IllegalPlay, match="BJ"):
        record_play(deal, judge, cards="BJ", version=deal.version)


def test_wrong_seat_is_refused(match, judge):
    deal = start(match, judge, declarer="N")
    with pytest.raises(RecordingError):
        record_play(deal, judge, cards="SA", seat="W", version=0)


def test_a_revoke_shown_later_is_caught_and_may_be_forced(match, judge):
    """W shows out of spades, then plays a spade on the next spade lead: the engine names W's revoke."""
    deal = start(match, judge, trump="H", declarer="N")
    for cards in ("S3", "C4", "S5", "S6"):  # W discards a club: void in spades shown
        deal.refresh_from_db()
        record_play(deal, judge, cards=cards, version=deal.version)
    deal.refresh_from_db()
    # E won with S6 and leads; N follows; W now plays a spade.
    for cards in ("S7", "S8"):
        record_play(deal, judge, cards=cards, version=deal.version)
        deal.refresh_from_db()
    record_play(deal, judge, cards="S9", version=deal.version, force=False)
    deal.refresh_from_db()
    verdict = records.judge_deal(deal)
    assert any(v.code == "revoke_suit" and v.seat == "W" and v.trick == 0 for v in verdict.violations)


def test_undo_last_play_and_trick(match, judge):
    deal = start(match, judge)
    for cards in ("SA", "S2", "S3", "S4", "SK"):
        deal.refresh_from_db()
        record_play(deal, judge, cards=cards, version=deal.version)
    deal.refresh_from_db()
    deal_entry.undo(deal, judge, version=deal.version)
    assert deal.tricks.count() == 1
    deal.refresh_from_db()
    deal_entry.undo(deal, judge, version=deal.version, whole_trick=True)
    assert deal.tricks.count() == 0


def test_stale_version_is_refused_with_who_and_when(match, judge, director):
    deal = start(match, judge)
    record_play(deal, director, cards="SA", version=0)
    with pytest.raises(StaleEdit) as err:
        record_play(deal, judge, cards="S2", version=0)
    assert "td" in err.value.message
    assert err.value.details["version"] == 1
    assert deal.tricks.get().plays.count() == 1


def test_confirmation_by_another_person_recomputes_the_match(match, judge, make_judge):
    deal, _record = full_deal(match, judge)
    deal_entry.submit_deal(deal, judge, version=deal.version)
    deal.refresh_from_db()
    with pytest.raises(PermissionRefused):
        deal_entry.confirm_deal(deal, judge, version=deal.version)
    other = make_judge("judge-two")
    deal_entry.confirm_deal(deal, other, version=deal.version)
    deal.refresh_from_db()
    match.refresh_from_db()
    assert deal.state == Deal.State.CONFIRMED and deal.confirmed_by == other
    after = deal.verdict["result"]["levels_after"]
    assert (match.level_ns, match.level_ew) == (after["NS"], after["EW"])
    assert match.banker == deal.verdict["result"]["next_banker"]


def test_a_confirmed_deal_is_locked_and_only_the_director_reopens_it(match, judge, make_judge, director):
    deal, _record = full_deal(match, judge)
    deal_entry.submit_deal(deal, judge, version=deal.version)
    deal.refresh_from_db()
    deal_entry.confirm_deal(deal, make_judge("j2"), version=deal.version)
    deal.refresh_from_db()
    with pytest.raises(RecordingError):
        corrections.add_penalty(deal, judge, seat="N", code="misplay", version=deal.version)
    with pytest.raises(PermissionRefused):
        corrections.reopen_deal(deal, judge, version=deal.version)
    corrections.reopen_deal(deal, director, version=deal.version, reason="wrong kitty")
    deal.refresh_from_db()
    assert deal.state == Deal.State.RECORDING
    latest = deal.history.first()
    assert latest.history_user == director and latest.history_change_reason == "wrong kitty"
    match.refresh_from_db()
    assert (match.level_ns, match.level_ew) == ("2", "2")


def test_correcting_an_early_deal_flows_through(match, judge, director):
    """Two confirmed deals; a penalty added to the first after reopening changes the levels after both."""
    first = records.record_deal(match, holding_deal(match), director)
    assert first.verdict["result"]["outcome"] == "banker_holds"
    state_before = fold.replay_match(match, states=fold.OFFICIAL)
    second_banker = state_before.banker
    second = records.record_deal(
        match, simulated_for(match, second_banker, state_before.levels[side(second_banker)], seed=6), director
    )
    assert second.number == 2
    first.refresh_from_db()
    corrections.reopen_deal(first, director, version=first.version, reason="a correction")
    first.refresh_from_db()
    corrections.add_penalty(
        first, director, seat="N", code="revoke", version=first.version, note="found later"
    )
    first.refresh_from_db()
    deal_entry.submit_deal(first, director, version=first.version)
    first.refresh_from_db()
    assert first.verdict["result"]["outcome"] == "takeover"  # revoke by the banker side: lose_deal
    deal_entry.confirm_deal(first, other_director(), version=first.version)
    match.refresh_from_db()
    # Deal 2 was played by the old banker; it still counts, at the level its side holds now.
    state, notes = fold.replay_with_notes(match, states=fold.OFFICIAL)
    assert state.deals == 2
    assert any("deal 2: banker" in note for note in notes)
    assert first.verdict["result"]["next_banker"] == "W"
    second.refresh_from_db()
    expected = expected_levels_after_two(match, first, second)
    assert (match.level_ns, match.level_ew) == (expected["NS"], expected["EW"])


def assert_start_levels_stored(match):
    """Every deal's stored start levels are the fold of the played deals before it (the rule of Deal.start_levels)."""
    for deal in match.deals.order_by("number"):
        assert deal.start_levels == fold.levels_before(deal), f"deal {deal.number}"


def test_stored_start_levels_follow_every_change_to_an_earlier_deal(match, judge, director):
    first = records.record_deal(match, holding_deal(match), director)
    second = start(match, judge, declarer=None)
    held = second.start_levels
    assert held != {"NS": "2", "EW": "2"}  # the banker side held deal 1 and went up
    assert_start_levels_stored(match)

    def first_again():
        first.refresh_from_db()
        return first

    def second_levels():
        return match.deals.get(number=2).start_levels

    corrections.reopen_deal(first_again(), director, version=first.version, reason="a correction")
    assert second_levels() == {"NS": "2", "EW": "2"}  # deal 1 is no longer played
    assert_start_levels_stored(match)
    deal_entry.submit_deal(first_again(), director, version=first.version)
    assert second_levels() == held
    corrections.reopen_deal(first_again(), director, version=first.version, reason="a renege reported")
    corrections.add_penalty(first_again(), director, seat="N", code="renege", version=first.version)
    deal_entry.submit_deal(first_again(), director, version=first.version)
    assert second_levels() != held  # a renege costs the banker side a level (standard)
    assert_start_levels_stored(match)
    penalty = first.penalties.get()
    corrections.reopen_deal(first_again(), director, version=first.version, reason="the renege withdrawn")
    corrections.remove_penalty(first_again(), director, penalty_id=penalty.pk, version=first.version)
    deal_entry.submit_deal(first_again(), director, version=first.version)
    assert second_levels() == held
    deal_entry.confirm_deal(first_again(), other_director(), version=first.version)
    assert_start_levels_stored(match)


def test_a_deal_without_stored_start_levels_is_folded(match, judge, director):
    records.record_deal(match, holding_deal(match), director)
    deal = start(match, judge, declarer=None)
    Deal.objects.filter(pk=deal.pk).update(start_levels=None)
    deal.refresh_from_db()
    assert snapshot.start_levels(deal) == fold.levels_before(deal) != {"NS": "2", "EW": "2"}


def expected_levels_after_two(match, first, second):
    """Hand-fold: deal 1 gave the attackers (EW) no levels; deal 2's gain applies to its side's level now."""
    from rules.levels import LevelGain, level_changes
    from rules.match import MatchDeal

    rs = ruleset_for(match)
    levels = {"NS": "2", "EW": "2"}
    for deal in (first, second):
        md = MatchDeal.from_record(
            rs,
            {
                "banker": deal.banker,
                "level": levels[side(deal.banker)],
                "penalties": snapshot.read_penalties(deal)[0],
            },
            deal.verdict,
        )
        levels = level_changes(
            rs,
            levels,
            banker=deal.banker,
            gain=LevelGain(md.side, md.levels),
            won=md.won,
            jack_reset=md.jack_reset,
            level_penalties=md.level_penalties,
        )[0]
    return levels


def holding_deal(match):
    """A simulated first deal (banker N at 2) that the banker side holds."""
    from rules.judge import judge as engine_judge

    for seed in range(100):
        record = simulated_for(match, "N", "2", seed=seed)
        if engine_judge(record).as_dict()["result"]["outcome"] == "banker_holds":
            return record
    raise AssertionError("no simulated deal held by the banker in 100 seeds")


def side(seat):
    return "NS" if seat in "NS" else "EW"


def simulated_for(match, banker, level, seed):
    from rules.simulate import simulate_deal

    record = simulate_deal(match.round.tournament.ruleset, banker=banker, level=level, seed=seed)
    record["ruleset"] = match.round.tournament.ruleset
    return record


def other_director():
    from tournaments.competition.accounts import create_director

    return create_director("td2", "director-pass-2")


def test_record_deal_refuses_a_record_that_disagrees(match, director):
    record = simulated_for(match, "N", "5", seed=1)
    with pytest.raises(RecordingError, match="level"):
        records.record_deal(match, record, director)
    record = simulated_for(match, "N", "2", seed=1)
    record["ruleset"] = "jj-competition"
    with pytest.raises(RecordingError, match="ruleset"):
        records.record_deal(match, record, director)
    assert not match.deals.exists()


def test_export_round_trips_through_the_engine(match, director):
    record = simulated_for(match, "N", "2", seed=3)
    records.record_deal(match, record, director)
    (exported,) = records.export_deals(match)
    from rules.judge import judge as engine_judge

    assert (
        engine_judge(exported).as_dict()["result"]
        == engine_judge({**record, "levels": {"NS": "2", "EW": "2"}}).as_dict()["result"]
    )
    assert exported["tricks"][0]["plays"][0][0] == "N"
