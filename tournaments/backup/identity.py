"""Which history this desk holds: ``current()`` for every answer a phone reads, ``renew()`` after a restore.

The key is read once per process and kept: a restore happens with the site stopped (``manage.py restore`` then
``make serve``), and a new process reads the new key. ``renew()`` (and ``forget()``, for tests that swap databases)
drop the kept value."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction

from tournaments.backup.models import DeskIdentity

_kept: str | None = None


def current() -> str:
    """The desk's identity key; the first call on a database that has none makes one."""
    global _kept
    if _kept is None:
        row = DeskIdentity.objects.order_by("-id").first()
        if row is None:
            with transaction.atomic():
                row = (
                    DeskIdentity.objects.select_for_update().order_by("-id").first()
                    or DeskIdentity.objects.create()
                )
        _kept = row.key
    return _kept


def renew(*, restored_from: str = "", backup_taken_at: datetime | None = None) -> DeskIdentity:
    """A new identity, after a restore: phones that knew the old one send back what the desk may lack."""
    row = DeskIdentity.objects.create(restored_from=restored_from, backup_taken_at=backup_taken_at)
    forget()
    return row


def last_restore() -> DeskIdentity | None:
    """The newest identity made by a restore, for the desk's notice of what was restored."""
    return DeskIdentity.objects.exclude(restored_from="").order_by("-id").first()


def forget() -> None:
    global _kept
    _kept = None
