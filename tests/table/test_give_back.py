"""The desk's side of the phones' give-back (docs/journal-protocol.md): every answer names the desk's identity,
entries sent again with their first keys after a restore are stored once, and a deal confirmed after the backup
waits for the two pairs' PINs again, saying why. A restore is stood in for by a savepoint rolled back (the
database as the backup held it) and ``identity.renew``."""

from __future__ import annotations

import pytest
from django.db import transaction
from django.urls import reverse

from referee.table.recording.deal_entry import confirm_deal, set_kitty, submit_deal
from tests.table.helpers import act, as_user, key, play_through_service, posted_plays, simulated
from tournaments.backup import identity
from tournaments.models import Deal, Play

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_identity():
    identity.forget()
    yield
    identity.forget()


def post_play(client, deal, fields: dict, version: int, k: str):
    url = reverse("deal-play", args=[deal.pk])
    return client.post(
        url, {**fields, "version": version, "idempotency_key": k}, HTTP_ACCEPT="application/json"
    )


def test_every_answer_names_the_desk_and_a_restore_gives_it_a_new_name(deal, judge):
    client = as_user(judge)
    fields = next(posted_plays(simulated(deal)))
    first = post_play(client, deal, fields, 0, key()).json()["state"]
    assert first["desk"] == identity.current() and first["deal"]["version"] == 1
    assert first["deal"]["match"] == deal.match_id
    identity.renew(restored_from="backup.sqlite3")
    again = client.get(reverse("deal_state", args=[deal.pk])).json()
    assert again["desk"] == identity.current() != first["desk"]


def test_plays_sent_again_with_their_first_keys_after_a_restore_are_stored_once_and_judged_the_same(
    deal, judge
):
    client = as_user(judge)
    sent = [(fields, key()) for fields in list(posted_plays(simulated(deal)))[:6]]
    backup = transaction.savepoint()
    answers = [post_play(client, deal, fields, v, k).json() for v, (fields, k) in enumerate(sent)]
    assert all(a["ok"] for a in answers)
    transaction.savepoint_rollback(backup)  # the desk restored from a backup holding none of them
    identity.renew(restored_from="backup.sqlite3")
    for _round in range(2):  # the give-back, then the same give-back again (a lost answer): never twice
        again = [post_play(client, deal, fields, v, k).json() for v, (fields, k) in enumerate(sent)]
        assert [a["ok"] for a in again] == [True] * 6
        assert Play.objects.filter(trick__deal=deal).count() == 6
    assert again[-1]["state"]["tricks"] == answers[-1]["state"]["tricks"]
    assert again[-1]["state"]["violations"] == answers[-1]["state"]["violations"]


def test_a_play_given_back_never_overwrites_what_another_device_stored_since(deal, judge):
    client = as_user(judge)
    plays = list(posted_plays(simulated(deal)))
    mine = post_play(client, deal, plays[0], 0, key()).json()
    assert mine["ok"]
    other = post_play(as_user(judge), deal, plays[1], 1, key()).json()  # another device, the next play
    assert other["ok"]
    late = post_play(client, deal, plays[1], 1, key()).json()  # this phone's copy of it, made on version 1
    assert late["error"] == "stale" and Play.objects.filter(trick__deal=deal).count() == 2


@pytest.fixture
def played_deal(deal, judge):
    """The deal's every trick played at the table: the kitty, the submit and the PINs come next."""
    record = simulated(deal)
    play_through_service(deal, judge, record)
    deal.refresh_from_db()
    deal.record = record
    return deal


def test_a_deal_confirmed_after_the_backup_waits_for_the_pins_again_and_the_page_says_why(
    played_deal, judge, director
):
    client = as_user(judge)
    backup = transaction.savepoint()  # the backup: every trick played, no kitty yet
    kitty = {"kitty": played_deal.record["kitty"], "version": played_deal.version, "idempotency_key": key()}
    assert act(client, played_deal, "kitty", **kitty).json()["ok"]
    deal = submit_deal(played_deal, judge, version=played_deal.version + 1)
    confirm_deal(deal, director, version=deal.version)
    seen_by_phone = identity.current()
    transaction.savepoint_rollback(backup)
    identity.renew(restored_from="backup.sqlite3")
    assert act(client, played_deal, "kitty", **kitty).json()["ok"]  # given back with its first key
    fields = {"identity": seen_by_phone, "seen": "confirmed", "version": played_deal.version + 1}
    answer = act(client, played_deal, "given_back", idempotency_key=key(), **fields).json()
    assert answer["ok"] and answer["state"]["deal"]["state"] == Deal.State.SUBMITTED
    assert "再次输入" in answer["state"]["deal"]["confirm_again"]
    review = client.get(reverse("review", args=[played_deal.pk])).content.decode()
    assert answer["state"]["deal"]["confirm_again"] in review
    assert list(identity.waiting_again(Deal.objects.all())) == [played_deal]


def test_a_give_back_of_a_deal_the_desk_holds_confirmed_changes_nothing(played_deal, judge, director):
    played_deal = set_kitty(played_deal, judge, played_deal.record["kitty"], version=played_deal.version)
    played_deal = submit_deal(played_deal, judge, version=played_deal.version)
    confirm_deal(played_deal, director, version=played_deal.version)
    played_deal.refresh_from_db()
    fields = {"identity": "0" * 16, "seen": "confirmed", "version": played_deal.version}
    answer = act(as_user(judge), played_deal, "given_back", idempotency_key=key(), **fields).json()
    assert answer["ok"] and answer["state"]["deal"]["confirm_again"] == ""
    assert not identity.waiting_again(Deal.objects.all()).exists()


@pytest.mark.parametrize("fields", [{}, {"identity": "x" * 40}, {"identity": "abc", "seen": "lost"}])
def test_a_malformed_give_back_is_refused_in_one_sentence(deal, judge, fields):
    answer = act(as_user(judge), deal, "given_back", version=deal.version, **fields)
    assert answer.status_code == 400 and answer.json()["message"]


def test_a_desk_without_an_identity_makes_it_before_the_states_read_where_a_write_would_be_refused(
    deal, judge, monkeypatch
):
    """On SQLite a write inside the poll's read-only snapshot fails ("database is locked") when another client
    wrote since the snapshot began; the first poll of a desk that has no identity yet must make it before."""
    from referee.table.screens import deal_state as screen
    from tournaments.backup.models import DeskIdentity

    DeskIdentity.objects.all().delete()
    identity.forget()
    real = screen.consistent_read
    seen_at_entry: list[int] = []

    def watched():
        seen_at_entry.append(DeskIdentity.objects.count())
        return real()

    monkeypatch.setattr(screen, "consistent_read", watched)
    response = as_user(judge).get(reverse("deal_state", args=[deal.pk]))
    assert response.status_code == 200
    assert seen_at_entry == [1]
    assert response.json()["desk"] == DeskIdentity.objects.get().key
