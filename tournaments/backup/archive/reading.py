"""Rows of an archive made again on this site: every id remapped, accounts found by username, players by the
registry's identity, the organisation by its slug; the audit trail carried over as it was (not re-made by the
saves, which go through ``bulk_create`` and so send no history of their own).

A history row of something deleted before the export (a play undone, a deal started again) keeps its place in the
trail: its id and the ids it names that no longer exist are written as their negative, so they meet no row made
on this site and still join each other (a play undone still names its trick)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, cast

from django.contrib.auth import get_user_model
from django.db.models import Field, Model
from django.utils.translation import gettext as _

from tournaments.backup.archive.files import ArchiveError
from tournaments.backup.archive.plan import JSON_IDS, TABLES, Table, has_history, history_model
from tournaments.models import Organisation, Player, Tournament

BATCH = 500
Ids = dict[str, dict[int, int]]


def broken() -> ArchiveError:
    return ArchiveError(_("This archive is damaged or was changed by hand: nothing was imported."))


def table_of(model: type[Model]) -> str:
    """The archive's name of a model's table; a history model's is the table it keeps the trail of
    (``historicaldeal``: ``deal``)."""
    return (model._meta.model_name or "").removeprefix("historical")


class Remap:
    """The ids of the rows made so far (by table name), and the accounts, players and organisation they map to."""

    def __init__(self, users: dict[str, Any], players: dict[int, Player], organisation: Organisation | None):
        self.ids: Ids = {}
        self.users = users
        self.players = players
        self.organisation = organisation
        self.user_model = get_user_model()

    def row_id(self, table: str, old: Any, *, history: bool) -> int:
        """The new id of a row the archive names; in a history row, a deleted one's old id, negated."""
        try:
            return self.ids[table][old]
        except (KeyError, TypeError):
            if history and isinstance(old, int):
                return -abs(old)
            raise broken() from None

    def converter(self, model: type[Model], field: Field, *, history: bool) -> Callable[[Any], Any]:
        """How the archive's value of ``field`` becomes the value stored (chosen once per table, not per row)."""
        target = field.related_model if field.is_relation else None
        if target is self.user_model:
            return lambda v: self.users[v].pk if v in self.users else None
        if target is Organisation:
            return lambda v: self.organisation.pk if self.organisation else None
        if target is Player:
            return lambda v: (
                self.players[v].pk if v in self.players else self.row_id("player", v, history=history)
            )
        if target is not None:
            name = target._meta.model_name or ""
            return lambda v: self.row_id(name, v, history=history)
        refers = JSON_IDS.get((table_of(model), field.name))
        if refers is not None:
            return lambda v: self.ids_in(refers, v, history=history)
        return field.to_python

    def ids_in(self, table: str, value: Any, *, history: bool) -> list:
        """A JSON list of ids (None where a place is empty), remapped."""
        if not isinstance(value, list):
            raise broken()
        return [None if v is None else self.row_id(table, v, history=history) for v in value]


def parse_rows(model: type[Model], data: Any) -> tuple[list[Any], list[list]]:
    """The table's fields (this site's, by the archive's names) and its rows; ArchiveError when they do not fit."""
    if not isinstance(data, dict) or not isinstance(data.get("rows"), list):
        raise broken()
    names = data.get("fields")
    if not isinstance(names, list):
        raise broken()
    try:
        fields = [model._meta.get_field(name) for name in names]
    except Exception as exc:  # FieldDoesNotExist, or names that are not a list of names
        raise broken() from exc
    rows = data["rows"]
    if any(not isinstance(row, list) or len(row) != len(fields) for row in rows):
        raise broken()
    return fields, rows


def build(model: type[Model], data: Any, remap: Remap, *, history: bool, fix: Callable | None = None):
    """The model's rows as instances not yet saved, each with its old id; ``fix`` may change a row's values."""
    fields, rows = parse_rows(model, data)
    own = table_of(model)
    steps = [
        (field.attname, None if field.name == "id" else remap.converter(model, field, history=history))
        for field in fields
    ]
    made: list[tuple[Any, Model]] = []
    for row in rows:
        values: dict[str, Any] = {}
        old = None
        for (name, convert), value in zip(steps, row, strict=True):
            if convert is not None:
                values[name] = None if value is None else convert(value)
            elif history:
                values["id"] = remap.row_id(own, value, history=True)
            else:
                old = value
        if fix is not None:
            fix(values)
        made.append((old, model(**values)))
    return fields, made


@contextmanager
def times_as_given(model: type[Model]) -> Iterator[None]:
    """Insert the rows with the times the archive recorded, not the insert's: the fields a save stamps with the
    time (``auto_now``, ``auto_now_add``) stamp nothing meanwhile. Only the import's command does this, in its own
    process, so no page's save meets the switched fields; they are switched back however the insert ends."""
    stamped = [
        f
        for f in model._meta.concrete_fields
        if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)
    ]
    kept = [(f.auto_now, f.auto_now_add) for f in stamped]  # type: ignore[attr-defined]
    try:
        for f in stamped:
            f.auto_now = f.auto_now_add = False  # type: ignore[attr-defined]
        yield
    finally:
        for f, (now, now_add) in zip(stamped, kept, strict=True):
            f.auto_now, f.auto_now_add = now, now_add  # type: ignore[attr-defined]


def insert(table: Table, data: Any, remap: Remap, *, fix: Callable | None = None) -> list[Model]:
    """Make the table's rows and note their new ids; their recorded times as in the archive."""
    _fields, made = build(table.model, data, remap, history=False, fix=fix)
    objs = [obj for _old, obj in made]
    with times_as_given(table.model):
        if table.model is Tournament:
            for obj in objs:  # saved, not bulk-made: the public pages' generation follows its save
                obj.skip_history_when_saving = True  # type: ignore[attr-defined]
                obj.save()
        else:
            table.model._default_manager.bulk_create(objs, batch_size=BATCH)
    remap.ids[table.name] = {old: obj.pk for (old, _o), obj in zip(made, objs, strict=True)}
    return objs


def insert_history(table: Table, data: Any, remap: Remap) -> int:
    """The table's audit trail as it was exported (new history ids, the rows' ids remapped)."""
    model = history_model(table.model)
    _fields, made = build(model, data, remap, history=True)
    model._default_manager.bulk_create([obj for _old, obj in made], batch_size=BATCH)
    return len(made)


def insert_tables(payload: dict[str, Any], remap: Remap, slug: str) -> Tournament:
    """Every table of one tournament, in order, then their audit trail; the tournament made."""
    tables, history = payload.get("tables"), payload.get("history") or {}
    if not isinstance(tables, dict) or not isinstance(history, dict):
        raise broken()

    def new_slug(values: dict[str, Any]) -> None:
        values["slug"] = slug

    tournament = None
    for table in TABLES:
        objs = insert(
            table,
            tables.get(table.name, {"fields": [], "rows": []}),
            remap,
            fix=new_slug if table.model is Tournament else None,
        )
        if table.model is Tournament:
            if len(objs) != 1:
                raise broken()
            tournament = cast(Tournament, objs[0])
    for table in TABLES:
        if has_history(table.model) and table.name in history:
            insert_history(table, history[table.name], remap)
    assert tournament is not None
    return tournament
