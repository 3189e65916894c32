"""A table's write racing the desk's on PostgreSQL, each in a connection of its own. The desk holds the locks of
every match it is about to change (a finish, a round back to draft) and the table's write waits for its match's
lock; once it has it, it must see what the desk committed meanwhile. (SQLite runs one write transaction at a
time, so there the table's write simply begins after the desk's: the in-memory test database cannot show it.)"""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections

from referee.recording import deal_entry
from referee.recording.errors import DraftRound, Finished
from tests.desk.helpers import deal, finish
from tournaments import finishing, pairing
from tournaments.models import Deal, Round

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor == "sqlite", reason="row locks between connections: PostgreSQL"),
]

WAIT = 10.0  # seconds an event may take to come; only reached when something is broken


def in_thread(work) -> tuple[threading.Thread, list]:
    """``work`` in a thread with a database connection of its own; its result or its exception in the list."""
    outcome: list = []

    def run():
        try:
            outcome.append(work())
        except Exception as exc:  # the test reads it
            outcome.append(exc)
        finally:
            connections.close_all()

    thread = threading.Thread(target=run)
    thread.start()
    return thread, outcome


def paused(monkeypatch, module, name: str) -> tuple[threading.Event, threading.Event]:
    """``module.name`` waits, once called, until the test lets it go on: the desk's write holds its locks."""
    inside, proceed = threading.Event(), threading.Event()
    original = getattr(module, name)

    def waiting(*args, **kwargs):
        inside.set()
        assert proceed.wait(WAIT)
        return original(*args, **kwargs)

    monkeypatch.setattr(module, name, waiting)
    return inside, proceed


def race(monkeypatch, module, name: str, desk, table) -> object:
    """The desk's write paused holding its locks, the table's write started (it must wait), then the desk's
    committed: what the table's write ended with."""
    inside, proceed = paused(monkeypatch, module, name)
    desk_thread, desk_outcome = in_thread(desk)
    assert inside.wait(WAIT)
    table_thread, table_outcome = in_thread(table)
    table_thread.join(0.5)
    assert table_thread.is_alive(), table_outcome  # waiting for its match's lock
    proceed.set()
    desk_thread.join(WAIT), table_thread.join(WAIT)
    assert len(desk_outcome) == 1 and not isinstance(desk_outcome[0], Exception), desk_outcome
    assert len(table_outcome) == 1, "the table's write never ended"
    return table_outcome[0]


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
        lambda: deal_entry.reopen_deal(confirmed, director, version=None),
    )
    assert isinstance(result, Finished), result
    confirmed.refresh_from_db()
    assert confirmed.state == Deal.State.CONFIRMED
