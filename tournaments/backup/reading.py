"""What a database holds, read with plain SQL through any DB-API cursor: the live database (Django's cursor), a
SQLite copy just written (``sqlite3``), PostgreSQL inside pg_dump's snapshot. The same two readings name a backup
(its counts) and decide whether a restore would overwrite newer work (the newest change)."""

from __future__ import annotations

from datetime import UTC, datetime

from django.db import models

from tournaments.models import Deal, Match, Play, Round, Tournament

COUNTED_TABLES: dict[str, type[models.Model]] = {
    "tournaments": Tournament,
    "matches": Match,
    "deals": Deal,
    "plays": Play,
}


def _change_columns() -> list[tuple[str, str]]:
    """(table, column) of every time a desk's work moves: a deal changed, a play recorded or undone (its history),
    a round paired, published or finished (its history)."""
    return [
        (Deal._meta.db_table, "changed_at"),
        (Play._meta.db_table, "recorded_at"),
        (Play.history.model._meta.db_table, "history_date"),  # type: ignore[attr-defined]
        (Round.history.model._meta.db_table, "history_date"),  # type: ignore[attr-defined]
    ]


def counts(cursor) -> dict[str, int]:
    """Rows of tournaments, matches, deals and plays."""
    found = {}
    for name, model in COUNTED_TABLES.items():
        cursor.execute(f"SELECT COUNT(*) FROM {model._meta.db_table}")  # noqa: S608 (a model's own table)
        found[name] = int(cursor.fetchone()[0])
    return found


def as_time(value) -> datetime | None:
    """A stored time as an aware datetime: PostgreSQL gives one, SQLite's raw text is UTC without an offset."""
    if value is None:
        return None
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=UTC)
    parsed = datetime.fromisoformat(str(value))
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def newest_work(cursor) -> datetime | None:
    """The newest change of a deal, a play or a round, or None for a database without any."""
    newest = None
    for table, column in _change_columns():
        cursor.execute(f"SELECT MAX({column}) FROM {table}")  # noqa: S608 (a model's own table)
        found = as_time(cursor.fetchone()[0])
        if found and (newest is None or found > newest):
            newest = found
    return newest
