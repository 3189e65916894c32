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


class BackupOutcome(models.Model):
    """What one backup attempt came to, kept in the database rather than in BACKUP_DIR so a folder that cannot be
    written (the failure most worth showing) still leaves its red line on the desk and the board."""

    class Reason(models.TextChoices):
        COMMAND = "command", _("command")
        TIMER = "timer", _("every few minutes")
        ROUND = "round", _("round published")
        DESK = "desk", _("the desk's button")

    class Problem(models.TextChoices):
        NONE = "", _("none")
        DISK_FULL = "disk_full", _("The disk is full.")
        NOT_WRITABLE = "not_writable", _("The backup folder cannot be written.")
        NO_TOOL = "no_tool", _("The database's dump tool is not installed on this machine.")
        CHECK = "check", _("The copy failed its check.")
        OTHER = "other", _("The copy could not be written.")

    at = models.DateTimeField(_("time"), auto_now_add=True, db_index=True)
    reason = models.CharField(_("reason"), max_length=10, choices=Reason.choices, default=Reason.COMMAND)
    ok = models.BooleanField(_("succeeded"), default=False)
    file_name = models.CharField(_("file"), max_length=255, blank=True)
    summary = models.CharField(_("summary"), max_length=255, blank=True)
    problem = models.CharField(_("problem"), max_length=16, choices=Problem.choices, blank=True)
    error = models.TextField(_("error"), blank=True)  # the system's own words, for the log and the admin

    class Meta:
        verbose_name = _("backup outcome")
        verbose_name_plural = _("backup outcomes")
        ordering = ["-id"]

    def __str__(self) -> str:
        return self.file_name or self.error[:60]


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

    def __str__(self) -> str:
        return f"{self.deal_id} {self.identity}"
