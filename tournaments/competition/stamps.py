"""Who did something to a row, and when: the one way every model names the account behind a write."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.competition.save_notes import SaveNotes

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


def by_user(verbose_name: StrOrPromise, *, on_delete=models.SET_NULL, **extra) -> models.ForeignKey:
    """The account that did it: optional, never followed back from the account (``related_name="+"``); a
    deleted account leaves the row (SET_NULL) unless ``on_delete`` says the account must stay (PROTECT)."""
    return models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=on_delete,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=verbose_name,
        **extra,
    )


class Recorded(SaveNotes, models.Model):
    """A row a judge entered at the table: who recorded it and when (its history keeps every later change)."""

    recorded_by = by_user(_("recorded by"))
    recorded_at = models.DateTimeField(_("recorded at"), auto_now_add=True)

    class Meta:
        abstract = True


def owned_by(related_name: str) -> models.ForeignKey:
    """The organisation that runs a tournament or a series (none: the site admin's); kept while it owns events."""
    return models.ForeignKey(
        "tournaments.Organisation",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name=related_name,
        verbose_name=_("organisation"),
    )
