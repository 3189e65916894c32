"""The desk's identity: a random key that names this database's history. A restore gives the desk a new one, so a
table's phone that finds another key (or a deal older than it was told) knows the desk may have lost what it sent,
and sends it back. The newest row is the current identity; older rows stay as the history of restores."""

from __future__ import annotations

import secrets

from django.db import models
from django.utils.translation import gettext_lazy as _


def new_key() -> str:
    return secrets.token_hex(8)


class DeskIdentity(models.Model):
    key = models.CharField(_("key"), max_length=32, unique=True, default=new_key)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    restored_from = models.CharField(_("restored from"), max_length=255, blank=True)
    backup_taken_at = models.DateTimeField(_("backup taken at"), null=True, blank=True)

    class Meta:
        verbose_name = _("desk identity")
        verbose_name_plural = _("desk identities")
        ordering = ["-id"]

    def __str__(self) -> str:
        return self.key


class GivenBack(models.Model):
    """A table's phone gave a deal back to a restored desk (docs/journal-protocol.md): from which identity, and
    whether the phone had seen the deal confirmed there. Such a deal, confirmed before the restore but not since,
    waits for the two pairs' PINs again; the desk lists it among what the restore may have lost."""

    deal = models.ForeignKey("tournaments.Deal", on_delete=models.CASCADE, related_name="given_back")
    identity = models.CharField(_("identity given back from"), max_length=32)
    confirmed = models.BooleanField(_("confirmed before the restore"), default=False)
    created_at = models.DateTimeField(_("given back at"), auto_now_add=True)

    class Meta:
        verbose_name = _("deal given back")
        verbose_name_plural = _("deals given back")
        constraints = [
            models.UniqueConstraint(fields=["deal", "identity"], name="given_back_once_per_identity")
        ]
