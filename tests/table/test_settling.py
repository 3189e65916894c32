"""Every fault shown the moment it is proven, every violation settled before a deal is submitted: revokes and
throws proven later, confirming or undoing, the ruleset's penalty applied once (also by two at once), the
director's dismissal, the submit refused while one is open, a play out of turn, and who may challenge a throw.
The whole deal with a revoke is entered once for the module (``revoked_scene``); each test undoes its writes."""

from __future__ import annotations

import copy
import json

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import translation

from referee.table.consequences import seat_label
from referee.table.recording import deal_entry, records, settling
from referee.table.recording import play as plays
from referee.table.screens.deal_state import current_deal_state, deal_state
from referee.table.screens.review import review_screen
from rules.judge import judge as engine_judge
from tests.action_urls import deal_url
from tests.table import helpers
from tests.table.helpers import flipping_revoke, play_through_service, record_play, stored_nothing
from tournaments.models import Deal, Match, Penalty, Ruling
from tournaments.scoring import corrections
from tournaments.scoring.errors import PermissionRefused, RecordingError
from tournaments.scoring.settlement import violation_key

pytestmark = pytest.mark.django_db
JSON = {"HTTP_ACCEPT": "application/json"}


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def as_user(user, language: str = "en") -> Client:
    c = Client()
    c.force_login(user)
    c.cookies["django_language"] = language
    return c


def post(client, deal, action, **fields):
    deal.refresh_from_db()
    return client.post(deal_url(deal.pk, action), {"version": deal.version, **fields}, **JSON)


def play_all(deal, user, plays):
    for cards in plays:
        deal.refresh_from_db()
        record_play(deal, user, cards=cards, version=deal.version)
    deal.refresh_from_db()


# W shows out of spades in trick 1 and plays a spade in trick 3 (trump hearts, level 2, N banks).
SHOWS_OUT = ["S3", "C4", "S5", "S6"]  # E wins with ♠6
SECOND = ["DA", "D3", "D4", "D5"]  # E leads and wins
REVOKE_KEY = "0:W:revoke_suit"


def test_a_revoke_proven_two_tricks_later_is_named_at_once_with_its_consequence(match, judge):
    deal = deal_entry.start_deal(match, judge, trump="H", declarer="N")
    play_all(deal, judge, SHOWS_OUT + SECOND + ["S7", "S8"])
    snap = record_play(deal, judge, cards="S9", version=deal.version)  # accepted: it was played
    assert snap.proven == (REVOKE_KEY,)
    with translation.override("zh-hans"):
        row = deal_state(snap.deal, judge, snap)["violations"][0]
    assert (row["key"], row["status"], row["new"], row["confirmed"]) == (REVOKE_KEY, "open", True, False)
    assert (
        row["trick_label"] == "第 1 墩" and row["seat_label"] == "西 乙2"
    )  # W is the E–W pair's second player
    assert row["penalty"] == "revoke" and "判负" in row["consequence"] and "庄家方守住" in row["consequence"]


def test_the_play_answer_asks_to_confirm_or_undo_and_undo_takes_the_fault_away(match, judge):
    deal = deal_entry.start_deal(match, judge, trump="H", declarer="N")
    play_all(deal, judge, SHOWS_OUT + SECOND + ["S7", "S8"])
    c = as_user(judge)
    answer = post(c, deal, "play", cards="S9").json()
    assert answer["ok"] is True
    (row,) = answer["state"]["violations"]
    assert row["new"] and row["text"].startswith("West held")
    assert row["consequence"] == "the deal is lost: the banker side holds and goes up 1 level"
    undone = post(c, deal, "undo").json()
    assert undone["ok"] and undone["state"]["violations"] == []


def test_recorded_as_played_is_kept_once_and_does_not_settle(match, judge):
    deal = deal_entry.start_deal(match, judge, trump="H", declarer="N")
    play_all(deal, judge, SHOWS_OUT + SECOND + ["S7", "S8", "S9"])
    c = as_user(judge)
    for _twice in range(2):
        assert post(c, deal, "played", violation=REVOKE_KEY).json()["ok"]
    assert Ruling.objects.filter(deal=deal, kind=Ruling.Kind.PLAYED).count() == 1
    state = c.get(reverse("deal_state", args=[deal.pk])).json()
    (row,) = state["violations"]
    assert row["confirmed"] and not row["new"] and row["status"] == "open"


def test_a_pair_lead_broken_is_proven_when_the_pair_is_played(match, judge):
    """W follows ♦44 with ♦5 ♦6, then plays ♦77: W held a pair and broke the pair lead in trick 1."""
    deal = deal_entry.start_deal(match, judge, trump="H", declarer="N")
    play_all(deal, judge, ["D4 D4", "D5 D6", "D8 D8", "D9 DT", "CK CK", "C4 C5", "C6 C7"])
    snap = record_play(deal, judge, cards="D7 D7", version=deal.version)
    assert snap.proven == ("0:W:revoke_pair",)


def test_a_throw_that_should_have_failed_is_proven_when_the_beater_is_played(match, judge):
    deal = deal_entry.start_deal(match, judge, trump="H", declarer="N")
    play_all(deal, judge, ["SK SQ", "S3 S4", "S5 S6", "S7 S8", "C3", "C4", "C5"])
    snap = record_play(deal, judge, cards="SA", version=deal.version)
    assert "0:N:throw_should_fail" in snap.proven
    row = next(
        r for r in deal_state(snap.deal, judge, snap)["violations"] if r["code"] == "throw_should_fail"
    )
    assert row["penalty"] == "misplay" and row["consequence"] == "10 points to the attackers"


def test_a_card_count_that_cannot_add_up_is_shown_when_it_is_proven(match, judge):
    """One deck (12 cards a hand): the last trick led with two cards makes every hand 13 cards."""

    from rules.cards import format_cards, parse_cards
    from rules.order import trump_from_text
    from rules.simulate import simulate_deal

    spec = {"preset": "standard", "decks": 1}
    match.round.tournament.ruleset = spec
    match.round.tournament.save()
    record = simulate_deal(spec, banker="N", level="2", trump="S", seed=0)
    eff = trump_from_text("2", "S", False).eff
    kitty = list(parse_cards(record["kitty"]))
    (leader, lead), *follows = record["tricks"][-1]["plays"]
    same = next(c for c in kitty if eff[c] == eff[parse_cards(lead)[0]])  # seed 0 has one
    rest = [c for c in kitty if c != same]
    longer = copy.deepcopy(record)
    longer["tricks"][-1]["plays"] = [[leader, f"{lead} {format_cards([same])}"]] + [
        [seat, f"{cards} {format_cards([rest[i]])}"] for i, (seat, cards) in enumerate(follows)
    ]
    deal = deal_entry.start_deal(match, judge, trump="S", declarer="N")
    play_through_service(deal, judge, longer)
    rows = current_deal_state(deal, judge)["violations"]
    counts = [r for r in rows if r["code"] == "card_count"]
    assert sorted(r["seat"] for r in counts) == ["E", "N", "S", "W"]
    assert all(r["trick"] is None and r["trick_label"] == "whole deal" for r in counts)
    assert {r["penalty"] for r in counts} == {"wrong_card_count"} and all(
        r["status"] == "open" for r in counts
    )
    north = next(r for r in counts if r["seat"] == "N")  # the banker side loses the deal
    assert north["consequence"] == "the deal is lost: the attackers take over" and "13 cards" in north["text"]


def test_a_forced_fault_is_recorded_as_played(match, judge):
    """A wrong forced unit refused, then recorded on the judge's word: confirmed at once, still open."""
    deal = deal_entry.start_deal(match, judge, trump="H", declarer="N")
    throw = plays.Throw("S98844", "W", "SQQ")
    with pytest.raises(RecordingError):
        record_play(deal, judge, cards="S9", version=deal.version, throw=throw)
    snap = record_play(deal, judge, cards="S9", version=deal.version, throw=throw, force=True)
    ruling = Ruling.objects.get(deal=deal)
    assert (ruling.violation, ruling.kind, ruling.made_by) == ("0:N:wrong_forced_unit", "played", judge)
    row = deal_state(snap.deal, judge, snap)["violations"][0]
    assert row["confirmed"] and row["status"] == "open" and row["penalty"] == "misplay"


# ------------------------------------------------------------------ a whole deal with a revoke


@pytest.fixture(scope="module")
def revoked_scene(django_db_setup, django_db_blocker):
    """``helpers.revoked_scene`` entered once for the module (``helpers.module_transaction``)."""
    with helpers.module_transaction(django_db_blocker):
        yield helpers.revoked_scene()


@pytest.fixture
def revoked(revoked_scene):
    """The module's revoked deal read again (a test's writes are its own), its violation's key, its record."""
    return Deal.objects.get(pk=revoked_scene["deal"]), revoked_scene["key"], revoked_scene["record"]


@pytest.fixture
def scorer(revoked_scene):  # the revoked deal's table judge
    return get_user_model().objects.get(pk=revoked_scene["scorer"])


@pytest.fixture
def td(revoked_scene):  # a director, beside the revoked deal
    return get_user_model().objects.get(pk=revoked_scene["td"])


def test_submit_is_refused_while_a_violation_is_open(revoked, scorer):
    deal, key, _record = revoked
    with pytest.raises(settling.Unsettled) as refused:
        deal_entry.submit_deal(deal, scorer, version=deal.version)
    assert refused.value.details["violations"] == [key]
    assert "Settle every violation" in refused.value.message and "held" in refused.value.message
    deal.refresh_from_db()
    assert deal.state == Deal.State.RECORDING
    response = post(as_user(scorer), deal, "submit")
    assert response.status_code == 409 and response.json()["error"] == "unsettled"


def test_the_review_page_shows_what_is_open_and_disables_submit(revoked, scorer):
    deal, key, _record = revoked
    page = as_user(scorer).get(reverse("review", args=[deal.pk])).content.decode()
    assert 'data-testid="open-violations"' in page and f'data-violation="{key}"' in page
    assert "1 violation is open" in page
    assert "Apply the penalty this ruleset gives" in page
    assert 'class="primary" disabled>Submit the deal' in page
    assert "Dismiss (director)" not in page  # a judge may not dismiss


def test_the_director_is_offered_the_dismissal(revoked, td):
    deal, key, _record = revoked
    page = as_user(td).get(reverse("review", args=[deal.pk])).content.decode()
    assert "Dismiss (director)" in page and 'name="note" required' in page


def test_applying_the_penalty_settles_it_once_and_the_review_explains_the_flip(revoked, scorer):
    deal, key, record = revoked
    c = as_user(scorer)
    for _twice in range(2):  # a double press: two writes, each with its own key, one penalty
        assert post(c, deal, "apply", violation=key).json()["ok"]
    penalty = Penalty.objects.get(deal=deal)
    assert (penalty.code, penalty.violation, penalty.seat) == ("revoke", key, key.split(":")[1])
    screen = review_screen(deal, scorer)
    assert screen["open_violations"] == [] and screen["violations"][0]["status"] == "penalty"
    assert screen["penalties"][0]["consequence"].startswith("the deal is lost")
    who = seat_label(penalty.seat, deal.match.seat_players())
    assert screen["why"].startswith(f"{who}'s revoke: under this ruleset ")
    with translation.override("zh-hans"):
        why = review_screen(deal, scorer)["why"]
    assert "跟错：按本规则" in why
    deal.refresh_from_db()
    deal_entry.submit_deal(deal, scorer, version=deal.version)
    deal.refresh_from_db()
    plain = engine_judge({**record, "levels": {"NS": "2", "EW": "2"}}).result
    assert deal.state == Deal.State.SUBMITTED and deal.verdict["result"] != plain


def test_the_same_penalty_called_with_the_form_settles_the_violation_once(revoked, scorer):
    deal, key, _record = revoked
    trick, seat, _code = key.split(":")
    corrections.add_penalty(
        deal, scorer, seat=seat, code="revoke", trick=int(trick), note="", version=deal.version
    )
    deal.refresh_from_db()
    screen = review_screen(deal, scorer)
    assert screen["open_violations"] == [] and screen["violations"][0]["status"] == "penalty"
    assert post(as_user(scorer), deal, "apply", violation=key).json()["ok"]  # nothing more to record
    assert Penalty.objects.filter(deal=deal).count() == 1
    deal.refresh_from_db()
    deal_entry.submit_deal(deal, scorer, version=deal.version)
    deal.refresh_from_db()
    assert deal.state == Deal.State.SUBMITTED


def test_a_penalty_called_for_another_trick_does_not_settle_the_violation(revoked, scorer):
    deal, key, _record = revoked
    trick, seat, _code = key.split(":")
    other = (int(trick) + 1) % 20
    corrections.add_penalty(
        deal, scorer, seat=seat, code="revoke", trick=other, note="", version=deal.version
    )
    deal.refresh_from_db()
    with pytest.raises(settling.Unsettled):
        deal_entry.submit_deal(deal, scorer, version=deal.version)


def test_correcting_the_entry_settles_it_and_drops_its_penalty(match, judge):
    deal = deal_entry.start_deal(match, judge, trump="H", declarer="N")
    play_all(deal, judge, SHOWS_OUT + SECOND + ["S7", "S8", "S9"])
    settling.apply_penalty(deal, judge, REVOKE_KEY)
    settling.confirm_played(deal, judge, REVOKE_KEY)
    deal.refresh_from_db()
    deal_entry.undo(deal, judge, version=deal.version)
    assert not Penalty.objects.filter(deal=deal).exists() and not Ruling.objects.filter(deal=deal).exists()
    assert Penalty.history.filter(violation=REVOKE_KEY, history_type="-").exists()  # the history keeps it


def test_a_violation_gone_cannot_be_applied(match, judge):
    deal = deal_entry.start_deal(match, judge, trump="H", declarer="N")
    with pytest.raises(RecordingError, match="no longer in the verdict"):
        settling.apply_penalty(deal, judge, REVOKE_KEY)


@pytest.mark.parametrize(
    "bad", ["", "x", "0:W", "0:Q:revoke_suit", "9999:W:revoke_suit", "0:W:Revoke", "0:W:a\x00"]
)
def test_a_malformed_violation_key_is_a_400(match, judge, bad):
    deal = deal_entry.start_deal(match, judge, trump="H", declarer="N")
    response = post(as_user(judge), deal, "apply", violation=bad)
    assert response.status_code == 400 and response.json()["error"] == "refused"


# ------------------------------------------------------------------ the director's dismissal


def test_only_the_director_dismisses_and_the_note_is_kept_with_history(revoked, scorer, td):
    deal, key, _record = revoked
    refused = post(as_user(scorer), deal, "dismiss", violation=key, note="the player had it")
    assert refused.status_code == 403
    with pytest.raises(PermissionRefused):
        settling.dismiss(deal, scorer, key, "no")
    assert post(as_user(td), deal, "dismiss", violation=key, note="  ").status_code == 400
    assert post(as_user(td), deal, "dismiss", violation=key, note="misdealt card").json()["ok"]
    ruling = Ruling.objects.get(deal=deal, kind=Ruling.Kind.DISMISSED)
    assert (ruling.violation, ruling.note, ruling.made_by, ruling.code) == (
        key,
        "misdealt card",
        td,
        "revoke_suit",
    )
    row = review_screen(deal, td)["violations"][0]
    assert (row["status"], row["settled_by"], row["dismissal_note"]) == (
        "dismissed",
        td.username,
        "misdealt card",
    )
    assert post(as_user(td), deal, "undismiss", violation=key).json()["ok"]
    assert not Ruling.objects.filter(deal=deal).exists()
    assert Ruling.history.filter(violation=key).count() == 2  # made, then withdrawn
    assert post(as_user(td), deal, "dismiss", violation=key, note="after all").json()["ok"]
    deal.refresh_from_db()
    deal_entry.submit_deal(deal, scorer, version=deal.version)  # settled by the dismissal
    deal.refresh_from_db()
    assert deal.state == Deal.State.SUBMITTED and not deal.penalties.exists()


# ------------------------------------------------------------------ a play out of turn


def test_a_play_out_of_turn_takes_the_rulesets_penalty(match, judge):
    deal = deal_entry.start_deal(match, judge, trump="H", declarer="N")
    play_all(deal, judge, ["S3"])  # W is due
    c = as_user(judge)
    assert post(c, deal, "out_of_turn", seat="W").status_code == 400  # the seat due is not out of turn
    answer = post(c, deal, "out_of_turn", seat="E", cards="SK")
    assert answer.status_code == 200, answer.json()
    penalty = Penalty.objects.get(deal=deal)
    assert (penalty.seat, penalty.code, penalty.trick, penalty.note, penalty.violation) == (
        "E",
        "misplay",
        0,
        "SK",
        "0:E:wrong_order",
    )
    row = answer.json()["state"]["violations"][0]
    assert row["status"] == "penalty" and row["consequence"] == "−10 points for the attackers"
    assert row["text"] == "played out of turn, showing ♠K"
    assert post(c, deal, "out_of_turn", seat="E").status_code == 400  # once per seat and trick
    play_all(deal, judge, ["S4", "S5", "SK"])  # E plays the card in turn
    assert Penalty.objects.filter(deal=deal).count() == 1  # kept through the plays
    assert records.deal_record(deal)["penalties"] == [
        {"seat": "E", "code": "misplay", "trick": 0, "note": "SK"}
    ]


def test_a_play_out_of_turn_counts_in_the_score(match, judge):
    from tests.table.helpers import simulated

    deal = deal_entry.start_deal(match, judge, trump="S", declarer="N")
    record = simulated(deal, 3)
    play_through_service(deal, judge, record, upto=2)
    deal.refresh_from_db()
    seat = "N" if current_deal_state(deal, judge)["next_seat"] == "S" else "S"  # banker side, not due
    settling.record_out_of_turn(deal, judge, seat=seat, cards="", version=deal.version)
    play_through_service(deal, judge, {"tricks": record["tricks"][2:]})
    deal.refresh_from_db()
    deal_entry.set_kitty(deal, judge, record["kitty"], version=deal.version)
    deal.refresh_from_db()
    deal_entry.submit_deal(deal, judge, version=deal.version)
    deal.refresh_from_db()
    plain = engine_judge(record).attackers_points["penalties"]  # the failed throws' deductions, if any
    assert deal.verdict["attackers_points"]["penalties"] == plain + 10


# ------------------------------------------------------------------ who challenges a throw


def test_any_other_player_may_challenge_a_throw_the_partner_too(match, judge):
    deal = deal_entry.start_deal(match, judge, trump="H", declarer="N")
    state = current_deal_state(deal, judge)
    assert state["challengers"] == [
        "W",
        "E",
        "S",
    ]  # N leads: the two opponents in play order, then the partner
    throw = {"throw_attempted": "S98844", "throw_shown": "SQQ", "cards": "S4 S4"}
    refused = post(as_user(judge), deal, "play", throw_challenger="N", **throw)  # the thrower
    assert refused.status_code == 400
    assert "another player" in refused.json()["message"]
    assert not deal.tricks.exists()
    assert post(as_user(judge), deal, "play", throw_challenger="S", **throw).json()["ok"]  # the partner (§5)
    trick = deal.tricks.get()
    assert (trick.throw_challenger, trick.throw_shown) == ("S", "SQ SQ")
    state = current_deal_state(deal, judge)
    assert state["challengers"] == []  # a follower cannot throw
    assert not [v for v in state["violations"] if v["code"] == "bad_challenge"]


def test_the_thrower_challenging_their_own_throw_is_refused_in_chinese(match, judge):
    deal = deal_entry.start_deal(match, judge, trump="H", declarer="N")
    throw = {"throw_attempted": "S98844", "throw_shown": "SQQ", "cards": "S4 S4"}
    answer = post(as_user(judge, "zh-hans"), deal, "play", throw_challenger="N", **throw)
    assert answer.json()["message"] == "甩牌者不能否决自己的甩牌：请选择另一家。"


# ------------------------------------------------------------------ a whole record (record_deal, its command)


def test_a_record_whose_penalties_leave_a_violation_unsettled_is_refused_and_nothing_is_stored(
    match, director
):
    record, seat, trick = flipping_revoke()
    with pytest.raises(settling.Unsettled) as refused:
        records.record_deal(match, record, director)
    named = {"N": "North", "W": "West", "S": "South", "E": "East"}[seat]
    message = refused.value.message
    assert message.startswith(
        "The record's penalties leave a violation unsettled, so the deal was not recorded: "
    )
    assert f"Trick {trick + 1}: {named} held" in message
    assert f'(add {{"seat": "{seat}", "code": "revoke", "trick": {trick}}} to its penalties).' in message
    assert refused.value.details["violations"] == [violation_key(trick, seat, "revoke_suit")]
    assert stored_nothing(match)


def test_a_penalty_of_another_trick_in_the_record_does_not_settle_the_violation(match, director):
    record, seat, trick = flipping_revoke()
    record["penalties"] = [{"seat": seat, "code": "revoke", "trick": (trick + 1) % 20}]
    with pytest.raises(settling.Unsettled):
        records.record_deal(match, record, director)
    assert stored_nothing(match)


def test_the_same_record_with_the_penalty_that_settles_it_is_recorded(match, director):
    record, seat, trick = flipping_revoke()
    record["penalties"] = [{"seat": seat, "code": "revoke", "trick": trick, "note": "seen at the table"}]
    deal = records.record_deal(match, record, director)
    assert deal.state == Deal.State.CONFIRMED
    assert [v["code"] for v in deal.verdict["violations"]] == ["revoke_suit"]
    assert Penalty.objects.get(deal=deal).code == "revoke"
    plain = engine_judge({**record, "penalties": [], "levels": {"NS": "2", "EW": "2"}}).result
    assert deal.verdict["result"]["outcome"] != plain["outcome"]  # the revoke's penalty counted


def test_a_record_with_a_fault_no_penalty_settles_is_refused_until_corrected(match, director):
    from rules.simulate import simulate_deal

    record = simulate_deal("standard", banker="N", level="2", seed=1)
    kitty = record["kitty"].split()
    record["kitty"] = " ".join([*kitty[:-1], kitty[0]])  # one card three times, another once
    with pytest.raises(settling.Unsettled, match=r"no penalty settles it: correct the record\)\.$"):
        records.record_deal(match, record, director)
    assert stored_nothing(match)


def test_the_record_deal_command_refuses_an_unsettled_record_with_exit_2(match, director, tmp_path):
    from django.core.management import CommandError, call_command

    record, seat, trick = flipping_revoke()
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    with pytest.raises(CommandError) as refused:
        call_command("record_deal", str(match.pk), str(path))
    assert refused.value.returncode == 2
    assert str(refused.value).startswith("The record's penalties leave a violation unsettled")
    assert f'{{"seat": "{seat}", "code": "revoke", "trick": {trick}}}' in str(refused.value)
    assert stored_nothing(match)
    with translation.override("zh-hans"), pytest.raises(CommandError) as refused:
        call_command("record_deal", str(match.pk), str(path))
    assert str(refused.value).startswith("记录中的罚则没有处理所有违例")


def test_a_deal_settled_by_its_penalty_is_exported_and_recorded_again_as_it_stands(
    match, round1, make_pair, judge, director
):
    """The penalty applied on the site (keyed by the violation) is in the export, and settles the violation
    again when the exported record is recorded into another match."""
    record, seat, trick = flipping_revoke()
    record["penalties"] = [{"seat": seat, "code": "revoke", "trick": trick, "note": "seen at the table"}]
    first = records.record_deal(match, record, director)
    (exported,) = records.export_deals(match)
    assert exported["penalties"] == record["penalties"]
    other = Match.objects.create(round=round1, table=2, pair_ns=make_pair(), pair_ew=make_pair(), judge=judge)
    again = records.record_deal(other, exported, director)
    assert again.state == Deal.State.CONFIRMED and again.verdict["result"] == first.verdict["result"]
