"""The export: one tournament (or every tournament of the site) as a ``tractor-tournament/1`` archive, read through
the models (no SQL dump), so the same file works whichever database wrote it and whichever reads it."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.db.models import Field, Model
from django.utils import timezone

from tournaments.backup.archive.files import write_file
from tournaments.backup.archive.plan import FORMAT, TABLES, Table, has_history, history_model
from tournaments.models import Organisation, Player, Tournament

PEOPLE_FIELDS = ("id", "name", "club", "contact", "notes")


def columns(model: type[Model], *, history: bool = False) -> list[Field]:
    """The fields a row of ``model`` is written with: every concrete field (a history row's own key left out:
    the import numbers it anew)."""
    skip = {"history_id"} if history else set()
    return [f for f in model._meta.concrete_fields if f.name not in skip]


class Collector:
    """One tournament's rows, table by table; remembers the accounts and players they name."""

    def __init__(self, tournament: Tournament) -> None:
        self.tournament = tournament
        self.live: dict[str, set[int]] = {"": {tournament.pk}}
        self.known: dict[str, set[int]] = {"": {tournament.pk}}
        self.users: set[int] = set()
        self.players: set[int] = set()

    def table(self, table: Table, *, history: bool) -> dict[str, Any]:
        """The table's rows (or its history's): those whose ``via`` names a row of the parent table."""
        model = history_model(table.model) if history else table.model
        ids = (self.known if history else self.live)[table.parent]
        rows = model._default_manager.filter(**{f"{table.via}__in" if table.via else "pk__in": ids})
        fields = columns(model, history=history)
        values = [list(row) for row in rows.order_by("pk").values_list(*(f.attname for f in fields))]
        self.remember(table, fields, values, history=history)
        return {"fields": [f.name for f in fields], "rows": values}

    def remember(self, table: Table, fields: list[Field], values: list[list], *, history: bool) -> None:
        """Note the rows' ids (the next tables hang from them) and the accounts and players they name."""
        at = {f.name: i for i, f in enumerate(fields)}
        ids = {row[at["id"]] for row in values}
        self.known.setdefault(table.name, set()).update(ids)
        if not history:
            self.live[table.name] = ids
        user_model = get_user_model()
        for i, field in enumerate(fields):
            target = field.related_model if field.is_relation else None
            if target is user_model:
                self.users.update(row[i] for row in values if row[i] is not None)
            elif target is Player:
                self.players.update(row[i] for row in values if row[i] is not None)


def named_accounts(tables: Iterable[dict[str, Any]], models: Iterable[type[Model]], names: dict[int, str]):
    """Replace each account's id by its username (an account that no longer exists by None)."""
    user_model = get_user_model()
    for data, model in zip(tables, models, strict=True):
        spots = [i for i, name in enumerate(data["fields"]) if _points_to(model, name) is user_model]
        for row in data["rows"]:
            for i in spots:
                row[i] = names.get(row[i]) if row[i] is not None else None


def _points_to(model: type[Model], name: str):
    field = model._meta.get_field(name)
    return field.related_model if field.is_relation else None


def organisation_slug(model: type[Model], data: dict[str, Any]) -> None:
    """The organisation by its slug (its id means nothing on another site)."""
    if "organisation" not in data["fields"]:
        return
    at = data["fields"].index("organisation")
    slugs = dict(Organisation.objects.values_list("pk", "slug"))
    for row in data["rows"]:
        row[at] = slugs.get(row[at]) if row[at] is not None else None


def tournament_payload(tournament: Tournament) -> dict[str, Any]:
    """Everything of one tournament: its tables, their audit trail, the people and accounts they name."""
    collect = Collector(tournament)
    tables: dict[str, dict] = {}
    history: dict[str, dict] = {}
    for table in TABLES:
        tables[table.name] = collect.table(table, history=False)
        if has_history(table.model):
            history[table.name] = collect.table(table, history=True)
    names = dict(get_user_model().objects.filter(pk__in=collect.users).values_list("pk", "username"))
    named_accounts(tables.values(), [t.model for t in TABLES], names)
    with_history = [t for t in TABLES if t.name in history]
    named_accounts(
        [history[t.name] for t in with_history], [history_model(t.model) for t in with_history], names
    )
    organisation_slug(Tournament, tables["tournament"])
    organisation_slug(Tournament, history["tournament"])
    people = Player.objects.filter(pk__in=collect.players).order_by("pk").values_list(*PEOPLE_FIELDS)
    return {
        "slug": tournament.slug,
        "name": tournament.name,
        "organisation": tournament.organisation.slug if tournament.organisation else None,
        "series": sorted(tournament.series.values_list("slug", flat=True)),
        "people": [dict(zip(PEOPLE_FIELDS, row, strict=True)) for row in people],
        "accounts": sorted(names.values()),
        "tables": tables,
        "history": history,
    }


def summary_of(payloads: list[dict[str, Any]]) -> dict[str, int]:
    """How much the archive holds: tournaments, matches, deals and plays (the backup's one line names them)."""

    def count(name: str) -> int:
        return sum(len(p["tables"][name]["rows"]) for p in payloads)

    return {
        "tournaments": len(payloads),
        "matches": count("match"),
        "deals": count("deal"),
        "plays": count("play"),
    }


def archive_of(tournaments: Iterable[Tournament]) -> dict[str, Any]:
    """The archive of these tournaments, read in one transaction (one consistent moment while the site serves)."""
    outermost = not connection.in_atomic_block
    with transaction.atomic():
        if outermost and connection.vendor == "postgresql":  # one snapshot for every table's read
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        payloads = [tournament_payload(t) for t in tournaments]
    return {
        "format": FORMAT,
        "exported_at": timezone.now(),
        "summary": summary_of(payloads),
        "tournaments": payloads,
    }


def export_tournament(tournament: Tournament, path: str | Path) -> dict[str, int]:
    """Write the tournament's archive to ``path`` (gzip when it ends in ``.gz``); what it holds."""
    archive = archive_of([tournament])
    write_file(archive, path)
    return archive["summary"]


def summary_line(summary: dict[str, int], path: str | Path) -> str:
    return (
        f"{summary['tournaments']} tournaments, {summary['matches']} matches, {summary['deals']} deals, "
        f"{summary['plays']} plays → {path}"
    )


def write_site_archive(path: str | Path) -> str:
    """Every tournament of the site in one archive (the backup's way on PostgreSQL without ``pg_dump``); its
    one-line summary."""
    archive = archive_of(Tournament.objects.order_by("pk"))
    write_file(archive, path)
    return summary_line(archive["summary"], path)
