"""Deals a table's phone gave back to a restored desk (docs/journal-protocol.md): which of them were confirmed
before the restore and wait for the two pairs' PINs again — said on the table's page and listed at the desk."""

from __future__ import annotations

from django.db.models import QuerySet
from django.utils.translation import gettext as _

from tournaments.backup import identity
from tournaments.backup.models import DeskIdentity, GivenBack
from tournaments.models import Deal

_restored: dict[str, bool] = {}  # per desk identity: whether a restore made it (it never changes)


def record(deal: Deal, identity: str, *, confirmed: bool) -> GivenBack:
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
    key = identity.current()
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
