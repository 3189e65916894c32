"""One consistent read: several queries that see one state of the database, so a screen never shows half a write."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.db import connection, transaction

from referee.sqlite.base import DatabaseWrapper as SQLite


@contextmanager
def consistent_read() -> Iterator[None]:
    """Several queries that see one state of the database, so a reader never sees half of another's write.

    SQLite: a deferred transaction (no write lock; in WAL mode its first read fixes the snapshot). PostgreSQL:
    a repeatable-read transaction. Inside a transaction already, that transaction's view is kept.
    """
    if connection.in_atomic_block:
        yield
        return
    if isinstance(db := transaction.get_connection(), SQLite):
        with db.read_transaction():  # the site's SQLite backend (referee/sqlite/base.py)
            yield
        return
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        yield
