"""What a ``tractor-tournament/1`` archive holds: its tables in the order an import creates them, how each hangs
from the tournament, and the JSON settings that name rows by id (remapped on import like the foreign keys).

Each table is named by the model's name in lower case (``match``, ``deal``, ``play``…); a row is the model's
concrete fields under their names, foreign keys as the exported row's id (``round: 12``), accounts by username,
players by their id in the archive's ``people``, the organisation by its slug. docs/archive.md lists the fields.

Left out on purpose: the tables' private links and devices, the pairs' PINs and the check-in tablets' links
(secrets made for one site: the director issues them again), the write receipts (a day's retries), the desk's
identity (a site's own).
"""

from __future__ import annotations

from typing import Any, NamedTuple, cast

from django.db.models import Model

from tournaments.models import (
    Absence,
    Adjustment,
    Bye,
    CheckIn,
    Deal,
    LineUp,
    Match,
    Pair,
    Penalty,
    Play,
    Round,
    Ruling,
    Seating,
    TableCall,
    Team,
    TeamEvent,
    TeamMatch,
    TeamPair,
    TeamTable,
    Tournament,
    Trick,
    Zone,
)

FORMAT = "tractor-tournament/1"


class Table(NamedTuple):
    """One table of the archive: its model, and the foreign key that ties its rows to the tournament through
    a table before it (``parent`` is that table's name; the tournament itself has none)."""

    model: type[Model]
    via: str
    parent: str

    @property
    def name(self) -> str:
        return self.model._meta.model_name or ""


TABLES: tuple[Table, ...] = (
    Table(Tournament, "", ""),
    Table(Pair, "tournament", "tournament"),
    Table(Round, "tournament", "tournament"),
    Table(Zone, "tournament", "tournament"),
    Table(Team, "tournament", "tournament"),
    Table(TeamEvent, "tournament", "tournament"),
    Table(TeamPair, "team", "team"),
    Table(Match, "round", "round"),
    Table(Seating, "match", "match"),
    Table(Bye, "round", "round"),
    Table(TeamMatch, "round", "round"),
    Table(TeamTable, "team_match", "teammatch"),
    Table(LineUp, "team_match", "teammatch"),
    Table(Deal, "match", "match"),
    Table(Trick, "deal", "deal"),
    Table(Play, "trick", "trick"),
    Table(Penalty, "deal", "deal"),
    Table(Ruling, "deal", "deal"),
    Table(Adjustment, "match", "match"),
    Table(TableCall, "match", "match"),
    Table(CheckIn, "pair", "pair"),
    Table(Absence, "round", "round"),
)
BY_NAME = {table.name: table for table in TABLES}

# JSON settings that hold ids of another table (lists of ids, None where a place is empty).
JSON_IDS = {("round", "bracket"): "pair", ("lineup", "pairs"): "pair", ("teamevent", "playoff_lines"): "team"}


def has_history(model: type[Model]) -> bool:
    """Whether the model keeps an audit trail (django-simple-history's ``history``)."""
    return hasattr(model, "history") and hasattr(cast(Any, model).history, "model")


def history_model(model: type[Model]) -> type[Model]:
    """The model of the audit trail's rows (``HistoricalDeal`` for ``Deal``)."""
    return cast(Any, model).history.model
