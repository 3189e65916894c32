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
