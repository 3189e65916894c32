"""Reads of a play's hot path, built by the ORM once per process and then only run.

Building a query costs Django far more than running it: the deal with its match, round, tournament, pairs and
players takes about 3 ms of CPU to build and 0.3 ms to run on SQLite, on every play. A prepared read is
written as an ordinary QuerySet whose arguments are stand-ins (``MARKS``); the first use compiles it to SQL
(per database), and every later one runs that SQL with the real arguments and reads the rows back as the
QuerySet would (model instances with their ``select_related`` objects, or value tuples).

A prepared insert does the same for the rows a play writes (the play, its history rows, the write's receipt):
the INSERT is compiled once, and each row's values are prepared as ``bulk_create`` prepares them.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import cache
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Model, QuerySet
from django.db.models.query import get_related_populators
from django.db.models.sql import InsertQuery
from django.utils import timezone

# Stand-ins for the arguments while the query is built: numbers no other parameter of a hot-path query takes, so
# each is found in the SQL's parameters (as a number, or as its text for a text column). They fit a 32-bit key
# (the user table's on PostgreSQL): Django compiles a lookup out of a column's range to no SQL at all.
MARKS = (2_147_480_001, 2_147_480_002, 2_147_480_003)


class Compiled:
    """One prepared read compiled for one database: its SQL, where each argument goes, how to read a row."""

    def __init__(self, queryset: QuerySet, using: str, arity: int) -> None:
        self.compiler = queryset.query.get_compiler(using=using)
        self.sql, params = self.compiler.as_sql()
        self.params = list(params)
        self.slots = []
        for mark in MARKS[:arity]:
            places = [i for i, p in enumerate(self.params) if str(p) == str(mark)]
            if len(places) != 1:
                raise ValueError(f"each argument must appear once in the query: {self.sql}")
            self.slots.append(places[0])
        compiler = self.compiler
        self.converters = compiler.get_converters([s[0] for s in compiler.select[: compiler.col_count]])
        info = self.compiler.klass_info
        if info is not None:  # model instances (with select_related): what ModelIterable works out per query
            fields = info["select_fields"]
            self.span = (fields[0], fields[-1] + 1)
            self.init_list = [f[0].target.attname for f in self.compiler.select[slice(*self.span)]]
            self.populators = get_related_populators(info, self.compiler.select, using)
            self.model = info["model"]

    def rows(self, using: str, args: tuple) -> list[tuple]:
        params = list(self.params)
        for slot, arg in zip(self.slots, args, strict=True):
            params[slot] = arg
        with connections[using].cursor() as cursor:
            cursor.execute(self.sql, params)
            fetched = cursor.fetchall()
        if self.converters:  # as ``results_iter`` converts them, with the converters looked up once
            fetched = self.compiler.apply_converters(fetched, self.converters)
        return [tuple(row) for row in fetched]


class Prepared:
    """A read built once per process: ``build(*MARKS[:arity])`` gives the QuerySet with stand-in arguments."""

    def __init__(self, build: Callable[..., QuerySet], arity: int = 1) -> None:
        self.build, self.arity = build, arity
        self.compiled: dict[tuple[str, str], Compiled] = {}
        self.lock = threading.Lock()

    def compiled_for(self, using: str) -> Compiled:
        key = (using, connections[using].vendor)
        found = self.compiled.get(key)
        if found is None:
            with self.lock:
                found = self.compiled.setdefault(
                    key, Compiled(self.build(*MARKS[: self.arity]), using, self.arity)
                )
        return found

    def rows(self, *args: Any, using: str = DEFAULT_DB_ALIAS) -> list[tuple]:
        """The rows of a values_list read, converted as the QuerySet converts them."""
        return self.compiled_for(using).rows(using, args)

    def first(self, *args: Any, using: str = DEFAULT_DB_ALIAS) -> Model | None:
        """The first model instance (with its select_related objects) of a model read, or None."""
        compiled = self.compiled_for(using)
        for row in compiled.rows(using, args):
            obj = compiled.model.from_db(using, compiled.init_list, row[slice(*compiled.span)])
            for populator in compiled.populators:
                populator.populate(row, obj)
            return obj
        return None


class PreparedInsert:
    """An INSERT of one ``model`` row built once per process and database: ``insert(row)`` prepares the row's
    values as ``bulk_create`` does (defaults, ``auto_now_add``, JSON) and sets the key the database gave it."""

    def __init__(self, model: type[Model]) -> None:
        self.model = model
        opts = model._meta
        self.returning = opts.db_returning_fields
        self.fields = [f for f in opts.concrete_fields if not f.generated and f not in self.returning]
        self.compiled: dict[tuple[str, str], tuple[Any, str]] = {}

    def compiled_for(self, using: str) -> tuple[Any, str]:
        key = (using, connections[using].vendor)
        found = self.compiled.get(key)
        if found is None:
            query = InsertQuery(self.model)
            query.insert_values(self.fields, [self.model()])
            compiler = query.get_compiler(using=using)
            compiler.returning_fields = self.returning
            [(sql, _params)] = compiler.as_sql()
            found = self.compiled.setdefault(key, (compiler, sql))
        return found

    def insert(self, row: Model, using: str = DEFAULT_DB_ALIAS) -> Model:
        if not connections[using].features.can_return_columns_from_insert:  # pragma: no cover - old SQLite
            return type(row)._default_manager.using(using).bulk_create([row])[0]
        compiler, sql = self.compiled_for(using)
        params = [compiler.prepare_value(f, compiler.pre_save_val(f, row)) for f in self.fields]
        with connections[using].cursor() as cursor:
            cursor.execute(sql, params)
            returned = cursor.fetchone()
        for field, value in zip(self.returning, returned, strict=True):
            setattr(row, field.attname, value)
        row._state.adding, row._state.db = False, using
        return row


@cache
def inserter(model: type[Model]) -> PreparedInsert:
    """The process's one prepared insert of ``model``."""
    return PreparedInsert(model)


def history_row(history: Any, row: Model, user, history_type: str = "+", when=None) -> Model:
    """The history row simple-history's ``bulk_history_create`` makes for ``row`` (who, when, what kind of
    change, every tracked field), unsaved: a play's writes insert it with a ``PreparedInsert``."""
    model = history.model
    return model(
        history_date=when or timezone.now(),
        history_user=user,
        history_change_reason="",
        history_type=history_type,
        **{field.attname: getattr(row, field.attname) for field in model.tracked_fields},
    )
