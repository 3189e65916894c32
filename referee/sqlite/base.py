"""Django's SQLite backend, with writers queued at a gate instead of on SQLite's busy timeout.

SQLite lets one writer in at a time; the others poll, sleeping 1, 2, 5, … up to 100 ms between tries. Under a
busy hall the lock is free long before a sleeper wakes, and the server idles with every judge waiting. Here a
write transaction (``BEGIN IMMEDIATE``) first takes a gate — a lock between this process's threads, then an
``flock`` on ``<database>.gate`` between the server's processes — and gives it back at commit or rollback. A
waiting writer blocks in the kernel and is woken the moment the gate is free; SQLite itself never sees two
writers. Reads (WAL) and read-only transactions (``DEFERRED``) pass by the gate. An in-memory database (the
tests) has no file to share, so it has no gate.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from django.db import transaction
from django.db.backends.sqlite3 import base

try:  # Linux and macOS; on Windows the server (waitress) is one process, where the thread lock is the gate
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]  # no module here: the thread lock alone is the gate

_gates: dict[str, Gate] = {}
_gates_lock = threading.Lock()


class Gate:
    """One writer at a time on one database file, across threads and processes."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.threads = threading.Lock()
        self.fd: int | None = None

    def acquire(self) -> None:
        self.threads.acquire()
        try:
            if fcntl is not None:
                if self.fd is None:
                    self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
                fcntl.flock(self.fd, fcntl.LOCK_EX)
        except BaseException:
            self.threads.release()
            raise

    def release(self) -> None:
        try:
            if fcntl is not None and self.fd is not None:
                fcntl.flock(self.fd, fcntl.LOCK_UN)
        finally:
            self.threads.release()


def gate_for(database: str) -> Gate:
    """The process's one gate for ``database`` (a file path)."""
    path = os.path.abspath(os.fspath(database)) + ".gate"
    with _gates_lock:
        if path not in _gates:
            _gates[path] = Gate(path)
        return _gates[path]


class DatabaseWrapper(base.DatabaseWrapper):
    """SQLite, with each write transaction taken through the database's gate (see the module's docstring)."""

    transaction_mode: str | None  # Django's: the mode the settings give, read when it connects

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.holding: Gate | None = None

    @contextmanager
    def read_transaction(self) -> Iterator[None]:
        """A transaction that only reads: ``BEGIN DEFERRED`` whatever mode the settings give (``IMMEDIATE``), so it
        takes no write lock and passes by the gate; in WAL mode its first read fixes the state it sees. Django
        reads the mode once, when it connects, into ``transaction_mode``, and offers no way to begin one
        transaction otherwise: so it is set here, for this one ``BEGIN``, and put back."""
        self.ensure_connection()  # connecting reads the configured mode: connect before changing it
        mode, self.transaction_mode = self.transaction_mode, "DEFERRED"
        try:
            with transaction.atomic(using=self.alias):
                self.transaction_mode = mode
                yield
        finally:
            self.transaction_mode = mode

    def gate(self) -> Gate | None:
        if self.transaction_mode not in ("IMMEDIATE", "EXCLUSIVE") or self.is_in_memory_db():
            return None
        return gate_for(self.settings_dict["NAME"])

    def _start_transaction_under_autocommit(self) -> None:
        gate = self.gate()
        if gate is not None:
            gate.acquire()
            self.holding = gate
        try:
            super()._start_transaction_under_autocommit()  # type: ignore[misc]  # private: django-stubs omits it (docs/decisions/0002)
        except BaseException:
            self.leave_gate()
            raise

    def leave_gate(self) -> None:
        gate, self.holding = self.holding, None
        if gate is not None:
            gate.release()

    def _commit(self) -> None:
        try:
            super()._commit()  # type: ignore[misc]  # private: django-stubs omits it (docs/decisions/0002)
        finally:
            self.leave_gate()

    def _rollback(self) -> None:
        try:
            super()._rollback()  # type: ignore[misc]  # private: django-stubs omits it (docs/decisions/0002)
        finally:
            self.leave_gate()

    def _close(self) -> None:
        try:
            super()._close()  # type: ignore[misc]  # private: django-stubs omits it (docs/decisions/0002)
        finally:
            self.leave_gate()
