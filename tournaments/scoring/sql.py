"""Every raw statement of the play, in one module: the reads and writes of every play, and the history row of each
write done without ``save``, written once as SQL: building them with the ORM cost a play more than its
engine checks (measured on a loaded 2-core machine: the deal with its match, round, tournament, pairs and players
5.9 ms to build and 0.4 ms to run; its tricks 1.3 ms against 0.05; a history row 1.5 ms against 0.5; the version
claim 0.34 against 0.09; a receipt's insert 0.34 against 0.18).

Only public Django is used: the models' ``_meta`` API names the tables and columns, a cursor runs the SQL,
``Model.from_db`` makes the instances, and the fields' own ``from_db_value``/``pre_save``/``get_db_prep_save``
convert the values. ``tests/table/test_hot_sql.py`` checks each read and insert against the plain ORM's rows.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, Generic, TypeVar, cast

from django.conf import settings
from django.db import connection
from django.db.models import DateTimeField, Field, ForeignKey, GeneratedField, Model
from django.utils import timezone
from simple_history.utils import get_history_manager_for_model

from tournaments.models import Deal, Penalty, Play, Trick

M = TypeVar("M", bound=Model)


def quoted(name: str | None) -> str:
    """An SQL identifier in double quotes (standard SQL: SQLite and PostgreSQL both read it). Django types a
    field's column as optional (a field without one); every field named here is concrete, so has one."""
    if name is None:
        raise TypeError("a column without a name")
    return f'"{name}"'


def concrete(model: type[Model], name: str) -> Field:
    """The concrete field ``name`` of ``model`` (``get_field`` may also give a reverse relation: never here)."""
    field = model._meta.get_field(name)
    if not isinstance(field, Field):
        raise TypeError(f"{model.__name__}.{name} is not a column")
    return field


def foreign_key(model: type[Model], name: str) -> tuple[ForeignKey, type[Model]]:
    """The foreign key ``name`` of ``model`` and the model it points at (a read's path names only those)."""
    fk = model._meta.get_field(name)
    related = fk.related_model
    if not isinstance(fk, ForeignKey) or not isinstance(related, type):
        raise TypeError(f"{model.__name__}.{name} is not a foreign key")
    return fk, related


def python_value(field: Field, value: Any) -> Any:
    """A column's value as the ORM gives it: the field's own conversion (JSON), an aware time (SQLite's is naive)."""
    if value is None:
        return None
    if hasattr(field, "from_db_value"):
        value = field.from_db_value(value, None, connection)
    if isinstance(field, DateTimeField) and settings.USE_TZ and timezone.is_naive(value):
        value = timezone.make_aware(value, datetime.UTC)
    return value


@dataclass(frozen=True)
class Joined:
    """One model of a joined read: its alias in the SQL, its columns, and where it hangs (``parent.name``)."""

    model: type[Model]
    alias: str
    fields: tuple[Field, ...]
    parent: int | None  # index of the parent in the read's list
    name: str  # the foreign key on the parent that holds it
    nullable: bool

    @property
    def converted(self) -> tuple[tuple[int, Field], ...]:
        """The columns whose values need converting (JSON, times), by position: the rest are read as they come."""
        return tuple(
            (i, f)
            for i, f in enumerate(self.fields)
            if hasattr(f, "from_db_value") or isinstance(f, DateTimeField)
        )


class ModelRead(Generic[M]):
    """``Model.objects.select_related(*paths).filter(<key>=%s, …)``, written once as SQL: ``first(*values)``
    gives the first instance with its related ones attached, or None."""

    def __init__(self, model: type[M], paths: Sequence[str], *keys: str) -> None:
        self.paths, self.keys = tuple(paths), keys
        self.parts = [Joined(model, "t0", tuple(model._meta.concrete_fields), None, "", False)]
        joins = []
        for path in paths:
            parent = 0
            for name in path.split("__"):
                found = next(
                    (i for i, p in enumerate(self.parts) if p.parent == parent and p.name == name), None
                )
                if found is None:
                    host = self.parts[parent]
                    fk, related = foreign_key(host.model, name)
                    alias = f"t{len(self.parts)}"
                    self.parts.append(
                        Joined(related, alias, tuple(related._meta.concrete_fields), parent, name, fk.null)
                    )
                    joins.append(
                        f"LEFT JOIN {quoted(related._meta.db_table)} {alias} ON {alias}."
                        f"{quoted(fk.target_field.column)} = {host.alias}.{quoted(fk.column)}"
                    )
                    found = len(self.parts) - 1
                parent = found
        columns = ", ".join(f"{p.alias}.{quoted(f.column)}" for p in self.parts for f in p.fields)
        self.sql = (
            f"SELECT {columns} FROM {quoted(model._meta.db_table)} t0 {' '.join(joins)} "
            f"WHERE {' AND '.join(f't0.{quoted(key)} = %s' for key in keys)}"
        )
        self.layout = [
            ([f.attname for f in p.fields], p.fields.index(p.model._meta.pk), p.converted) for p in self.parts
        ]

    def first(self, *values: Any) -> M | None:
        with connection.cursor() as cursor:
            cursor.execute(self.sql, list(values))
            row = cursor.fetchone()
        if row is None:
            return None
        made: list[Model | None] = []
        start = 0
        for part, (attnames, pk_at, converted) in zip(self.parts, self.layout, strict=True):
            cells = list(row[start : start + len(attnames)])
            start += len(attnames)
            parent = made[part.parent] if part.parent is not None else None
            if cells[pk_at] is None or (part.parent is not None and parent is None):
                made.append(None)
                if parent is not None and part.nullable:
                    setattr(parent, part.name, None)
                continue
            for i, field in converted:
                cells[i] = python_value(field, cells[i])
            obj = part.model.from_db(connection.alias, attnames, cells)
            if parent is not None:
                setattr(parent, part.name, obj)
            made.append(obj)
        return cast(M | None, made[0])  # the first part is the read's own model


def rows(sql: str, params: Sequence[Any]) -> list[tuple]:
    """The rows of a read whose columns need no conversion (text and numbers)."""
    with connection.cursor() as cursor:
        cursor.execute(sql, list(params))
        return [tuple(row) for row in cursor.fetchall()]


@cache
def insert_statement(model: type[Model]) -> tuple[str, tuple[Field, ...]]:
    """``INSERT … RETURNING pk`` of one ``model`` row, and the fields whose values it takes, in order."""
    pk = model._meta.pk
    fields = tuple(
        f for f in model._meta.concrete_fields if f is not pk and not isinstance(f, GeneratedField)
    )
    table = quoted(model._meta.db_table)
    names = ", ".join(quoted(f.column) for f in fields)
    marks = ", ".join("%s" for _ in fields)
    return f"INSERT INTO {table} ({names}) VALUES ({marks}) RETURNING {quoted(pk.column)}", fields


def insert(row: M) -> M:
    """Insert ``row`` as ``bulk_create`` would (defaults, ``auto_now_add``, JSON), and set the key it was given."""
    sql, fields = insert_statement(type(row))
    params = [f.get_db_prep_save(f.pre_save(row, True), connection) for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        (key,) = cursor.fetchone()
    setattr(row, type(row)._meta.pk.attname, key)
    row._state.adding, row._state.db = False, connection.alias
    return row


def update_rows(rows: Sequence[M], names: Sequence[str]) -> None:
    """Write the fields ``names`` of each of ``rows`` (one model's, saved before): ``bulk_update``'s effect, as one
    ``UPDATE … WHERE pk = %s`` run for every row (``executemany``). Django's bulk update builds a ``CASE`` per
    field over every row: for a tournament's deals scored again that took longer than the engine's judging."""
    if not rows:
        return
    model = type(rows[0])
    fields = [concrete(model, name) for name in names]
    pk = model._meta.pk
    assignments = ", ".join(f"{quoted(f.column)} = %s" for f in fields)
    statement = f"UPDATE {quoted(model._meta.db_table)} SET {assignments} WHERE {quoted(pk.column)} = %s"
    params = [
        [f.get_db_prep_save(getattr(row, f.attname), connection) for f in fields] + [row.pk] for row in rows
    ]
    with connection.cursor() as cursor:
        cursor.executemany(statement, params)


@cache
def claim_statement() -> tuple[str, tuple[Field, ...]]:
    """``Deal.objects.filter(pk=…, version=…).update(version=…, changed_by=…, changed_at=…)``, and the field of
    each parameter."""
    version, by, at, pk = (concrete(Deal, name) for name in ("version", "changed_by", "changed_at", "id"))
    sql = (
        f"UPDATE {quoted(Deal._meta.db_table)} SET {quoted(version.column)} = %s, {quoted(by.column)} = %s, "
        f"{quoted(at.column)} = %s WHERE {quoted(pk.column)} = %s AND {quoted(version.column)} = %s"
    )
    return sql, (version, by, at, pk, version)


def claim(pk: int, version: int, changed_by, now: datetime.datetime) -> bool:
    """Move deal ``pk`` from ``version`` to the next, by ``changed_by`` at ``now``: whether it was at ``version``."""
    sql, fields = claim_statement()
    values = (version + 1, changed_by.pk if changed_by else None, now, pk, version)
    params = [f.get_db_prep_save(value, connection) for f, value in zip(fields, values, strict=True)]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.rowcount == 1


def column(model: type[Model], name: str) -> str:
    return quoted(concrete(model, name).column)


TRICK_COLUMNS = ("id", "deal_id", "number", "throw_attempted", "throw_challenger", "throw_shown")


@cache
def tricks_statement() -> str:
    """``Trick.objects.filter(deal_id=…).order_by("number", "plays__order").values_list(*TRICK_COLUMNS,
    "plays__seat", "plays__cards")``: a trick without plays comes once, its play columns NULL."""
    t = ", ".join(f"t.{column(Trick, name)}" for name in TRICK_COLUMNS)
    return (
        f"SELECT {t}, p.{column(Play, 'seat')}, p.{column(Play, 'cards')} "
        f"FROM {quoted(Trick._meta.db_table)} t LEFT JOIN {quoted(Play._meta.db_table)} p "
        f"ON p.{column(Play, 'trick')} = t.{column(Trick, 'id')} "
        f"WHERE t.{column(Trick, 'deal')} = %s ORDER BY t.{column(Trick, 'number')}, p.{column(Play, 'order')}"
    )


def tricks_with_plays(deal_id: int) -> list[tuple]:
    """A deal's tricks with their plays in order, one row per play (``tricks_statement``)."""
    return rows(tricks_statement(), [deal_id])


CHUNK = 500  # ids bound in one statement: well under SQLite's limit on parameters


def many(statement: str, ids: Sequence[int]) -> list[tuple]:
    """``statement``'s rows for many deals, its ``= %s`` on the deal made ``IN (…)``, a chunk of ids at a time."""
    out: list[tuple] = []
    for start in range(0, len(ids), CHUNK):
        chunk = list(ids[start : start + CHUNK])
        out += rows(statement.replace("= %s", f"IN ({', '.join(['%s'] * len(chunk))})", 1), chunk)
    return out


def tricks_of_deals(deal_ids: Sequence[int]) -> list[tuple]:
    """``tricks_with_plays`` of many deals at once (a tournament's, scored again), in deal then trick order."""
    statement = tricks_statement().replace("ORDER BY ", f"ORDER BY t.{column(Trick, 'deal')}, ", 1)
    return many(statement, sorted(deal_ids))


def penalties_of_deals(deal_ids: Sequence[int]) -> list[tuple]:
    """``penalties`` of many deals at once, the deal's id last in each row, in the order they were called."""
    statement = penalties_statement().replace(" FROM ", f", {column(Penalty, 'deal')} FROM ", 1)
    return many(statement, sorted(deal_ids))


PENALTY_COLUMNS = ("seat", "code", "trick", "note", "violation")


@cache
def penalties_statement() -> str:
    """``Penalty.objects.filter(deal_id=…).order_by("recorded_at", "pk").values_list(*PENALTY_COLUMNS)``."""
    return (
        f"SELECT {', '.join(column(Penalty, name) for name in PENALTY_COLUMNS)} "
        f"FROM {quoted(Penalty._meta.db_table)} WHERE {column(Penalty, 'deal')} = %s "
        f"ORDER BY {column(Penalty, 'recorded_at')}, {column(Penalty, 'id')}"
    )


def penalties(deal_id: int) -> list[tuple]:
    """A deal's penalties in the order they were called (``penalties_statement``)."""
    return rows(penalties_statement(), [deal_id])


# The history row of each write done without ``save`` (who, when, what kind of change): the row simple-history's
# ``bulk_history_create`` makes, inserted here (the ORM's insert of a 30-column history row cost a play three
# times the statement's own work).


@cache
def history_of(model: type[Model]) -> Any:
    """A model's history manager, made once: simple-history makes a new manager class at every ``.history``."""
    return get_history_manager_for_model(model)


def history_row(row: Model, user, kind: str, when: datetime.datetime | None = None) -> Model:
    """The history row of ``row`` (``kind``: '+' made, '~' changed), unsaved, as ``bulk_history_create`` makes it
    with the change reason a save without one records (None)."""
    model = history_of(type(row)).model
    return model(
        history_date=when or timezone.now(),
        history_user=user,
        history_change_reason=None,
        history_type=kind,
        **{field.attname: getattr(row, field.attname) for field in model.tracked_fields},
    )


def insert_with_history(row: Model, user) -> Model:
    """Insert ``row`` with its history row ('+', who and when), as saving it would (both ``insert``)."""
    insert(row)
    insert(history_row(row, user, "+"))
    return row


def record_change(row: Model, user, when: datetime.datetime) -> None:
    """The history row ('~', who and when) of a change written by an UPDATE rather than a save."""
    insert(history_row(row, user, "~", when))
