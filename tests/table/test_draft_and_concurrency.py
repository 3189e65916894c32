"""Writes that survive each other and the draft: draft rounds taking no entries, a deal's state read whole while
another client plays and undoes, concurrent quick entries and penalties stored once.

The threaded tests run on a SQLite file set up as in production (WAL, IMMEDIATE writes): the in-memory test
database shares one cache between threads and refuses them with table locks instead of queueing them.
"""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connections
from django.urls import reverse

from referee.table.recording import deal_entry, quick
from referee.table.screens.deal_state import deal_state
from tests.table.helpers import (
    act,
    allow_quick,
    as_user,
    key,
    quick_fields,
    record_play,
)
from tournaments.competition.access import JUDGE_GROUP, add_to_group
from tournaments.competition.accounts import seat_table
from tournaments.models import Deal, Match, Round, Tournament, Trick
from tournaments.scoring.errors import DraftRound

db = pytest.mark.django_db


# ------------------------------------------------------------------ draft rounds take no entries


@pytest.fixture
def draft(match):
    Round.objects.filter(pk=match.round_id).update(state=Round.State.DRAFT)
    match.round.refresh_from_db()
    return match


@db
def test_a_draft_round_takes_no_deal(draft, judge, director):
    for user in (judge, director):
        with pytest.raises(DraftRound):
            deal_entry.start_deal(draft, user, trump="S", declarer="N")
    response = as_user(director).post(
        reverse("new_deal", args=[draft.pk]), {"trump": "S", "declarer": "N", "next_deal": 1}
    )
    assert response.status_code == 403
    assert "draft" in response.content.decode() or "草稿" in response.content.decode()
    assert as_user(judge).get(reverse("new_deal", args=[draft.pk])).status_code == 404
    assert not draft.deals.exists()


@db
def test_a_draft_round_takes_no_play_and_no_quick_entry(match, judge, director):
    allow_quick(match)
    deal = deal_entry.start_deal(match, judge, trump="S", declarer="N")
    Round.objects.filter(pk=match.round_id).update(state=Round.State.DRAFT)
    deal = Deal.objects.select_related("match__round__tournament").get(pk=deal.pk)
    with pytest.raises(DraftRound):
        record_play(deal, director, cards="SA", version=0)
    response = act(as_user(director), deal, "play", cards="SA", version=0)
    assert 400 <= response.status_code < 500 and response.json()["error"] == "draft"
    with pytest.raises(DraftRound):
        quick.quick_entry(
            deal.match,
            director,
            trump="S",
            points=0,
            kitty_points=0,
            last_lead="single",
            attackers_won_last=False,
            next_deal=2,
        )
    assert not deal.tricks.exists() and deal.match.deals.count() == 1


@db
def test_a_judges_home_page_lists_no_draft_table(client, draft, judge, round1, make_pair):
    other_round = Round.objects.create(tournament=round1.tournament, number=2, state=Round.State.PUBLISHED)
    published = Match.objects.create(
        round=other_round, table=3, pair_ns=make_pair(), pair_ew=make_pair(), judge=judge
    )
    client.force_login(judge)
    listed = list(client.get(reverse("home")).context["my_matches"])
    assert listed == [published]


@db
def test_a_captains_home_page_lists_the_pairs_published_open_matches(client, draft, round1, make_pair):
    from tournaments.people.accounts import give_captain_account

    pair = draft.pair_ew  # its draft table is not listed
    captain, _password = give_captain_account(pair, "cap")
    other_round = Round.objects.create(tournament=round1.tournament, number=2, state=Round.State.PUBLISHED)
    published = Match.objects.create(round=other_round, table=3, pair_ns=make_pair(), pair_ew=pair)
    Match.objects.create(round=other_round, table=4, pair_ns=make_pair(), pair_ew=make_pair())  # not its pair
    client.force_login(captain)
    listed = list(client.get(reverse("home")).context["my_matches"])
    assert listed == [published]


# ------------------------------------------------------------------ one read of the deal's state


@db
def test_a_trick_without_plays_reads_without_error(deal, judge):
    record_play(deal, judge, cards="SA", version=0)
    for seat, cards in (("W", "S5"), ("S", "S3"), ("E", "S4")):
        deal.refresh_from_db()
        record_play(deal, judge, cards=cards, seat=seat, version=deal.version)
    Trick.objects.create(deal=deal, number=1)  # left behind without its lead
    deal.refresh_from_db()
    state = deal_state(deal, judge)
    assert state["next_seat"] == "N"  # the first trick's winner leads
    assert state["order"][0] == "N"
    record_play(deal, judge, cards="SK", seat="N", version=deal.version)
    assert [t.plays.count() for t in deal.tricks.order_by("number")] == [4, 1]


# ------------------------------------------------------------------ concurrent clients on a production-like database


def table(quick_entry: bool = False):
    """A judge and a match of a published round, straight through the models."""
    judge = get_user_model().objects.create_user("judge", password="judge-pass-1")
    add_to_group(judge, JUDGE_GROUP)
    t = Tournament.objects.create(name="t", slug="t", quick_entry_allowed=quick_entry)
    rnd = Round.objects.create(tournament=t, number=1, state=Round.State.PUBLISHED)
    return judge, seat_table(rnd, 1, judge, ("p0", "p1"))


def in_threads(n: int, work) -> list:
    """Run ``work(i)`` in ``n`` threads started together; each closes its own connection."""
    barrier, results = threading.Barrier(n), [None] * n

    def run(i):
        try:
            barrier.wait()
            results[i] = work(i)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    return results


@pytest.mark.parametrize("same_key", [True, False])
def test_eight_concurrent_quick_entries_make_one_deal(file_db, same_key):
    judge, match = table(quick_entry=True)
    shared = key()
    clients = [as_user(judge, raise_request_exception=False) for _ in range(8)]
    url = reverse("quick_entry", args=[match.pk])

    def post(i):
        fields = quick_fields(match, idempotency_key=shared if same_key else key())
        return clients[i].post(url, fields).status_code

    statuses = in_threads(8, post)
    assert Deal.objects.filter(match=match).count() == 1
    assert 500 not in statuses
    assert statuses.count(302) == (8 if same_key else 1)


def test_polling_the_state_while_another_client_plays_and_undoes_never_fails(file_db):
    judge, match = table()
    deal = deal_entry.start_deal(match, judge, trump="S", declarer="N")
    writer = as_user(judge, raise_request_exception=False)
    reader = as_user(judge, raise_request_exception=False)
    done = threading.Event()

    def work(i):
        if i == 0:
            statuses, version = [], 0
            for _ in range(40):
                for action, fields in (("play", {"cards": "SA"}), ("undo", {})):
                    response = act(writer, deal, action, version=version, **fields)
                    statuses.append(response.status_code)
                    version = response.json()["state"]["deal"]["version"]
            done.set()
            return statuses
        statuses = []
        while not done.is_set() or not statuses:
            statuses.append(reader.get(reverse("deal_state", args=[deal.pk])).status_code)
            if len(statuses) >= 2000:
                break
        return statuses

    writes, reads = in_threads(2, work)
    assert set(writes) == {200}
    assert len(reads) > 10 and set(reads) == {200}


def test_two_people_applying_one_penalty_at_once_record_it_once(file_db):
    """The judge and the director press "apply" for the same revoke at the same moment (each page with its own
    key and the same version): both are told it is applied, and one penalty is recorded."""
    from tournaments.competition.accounts import create_director
    from tournaments.models import Penalty
    from tournaments.scoring.settlement import read_settlement

    judge, match = table()
    director = create_director("td", "director-pass-1")
    deal = deal_entry.start_deal(match, judge, trump="H", declarer="N")
    for version, cards in enumerate(["S3", "C4", "S5", "S6", "DA", "D3", "D4", "D5", "S7", "S8", "S9"]):
        record_play(deal, judge, cards=cards, version=version)  # W revokes in trick 1
    clients = [
        as_user(judge, raise_request_exception=False),
        as_user(director, raise_request_exception=False),
    ]

    def apply(i):
        response = act(
            clients[i], deal, "apply", version=11, violation="0:W:revoke_suit", idempotency_key=key()
        )
        return response.status_code, response.json()["ok"]

    assert in_threads(2, apply) == [(200, True), (200, True)]
    assert Penalty.objects.filter(deal=deal).count() == 1
    deal.refresh_from_db()
    assert deal.version == 12  # one write
    assert read_settlement(deal).status("0:W:revoke_suit") == "penalty"
