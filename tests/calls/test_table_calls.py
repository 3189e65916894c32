"""Table calls: raised by the table (once per device key), answered and resolved by the director, with a penalty
or a reopened deal through the recording service; the pages and who may use them."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from referee.table.recording.deal_entry import start_deal
from tests.table.helpers import JSON, as_user, key, submitted_by
from tournaments.calls import rulings as call_rulings
from tournaments.calls import services as calls
from tournaments.models import Deal, Penalty, TableCall

pytestmark = pytest.mark.django_db


def call_url(match) -> str:
    return reverse("table-call", args=[match.pk])


def raise_one(match, user, reason="revoke", **extra) -> TableCall:
    return calls.raise_call(match, user, reason=reason, **extra)


def test_the_tables_judge_calls_the_referee_and_the_call_names_the_deal_being_recorded(match, judge):
    deal = start_deal(match, judge, trump="S", declarer="N")
    call = raise_one(match, judge, note="北 said 5 cards")
    assert (call.state, call.reason, call.deal_id, call.called_by) == ("open", "revoke", deal.pk, judge)


def test_a_call_sent_again_with_its_device_key_is_the_same_call(match, judge):
    k = key()
    first = raise_one(match, judge, key=k)
    again = raise_one(match, judge, key=k)
    assert first.pk == again.pk and TableCall.objects.count() == 1


def test_a_posted_call_sent_twice_by_the_device_makes_one_call(match, judge):
    client = as_user(judge)
    k = key()
    for _ in range(2):
        answer = client.post(call_url(match), {"reason": "misdeal"}, HTTP_X_IDEMPOTENCY_KEY=k, **JSON)
        assert answer.status_code == 200 and answer.json()["ok"]
    assert TableCall.objects.filter(match=match, reason="misdeal").count() == 1


@pytest.mark.parametrize("reason", ["", "nope", "x" * 300])
def test_a_call_without_a_known_reason_is_refused_in_one_sentence(match, judge, reason):
    answer = as_user(judge).post(call_url(match), {"reason": reason}, **JSON)
    assert answer.status_code == 400 and answer.json()["message"]
    assert not TableCall.objects.exists()


def test_a_judge_of_another_table_cannot_call_for_this_one(match, make_judge):
    other = make_judge("other")
    answer = as_user(other).post(call_url(match), {"reason": "time"}, **JSON)
    assert answer.status_code == 403 and not TableCall.objects.exists()


def test_a_finished_tournament_takes_no_call(match, judge, director):
    from django.utils import timezone

    t = match.round.tournament
    t.finished_at = timezone.now()
    t.save()
    with pytest.raises(calls.CallError):
        raise_one(match, director)


def test_only_the_director_marks_on_the_way_and_resolves(match, judge):
    call = raise_one(match, judge)
    with pytest.raises(calls.CallError) as refused:
        calls.mark_on_the_way(call, judge)
    assert refused.value.status == 403
    with pytest.raises(calls.CallError):
        call_rulings.resolve(call, judge, ruling="play on")
    assert TableCall.objects.get(pk=call.pk).state == "open"


def test_the_director_goes_then_resolves_with_a_ruling_only(match, judge, director):
    call = raise_one(match, judge, reason="time")
    calls.mark_on_the_way(call, director)
    assert TableCall.objects.get(pk=call.pk).state == "on_the_way"
    call_rulings.resolve(call, director, ruling="两分钟后收牌")
    call.refresh_from_db()
    assert (call.state, call.ruling, call.action, call.resolved_by) == (
        "resolved",
        "两分钟后收牌",
        "",
        director,
    )
    assert call.on_the_way_by == director and calls.waiting_calls(match.round.tournament) == []


def test_a_ruling_is_required(match, judge, director):
    call = raise_one(match, judge)
    with pytest.raises(calls.CallError):
        call_rulings.resolve(call, director, ruling="   ")


def test_a_penalty_ruling_goes_on_the_open_deal_through_the_penalty_service(match, judge, director):
    deal = start_deal(match, judge, trump="S", declarer="N")
    call = raise_one(match, judge)
    call_rulings.resolve(call, director, ruling="West revoked", action="penalty", seat="W", code="revoke")
    penalty = Penalty.objects.get(deal=deal)
    call.refresh_from_db()
    assert (penalty.seat, penalty.code, penalty.recorded_by) == ("W", "revoke", director)
    assert call.penalty == penalty and call.action == "penalty"


def test_a_penalty_on_a_submitted_deal_reopens_it_first_with_the_ruling_as_the_reason(match, judge, director):
    deal = submitted_by(match, judge)
    call = raise_one(match, judge, reason="card_count")
    call_rulings.resolve(call, director, ruling="South held 24", action="penalty", seat="S", code="misplay")
    deal.refresh_from_db()
    assert deal.state == Deal.State.RECORDING and deal.reopen_reason == "South held 24"
    assert deal.penalties.get().code == "misplay"


def test_a_reopen_ruling_reopens_the_submitted_deal(match, judge, director):
    deal = submitted_by(match, judge)
    call = raise_one(match, judge, reason="misdeal")
    call_rulings.resolve(call, director, ruling="Redeal it", action="reopen")
    deal.refresh_from_db()
    assert deal.state == Deal.State.RECORDING and TableCall.objects.get(pk=call.pk).action == "reopen"


def test_a_ruling_that_needs_a_deal_is_refused_before_the_first_deal_and_the_call_stays_open(
    match, judge, director
):
    call = raise_one(match, judge)
    with pytest.raises(calls.CallError):
        call_rulings.resolve(call, director, ruling="penalty", action="reopen")
    assert TableCall.objects.get(pk=call.pk).state == "open"


def test_a_resolved_call_cannot_be_resolved_again(match, judge, director):
    call = raise_one(match, judge)
    call_rulings.resolve(call, director, ruling="ok")
    with pytest.raises(calls.CallError) as refused:
        call_rulings.resolve(TableCall.objects.get(pk=call.pk), director, ruling="again")
    assert refused.value.status == 409


def test_the_board_and_the_queue_show_the_open_call_with_table_reason_and_waiting_time(
    client, match, judge, director
):
    raise_one(match, judge, reason="misdeal")
    client.force_login(director)
    client.cookies["django_language"] = "en"
    t = match.round.tournament
    board = client.get(reverse("desk-board", args=[t.slug])).content.decode()
    queue = client.get(reverse("desk-calls", args=[t.slug])).content.decode()
    for page in (board, queue):
        assert "Table 1" in page and "misdeal" in page and "0 min" in page


def test_the_match_page_offers_the_call_and_lists_the_ruling(client, match, judge, director):
    call = raise_one(match, judge)
    call_rulings.resolve(call, director, ruling="Play on, no penalty")
    client.force_login(judge)
    page = client.get(reverse("match", args=[match.pk])).content.decode()
    assert "data-call-form" in page and "Play on, no penalty" in page


def test_a_visitor_sees_no_call_form_nor_the_calls(client, match, judge):
    raise_one(match, judge, note="secret words")
    page = client.get(reverse("match", args=[match.pk])).content.decode()
    assert "data-call-form" not in page and "secret words" not in page


def test_the_resolve_page_posts_a_penalty_and_goes_back_to_the_queue(client, match, judge, director):
    deal = start_deal(match, judge, trump="S", declarer="N")
    call = raise_one(match, judge)
    client.force_login(director)
    t = match.round.tournament
    url = reverse("desk-call-resolve", args=[t.slug, call.pk])
    answer = client.post(url, {"ruling": "revoke", "action": "penalty", "seat": "E", "code": "revoke"})
    assert answer.status_code == 302 and answer["Location"] == reverse("desk-calls", args=[t.slug])
    assert deal.penalties.get().seat == "E"


def test_a_penalty_without_its_seat_is_a_form_error_and_nothing_changes(client, match, judge, director):
    start_deal(match, judge, trump="S", declarer="N")
    call = raise_one(match, judge)
    client.force_login(director)
    url = reverse("desk-call-resolve", args=[match.round.tournament.slug, call.pk])
    answer = client.post(url, {"ruling": "revoke", "action": "penalty"})
    assert answer.status_code == 400 and TableCall.objects.get(pk=call.pk).state == "open"
    assert not Penalty.objects.exists()


CALL_PAGES = [
    ("get", "desk-calls", False),
    ("get", "desk-calls-live", False),
    ("get", "desk-call", True),
    ("post", "desk-call-on-the-way", True),
    ("post", "desk-call-resolve", True),
]


@pytest.mark.parametrize(("method", "name", "with_call"), CALL_PAGES)
def test_the_calls_desk_pages_need_the_director(client, match, judge, method, name, with_call):
    call = raise_one(match, judge)
    t = match.round.tournament
    url = reverse(name, args=[t.slug, call.pk] if with_call else [t.slug])
    answer = getattr(client, method)(url)
    assert answer.status_code == 302 and answer["Location"].startswith(reverse("login"))
    captain = get_user_model().objects.create_user(username="cap", password="captain-pass-1")
    for user in (judge, captain):
        client.force_login(user)
        assert getattr(client, method)(url).status_code == 403
    assert TableCall.objects.get(pk=call.pk).state == "open"


@pytest.mark.parametrize("call_id", ["987654", str(2**63 - 1)])
def test_a_call_of_no_such_number_is_a_404_at_the_desk(client, match, director, call_id):
    client.force_login(director)
    t = match.round.tournament
    assert client.get(f"/t/{t.slug}/desk/calls/{call_id}/").status_code == 404
    assert client.post(f"/t/{t.slug}/desk/calls/{call_id}/resolve/", {"ruling": "x"}).status_code == 404


def test_a_call_of_another_tournament_is_a_404(client, match, judge, director):
    from tournaments.models import Tournament

    call = raise_one(match, judge)
    other = Tournament.objects.create(name="其他", slug="other", ruleset={"preset": "standard"})
    client.force_login(director)
    assert client.get(reverse("desk-call", args=[other.slug, call.pk])).status_code == 404
