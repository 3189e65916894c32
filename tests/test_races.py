"""Two writes racing on PostgreSQL, each in a connection of its own: the first holds the locks it took (the desk
holds the tournament's, and a finish or a round going back to draft every match's), the second waits for one of
them and, once it has it, must see what the first committed meanwhile. (SQLite runs one write transaction at a
time, so there the second simply begins after the first: the in-memory test database cannot show it.)"""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from referee.table.recording import deal_entry
from tests.desk.helpers import deal, finish, swiss_stage
from tests.threads import in_thread, until
from tournaments.checkin.forfeits import publish_round
from tournaments.competition import finishing
from tournaments.models import Deal, Match, Pair, Round
from tournaments.pairing import advance
from tournaments.pairing import services as pairing
from tournaments.people import pairs as people_pairs
from tournaments.people.errors import PeopleError
from tournaments.people.pairs import delete_pair
from tournaments.scoring import corrections
from tournaments.scoring.errors import DraftRound, Finished

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor == "sqlite", reason="row locks between connections: PostgreSQL"),
]

WAIT = 10.0  # seconds an event may take to come; only reached when something is broken


def backend_pid() -> int:
    """The PostgreSQL server process of this thread's connection."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]


def blocked_by(waiter: int, holder: int) -> bool:
    """Whether PostgreSQL has ``waiter``'s connection waiting for a lock that ``holder``'s holds."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT %s = ANY(pg_blocking_pids(%s))", [holder, waiter])
        return cursor.fetchone()[0]


def paused(monkeypatch, module, name: str) -> tuple[threading.Event, threading.Event, list[int]]:
    """``module.name`` waits, once called, until the test lets it go on: the desk's write holds its locks. The
    list gets the connection's server process, to see who waits for it."""
    inside, proceed, holder = threading.Event(), threading.Event(), []
    original = getattr(module, name)

    def waiting(*args, **kwargs):
        holder.append(backend_pid())
        inside.set()
        assert proceed.wait(WAIT)
        return original(*args, **kwargs)

    monkeypatch.setattr(module, name, waiting)
    return inside, proceed, holder


def race(monkeypatch, module, name: str, first, second) -> object:
    """``first`` paused at ``module.name``, holding its locks; ``second`` started, and seen by PostgreSQL waiting
    for a lock the first holds; then ``first`` let go on and committed: what ``second`` ended with."""
    inside, proceed, holder = paused(monkeypatch, module, name)
    first_thread, first_outcome = in_thread(first)
    assert inside.wait(WAIT)
    waiter, passed = [], threading.Event()

    def second_then_passed():
        waiter.append(backend_pid())  # just before the write that must wait
        try:
            return second()
        finally:
            passed.set()

    second_thread, second_outcome = in_thread(second_then_passed)
    until(
        lambda: bool(waiter) and blocked_by(waiter[0], holder[0]),
        "the second write waiting for the first",
        WAIT,
    )
    assert not passed.is_set(), second_outcome  # it cannot pass while the first holds the lock
    proceed.set()
    first_thread.join(WAIT), second_thread.join(WAIT)
    assert len(first_outcome) == 1 and not isinstance(first_outcome[0], Exception), first_outcome
    assert passed.is_set() and len(second_outcome) == 1, "the second write never ended"
    return second_outcome[0]


# --- a table's write and the desk's: the table's waits for its match's lock -----------------------------------


def test_a_deal_begun_while_its_round_goes_back_to_draft_is_refused(monkeypatch, match, judge):
    result = race(
        monkeypatch,
        pairing,
        "why_not_unpublish",
        lambda: pairing.unpublish_round(match.round),
        lambda: deal_entry.start_deal(match, judge, trump="S", declarer="N"),
    )
    assert isinstance(result, DraftRound), result
    assert Round.objects.get(pk=match.round_id).state == Round.State.DRAFT and not Deal.objects.exists()


def test_a_deal_reopened_while_the_tournament_is_finished_is_refused(monkeypatch, match, director):
    confirmed = deal(match, 1, "N", 40, "banker_holds", trump="H")
    finish(match, match.pair_ns)
    result = race(
        monkeypatch,
        finishing,
        "why_not_finish",
        lambda: finishing.finish_tournament(match.round.tournament, director),
        lambda: corrections.reopen_deal(confirmed, director, version=None, reason="a correction"),
    )
    assert isinstance(result, Finished), result
    confirmed.refresh_from_db()
    assert confirmed.state == Deal.State.CONFIRMED


# --- two desk writes: the second waits for the tournament's lock ----------------------------------------------


def test_a_pair_deleted_while_a_round_is_paired_is_refused_once_it_is_placed(
    monkeypatch, tournament, make_pair
):
    pairs = [make_pair() for _ in range(4)]
    result = race(
        monkeypatch,
        pairing,
        "_write_round",
        lambda: pairing.pair_round(tournament),
        lambda: delete_pair(pairs[0]),
    )
    assert isinstance(result, PeopleError) and result.status == 409, result
    assert Pair.objects.filter(pk=pairs[0].pk).exists()


def test_a_round_paired_while_a_pair_is_deleted_leaves_the_pair_out(monkeypatch, tournament, make_pair):
    pairs = [make_pair() for _ in range(5)]
    rnd = race(
        monkeypatch,
        people_pairs,
        "why_not_delete_pair",
        lambda: delete_pair(pairs[0]),
        lambda: pairing.pair_round(tournament),
    )
    assert not Pair.objects.filter(pk=pairs[0].pk).exists()
    placed = {pk for m in Match.objects.filter(round=rnd) for pk in (m.pair_ns_id, m.pair_ew_id)}
    assert placed == {p.pk for p in pairs[1:]} and not rnd.byes.exists()


def test_two_tables_finishing_at_once_pair_the_next_bracket_round_once(monkeypatch, make_pair):
    t = swiss_stage(make_pair, "race", pairs=8, rounds=2, size=4)
    semis = pairing.pair_round(t)
    publish_round(semis)
    for m in semis.matches.all():
        finish(m, m.pair_ns, "A", "5")
    both = lambda: advance.advance_bracket(semis.pk)  # noqa: E731  (each table's commit asks the same)
    result = race(monkeypatch, advance, "pair_round", both, both)
    assert result is None, result  # the second, once it had the lock, found the final paired by the first
    assert list(t.rounds.values_list("number", "state")) == [
        (1, "finished"),
        (2, "finished"),
        (3, "finished"),
        (4, "published"),
    ]
