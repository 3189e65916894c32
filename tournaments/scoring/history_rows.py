"""The history row of each write done without ``save`` (who, when, what kind of change): the row simple-history's
``bulk_history_create`` makes, inserted with ``sql`` (the ORM's insert of a 30-column history row cost a play
three times the statement's own work)."""

from __future__ import annotations

from datetime import datetime
from functools import cache
from typing import Any

from django.db.models import Model
from django.utils import timezone
from simple_history.utils import get_history_manager_for_model

from tournaments.scoring import sql


@cache
def history_of(model: type[Model]) -> Any:
    """A model's history manager, made once: simple-history makes a new manager class at every ``.history``."""
    return get_history_manager_for_model(model)


def history_row(row: Model, user, kind: str, when: datetime | None = None) -> Model:
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
    """Insert ``row`` with its history row ('+', who and when), as saving it would (both ``sql.insert``)."""
    sql.insert(row)
    sql.insert(history_row(row, user, "+"))
    return row


def record_change(row: Model, user, when: datetime) -> None:
    """The history row ('~', who and when) of a change written by an UPDATE rather than a save."""
    sql.insert(history_row(row, user, "~", when))
