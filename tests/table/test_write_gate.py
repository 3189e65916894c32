"""The SQLite write gate (``referee/sqlite``): writers queue at it — the server's threads and its other processes —
readers pass it by, and it is given back however a write transaction ends."""

from __future__ import annotations

import fcntl
import os
import threading

import pytest
from django.db import connection, transaction

from referee.sqlite import base
from referee.sqlite.base import gate_for
from referee.table.recording.consistent import consistent_read
from tests.threads import in_thread
from tournaments.models import Tournament

WAIT = 5.0  # seconds an event may take to come; only reached when the gate is broken


def gate_file() -> str:
    return gate_for(connection.settings_dict["NAME"]).path


class OtherProcess:
    """The gate held as another server process holds it: an ``flock`` through a file description of its own."""

    def __enter__(self):
        self.fd = os.open(gate_file(), os.O_RDWR | os.O_CREAT, 0o600)
        fcntl.flock(self.fd, fcntl.LOCK_EX)
        return self

    def __exit__(self, *exc) -> None:
        fcntl.flock(self.fd, fcntl.LOCK_UN)
        os.close(self.fd)


def gate_is_free() -> bool:
    """Whether another process could take the gate now (without waiting)."""
    fd = os.open(gate_file(), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    finally:
        os.close(fd)  # closing the description gives back a lock it took
    return True


def write(slug: str) -> str:
    with transaction.atomic():
        Tournament.objects.create(name=slug, slug=slug)
    return slug


class Watched:
    """What a writer does at the gate, seen without timing it: ``waiting`` is set when its acquire finds the gate
    taken (and then blocks), ``passed`` once it holds the gate. It stands in for the gate's thread lock, or, as
    ``fcntl`` in the backend's module, for the ``flock`` between processes."""

    def __init__(self, lock=None) -> None:
        self.lock = lock
        self.waiting, self.passed = threading.Event(), threading.Event()

    def acquire(self) -> None:
        if not self.lock.acquire(blocking=False):
            self.waiting.set()
            self.lock.acquire()
        self.passed.set()

    def release(self) -> None:
        self.lock.release()

    def flock(self, fd: int, operation: int) -> None:
        if operation != fcntl.LOCK_EX:
            return fcntl.flock(fd, operation)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self.waiting.set()
            fcntl.flock(fd, fcntl.LOCK_EX)
        self.passed.set()

    def __getattr__(self, name: str):
        return getattr(fcntl, name)  # the rest of ``fcntl``, as the backend reads it


def test_a_second_writer_waits_at_the_gate_until_the_first_commits(file_db, monkeypatch):
    inside, proceed, order = threading.Event(), threading.Event(), []

    def first():
        with transaction.atomic():
            Tournament.objects.create(name="first", slug="first")
            inside.set()
            proceed.wait(WAIT)
            order.append("first commits")
        return "first"

    a, _ = in_thread(first)
    assert inside.wait(WAIT)
    gate = gate_for(connection.settings_dict["NAME"])
    second = Watched(gate.threads)  # watched from here on: the first already holds the gate
    monkeypatch.setattr(gate, "threads", second)
    b, done = in_thread(lambda: order.append(write("second")) or "second")
    assert second.waiting.wait(WAIT)  # it found the gate taken and blocks on it
    assert not second.passed.is_set() and order == []  # queued at the gate, not failing nor writing
    proceed.set()
    a.join(WAIT), b.join(WAIT)
    assert second.passed.is_set() and order == ["first commits", "second"] and done == ["second"]
    assert set(Tournament.objects.values_list("slug", flat=True)) == {"first", "second"}


def test_a_writer_waits_while_another_process_holds_the_gate_and_goes_on_when_it_is_free(
    file_db, monkeypatch
):
    writer = Watched()
    monkeypatch.setattr(base, "fcntl", writer)
    with OtherProcess():
        thread, done = in_thread(lambda: write("after"))
        assert writer.waiting.wait(WAIT)  # it found the other process's lock and blocks on it
        assert not writer.passed.is_set() and not Tournament.objects.filter(slug="after").exists()
    thread.join(WAIT)
    assert writer.passed.is_set() and done == ["after"] and Tournament.objects.filter(slug="after").exists()


def test_readers_pass_by_the_gate_while_a_writer_holds_it(file_db):
    write("seen")
    with OtherProcess():
        reader, done = in_thread(lambda: list(Tournament.objects.values_list("slug", flat=True)))
        reader.join(WAIT)
        assert done == [["seen"]]

        def consistent():
            with consistent_read():
                return Tournament.objects.count()

        reader, done = in_thread(consistent)
        reader.join(WAIT)
        assert done == [1]


def test_a_read_transaction_begins_deferred_past_the_gate_and_puts_the_configured_mode_back(file_db):
    """``read_transaction`` is the backend's one change of Django's transaction mode: one ``BEGIN DEFERRED``."""
    connection.ensure_connection()
    assert connection.transaction_mode == "IMMEDIATE"
    with connection.read_transaction():
        assert connection.in_atomic_block and gate_is_free()  # a reader holds no gate
        assert Tournament.objects.count() == 0
    assert connection.transaction_mode == "IMMEDIATE"
    with pytest.raises(ZeroDivisionError), connection.read_transaction():
        1 / 0  # noqa: B018 - a read that fails half-way
    assert connection.transaction_mode == "IMMEDIATE" and gate_is_free()
    with transaction.atomic():
        Tournament.objects.create(name="c", slug="c")
        assert not gate_is_free()  # a write after it takes the gate again


def test_the_gate_is_held_for_a_write_transaction_and_given_back_at_commit_and_rollback(file_db):
    with transaction.atomic():
        Tournament.objects.create(name="a", slug="a")
        assert not gate_is_free()
    assert gate_is_free()
    with pytest.raises(ZeroDivisionError), transaction.atomic():
        Tournament.objects.create(name="b", slug="b")
        1 / 0  # noqa: B018 - a write that fails half-way
    assert gate_is_free()
    assert list(Tournament.objects.values_list("slug", flat=True)) == ["a"]


def test_a_transaction_that_fails_at_begin_gives_the_gate_back(file_db, monkeypatch):
    def broken_begin(self):
        raise RuntimeError("BEGIN failed")

    monkeypatch.setattr(
        "django.db.backends.sqlite3.base.DatabaseWrapper._start_transaction_under_autocommit", broken_begin
    )
    connection.ensure_connection()
    with pytest.raises(RuntimeError), transaction.atomic():
        pass
    assert connection.holding is None and gate_is_free()


@pytest.mark.django_db
def test_an_in_memory_database_has_no_gate():
    if connection.vendor != "sqlite":
        pytest.skip("the suite runs on PostgreSQL: no SQLite gate to look at")
    assert connection.is_in_memory_db() and connection.gate() is None
