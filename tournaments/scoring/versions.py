"""Optimistic concurrency: every write names the deal's version it saw, and a stale one is refused with who changed
the deal and when, so nothing is overwritten silently."""

from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.competition.accounts import display_name
from tournaments.models import Deal
from tournaments.scoring.errors import StaleEdit


def lock_deal(deal: Deal, version: int | None) -> Deal:
    """Re-read the deal under a row lock and check the writer saw its current version."""
    return read_deal(deal, version, lock=True)


def read_deal(deal: Deal, version: int | None, *, lock: bool = False) -> Deal:
    """The deal as it is now (under a row lock when ``lock``), refused as stale unless at ``version`` (None:
    any). It keeps the caller's match: every caller has read it already, to check the user may record there."""
    rows = Deal.objects.select_for_update(of=("self",)) if lock else Deal.objects
    current = rows.get(pk=deal.pk)
    current.match = deal.match
    if version is not None and int(version) != current.version:
        raise stale(current)
    return current


def stale(current: Deal) -> StaleEdit:
    """The refusal of a write that saw an older version of ``current``: who changed it, and when."""
    who = display_name(current.changed_by) if current.changed_by else _("someone")
    when = timezone.localtime(current.changed_at).strftime("%H:%M:%S")
    return StaleEdit(
        _(
            "This deal was changed by %(who)s at %(when)s. The page now shows the current state; check it and "
            "enter your change again."
        )
        % {"who": who, "when": when},
        version=current.version,
    )


def touch(deal: Deal, user) -> None:
    """Count a change: a new version, and who made it (kept in the deal's history too)."""
    deal.version += 1
    deal.changed_by = user if getattr(user, "is_authenticated", False) else None
    deal._history_user = deal.changed_by
    deal.save()
