"""Writes that survive the network: retries answered once (idempotency keys), quick entry posted twice, every
write form carrying a fresh key, old receipts pruned."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from referee.table.recording import deal_entry, quick, receipts
from tests.action_urls import deal_url
from tests.table.helpers import (
    JSON,
    act,
    allow_quick,
    as_user,
    confirmed_deal,
    key,
    quick_fields,
    record_play,
)
from tournaments.models import Deal, Match, WriteReceipt
from tournaments.scoring import corrections
from tournaments.scoring.errors import RecordingError

db = pytest.mark.django_db


# ------------------------------------------------------------------ idempotent deal actions


@db
def test_a_play_posted_twice_with_one_key_is_recorded_once_and_never_a_conflict(deal, judge):
    c, k = as_user(judge), key()
    first = act(c, deal, "play", cards="SA", version=0, idempotency_key=k)
    again = act(c, deal, "play", cards="SA", version=0, idempotency_key=k)
    assert first.status_code == again.status_code == 200
    assert again.json()["ok"] is True
    assert again.json()["state"]["deal"]["version"] == 1
    assert sum(t.plays.count() for t in deal.tricks.all()) == 1


@db
def test_the_key_may_come_in_a_header(deal, judge):
    c, k = as_user(judge), key()
    for _ in range(2):
        response = c.post(
            reverse("deal-play", args=[deal.pk]),
            {"cards": "SA", "version": 0},
            HTTP_X_IDEMPOTENCY_KEY=k,
            **JSON,
        )
        assert response.status_code == 200
    assert deal.tricks.get().plays.count() == 1


@db
def test_a_retry_after_another_write_gets_its_own_answer_with_the_current_state(deal, judge, director):
    c, k = as_user(judge), key()
    act(c, deal, "play", cards="SA", version=0, idempotency_key=k)
    act(as_user(director), deal, "play", cards="S2", version=1)
    again = act(c, deal, "play", cards="SA", version=0, idempotency_key=k)
    assert again.status_code == 200 and again.json()["ok"] is True
    assert again.json()["state"]["deal"]["version"] == 2
    assert deal.tricks.get().plays.count() == 2


@db
def test_a_refused_write_is_refused_again_on_retry_and_a_new_key_writes(deal, judge):
    c, k = as_user(judge), key()
    act(c, deal, "play", cards="SA SA", version=0)
    refused = act(c, deal, "play", cards="S3", version=1, idempotency_key=k)
    assert refused.status_code == 422
    assert act(c, deal, "play", cards="S3", version=1, idempotency_key=k).json()["error"] == "illegal"
    assert act(c, deal, "play", cards="S3 S4", version=1, idempotency_key=key()).status_code == 200


@db
def test_the_same_key_from_another_user_is_not_answered_with_the_first_users_result(deal, judge, director):
    k = key()
    assert act(as_user(judge), deal, "play", cards="SA", version=0, idempotency_key=k).status_code == 200
    other = act(as_user(director), deal, "play", cards="S2", version=1, idempotency_key=k)
    assert other.status_code == 200
    assert [p.cards for p in deal.tricks.get().plays.order_by("order")] == ["SA", "S2"]


@db
def test_a_key_used_for_another_write_is_refused(deal, judge):
    c, k = as_user(judge), key()
    act(c, deal, "play", cards="SA", version=0, idempotency_key=k)
    response = act(c, deal, "undo", version=1, idempotency_key=k)
    assert response.status_code == 400
    assert deal.tricks.get().plays.count() == 1


@db
def test_a_malformed_key_is_refused_without_writing(deal, judge):
    response = act(as_user(judge), deal, "play", cards="SA", version=0, idempotency_key="x" * 300)
    assert response.status_code == 400
    assert not deal.tricks.exists()


def setup_play(match, judge, director):
    return deal_entry.start_deal(match, judge, trump="S", declarer="N"), judge, {"cards": "SA"}


def setup_undo(match, judge, director):
    deal = deal_entry.start_deal(match, judge, trump="S", declarer="N")
    record_play(deal, judge, cards="SA", version=0)
    return deal, judge, {}


def setup_kitty(match, judge, director):
    return (
        deal_entry.start_deal(match, judge, trump="S", declarer="N"),
        judge,
        {"kitty": "S5 SK H9 D3 D3 C4 C7 CQ"},
    )


def setup_penalty(match, judge, director):
    return (
        deal_entry.start_deal(match, judge, trump="S", declarer="N"),
        judge,
        {"seat": "E", "code": "signal"},
    )


def setup_remove_penalty(match, judge, director):
    deal = deal_entry.start_deal(match, judge, trump="S", declarer="N")
    penalty = corrections.add_penalty(deal, judge, seat="E", code="signal", version=0)
    return deal, judge, {"penalty": penalty.pk}


def reopened(match, director) -> Deal:
    deal = confirmed_deal(match, director)
    corrections.reopen_deal(deal, director, version=deal.version, reason="a correction")
    deal.refresh_from_db()
    return deal


def setup_submit(match, judge, director):
    return reopened(match, director), judge, {}


def setup_confirm(match, judge, director):
    deal = reopened(match, director)
    deal_entry.submit_deal(deal, judge, version=deal.version)
    return deal, director, {}


def setup_reopen(match, judge, director):
    return confirmed_deal(match, director), director, {"reason": "check"}


DEAL_WRITES = {
    "play": setup_play,
    "undo": setup_undo,
    "undo_trick": setup_undo,
    "kitty": setup_kitty,
    "penalty": setup_penalty,
    "remove_penalty": setup_remove_penalty,
    "submit": setup_submit,
    "confirm": setup_confirm,
    "reopen": setup_reopen,
}


@db
@pytest.mark.parametrize("action", list(DEAL_WRITES))
def test_every_deal_action_posted_twice_with_one_key_changes_the_deal_once(match, judge, director, action):
    deal, user, fields = DEAL_WRITES[action](match, judge, director)
    deal.refresh_from_db()
    before = deal.version
    c, k = as_user(user), key()
    fields = {**fields, "version": before, "idempotency_key": k}
    first = c.post(deal_url(deal.pk, action), fields, **JSON)
    again = c.post(deal_url(deal.pk, action), fields, **JSON)
    assert first.status_code == 200, first.json()
    assert again.status_code == 200 and again.json()["ok"] is True
    deal.refresh_from_db()
    assert deal.version == before + 1


@db
def test_a_form_post_retried_redirects_as_the_first_did_with_no_conflict(deal, judge, make_judge):
    """The review page's forms (no script): a double submit shows "saved" again, never the stale refusal."""
    c, k = as_user(judge), key()
    fields = {"seat": "E", "code": "signal", "version": 0, "next": "review", "idempotency_key": k}
    url = reverse("deal-penalty", args=[deal.pk])
    first, again = c.post(url, fields, follow=True), c.post(url, fields, follow=True)
    assert first.redirect_chain == again.redirect_chain
    for response in (first, again):
        assert [m.level_tag for m in response.context["messages"]] == ["success"]
    assert deal.penalties.count() == 1


# ------------------------------------------------------------------ match actions, new deal, quick entry


@db
def test_a_forfeit_posted_twice_with_one_key_is_recorded_once(match, director):
    c, k = as_user(director), key()
    url = reverse("match-forfeit", args=[match.pk])
    for _ in range(2):
        assert c.post(url, {"side": "EW", "idempotency_key": k}).status_code == 302
    match.refresh_from_db()
    assert (
        match.version == 1 and match.history.filter(forfeited_by="EW").count() == 2
    )  # the forfeit, its recompute


@db
def test_calling_time_twice_with_one_key_says_saved_both_times(match, judge):
    match.round.tournament.match_time_limit = 1
    match.round.tournament.save()
    match.started_at = timezone.now() - timedelta(minutes=5)
    match.save()
    c, k = as_user(judge), key()
    url = reverse("match-call-time", args=[match.pk])
    for _ in range(2):
        response = c.post(url, {"idempotency_key": k}, follow=True)
        assert [m.level_tag for m in response.context["messages"]] == ["success"]
    match.refresh_from_db()
    assert match.state == Match.State.FINISHED and match.version == 1


@db
def test_a_new_deal_posted_twice_with_one_key_starts_one_deal(match, judge):
    c, k = as_user(judge), key()
    url = reverse("new_deal", args=[match.pk])
    fields = {"trump": "H", "declarer": "E", "next_deal": 1, "idempotency_key": k}
    first, again = c.post(url, fields), c.post(url, fields)
    assert first.status_code == again.status_code == 302
    assert first["Location"] == again["Location"]
    assert match.deals.count() == 1


@db
def test_a_new_deal_form_shown_before_another_deal_was_entered_is_refused(match, judge, director):
    c = as_user(judge)
    url = reverse("new_deal", args=[match.pk])
    confirmed_deal(match, director)  # deal 1 came in after the form was shown for deal 1
    response = c.post(url, {"trump": "H", "next_deal": 1, "idempotency_key": key()})
    assert response.status_code == 200
    assert match.deals.count() == 1


@db
def test_quick_entry_posted_twice_with_one_key_makes_one_deal(match, judge):
    allow_quick(match)
    c, fields = as_user(judge), quick_fields(match, idempotency_key=key())
    url = reverse("quick_entry", args=[match.pk])
    first, again = c.post(url, fields), c.post(url, fields)
    assert first.status_code == again.status_code == 302
    assert match.deals.count() == 1


@db
def test_quick_entry_of_one_form_under_two_keys_makes_one_deal(match, judge):
    allow_quick(match)
    c, fields = as_user(judge), quick_fields(match)
    url = reverse("quick_entry", args=[match.pk])
    assert c.post(url, {**fields, "idempotency_key": key()}).status_code == 302
    second = c.post(url, {**fields, "idempotency_key": key()})
    assert second.status_code == 200  # the form again, saying the match has a new deal
    assert match.deals.count() == 1
    assert 'name="next_deal" value="2"' in second.content.decode()


@db
def test_quick_entry_needs_the_deal_number_the_form_was_shown_for(match, judge):
    allow_quick(match)
    fields = quick_fields(match)
    del fields["next_deal"]
    assert as_user(judge).post(reverse("quick_entry", args=[match.pk]), fields).status_code == 200
    assert not match.deals.exists()


@db
def test_the_service_refuses_a_quick_entry_for_a_deal_number_already_taken(match, judge):
    allow_quick(match)
    entry = {
        "trump": "S",
        "points": 85,
        "kitty_points": 0,
        "last_lead": "single",
        "attackers_won_last": False,
    }
    quick.quick_entry(match, judge, declarer="N", next_deal=1, **entry)
    with pytest.raises(RecordingError):
        quick.quick_entry(match, judge, next_deal=1, **entry)
    assert match.deals.count() == 1


@db
def test_every_write_form_carries_a_fresh_key(match, judge, director):
    allow_quick(match)
    # The new-deal form first: it is offered only while no deal is open.
    new_deal = reverse("new_deal", args=[match.pk])
    forms = write_forms(as_user(judge).get(new_deal).content.decode())
    assert forms and all('name="idempotency_key"' in form for form in forms), new_deal
    again = as_user(judge).get(new_deal).content.decode()
    assert key_in(again) != key_in(as_user(judge).get(new_deal).content.decode())
    deal = reopened(match, director)
    pages = [
        (judge, reverse("quick_entry", args=[match.pk])),
        (judge, reverse("review", args=[deal.pk])),
        (director, reverse("match", args=[match.pk])),
    ]
    for user, url in pages:
        forms = write_forms(as_user(user).get(url).content.decode())
        assert forms and all('name="idempotency_key"' in form for form in forms), url


def write_forms(html: str) -> list[str]:
    """The page's posting forms, but the header's (log out, language)."""
    forms = [part.split("</form>", 1)[0] for part in html.split('<form method="post"')[1:]]
    return [f for f in forms if "/logout/" not in f and "/i18n/" not in f]


def key_in(html: str) -> str:
    return html.split('name="idempotency_key" value="', 1)[1].split('"', 1)[0]


@db
def test_old_receipts_are_pruned(deal, judge, monkeypatch):
    monkeypatch.setattr(receipts, "PRUNE_EVERY", 1)
    old = WriteReceipt.objects.create(user=judge, key=key(), target="x", status=200, answer={"ok": True})
    WriteReceipt.objects.filter(pk=old.pk).update(created=timezone.now() - timedelta(days=2))
    act(as_user(judge), deal, "play", cards="SA", version=0, idempotency_key=key())
    assert not WriteReceipt.objects.filter(pk=old.pk).exists()
    assert WriteReceipt.objects.count() == 1
