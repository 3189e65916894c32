"""Which history this desk holds, and what the tables' phones gave back to it from another
(docs/journal-protocol.md).

- The identity: ``current()`` for every answer a phone reads, ``renew()`` after a restore. The key is read once per
  process and kept: a restore happens with the site stopped (``manage.py restore`` then ``make serve``), and a new
  process reads the new key. ``renew()`` (and ``forget()``, for tests that swap databases) drop the kept value.
- What was given back: a phone that knew the desk by another identity sends back what the desk may lack
  (``given_back`` notes each deal); a deal confirmed before the restore, and not since, waits for the two pairs'
  PINs again (``confirm_again``, said on the table's page; ``waiting_again``, listed at the desk).
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.db.models import QuerySet
from django.utils.translation import gettext as _

from tournaments.backup.models import DeskIdentity, GivenBack
from tournaments.models import Deal

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


# ---------------------------------------------------------------- what the phones gave back

_restored: dict[str, bool] = {}  # per desk identity: whether a restore made it (it never changes)


def given_back(deal: Deal, identity: str, *, confirmed: bool) -> GivenBack:
    """Note that a phone that knew the desk as ``identity`` gave ``deal`` back (once per identity; a later
    give-back that saw the deal confirmed says so)."""
    row, made = GivenBack.objects.get_or_create(
        deal=deal, identity=identity, defaults={"confirmed": confirmed}
    )
    if confirmed and not made and not row.confirmed:
        row.confirmed = True
        row.save(update_fields=["confirmed"])
    return row


def restored() -> bool:
    """Whether this desk's identity was made by a restore: only then can a deal have been given back, so a desk
    never restored asks nothing on every answer (``confirm_again`` is read with every play's)."""
    key = current()
    if key not in _restored:
        _restored[key] = DeskIdentity.objects.filter(key=key).exclude(restored_from="").exists()
    return _restored[key]


def confirm_again(deal: Deal) -> str:
    """Why ``deal`` asks for the pairs' PINs again ('' when it does not): confirmed before the restore, not since."""
    if deal.state == Deal.State.CONFIRMED or not restored():
        return ""
    if not GivenBack.objects.filter(deal=deal, confirmed=True).exists():
        return ""
    return _(
        "This deal was confirmed before the desk was restored from a backup that lacks the confirmation: "
        "the two pairs enter their PINs again."
    )


def waiting_again(deals: QuerySet[Deal]) -> QuerySet[Deal]:
    """Those of ``deals`` confirmed before the restore that wait to be confirmed again (the desk lists them)."""
    return deals.filter(given_back__confirmed=True).exclude(state=Deal.State.CONFIRMED).distinct()
