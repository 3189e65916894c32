"""Reads of a play's hot path, built by the ORM once per process and then only run.

Building a query costs Django far more than running it: the deal with its match, round, tournament, pairs and
players takes about 3 ms of CPU to build and 0.3 ms to run on SQLite, on every play. A prepared read is
written as an ordinary QuerySet whose arguments are stand-ins (``MARKS``); the first use compiles it to SQL
(per database), and every later one runs that SQL with the real arguments and reads the rows back as the
QuerySet would (model instances with their ``select_related`` objects, or value tuples).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Model, QuerySet
from django.db.models.query import get_related_populators

# Stand-ins for the arguments while the query is built: numbers no row has, so each is found in the SQL's
# parameters (as a number, or as its text for a text column).
MARKS = (7_654_321_987_001, 7_654_321_987_002, 7_654_321_987_003)


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
        return [tuple(row) for row in self.compiler.results_iter([fetched])]


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
