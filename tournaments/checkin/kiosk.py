"""The self check-in tablet's link (a kiosk): the director issues it, the tablet opens it with no account signed
in, it shows the PIN check-in page of its tournament and nothing else, and the director revokes it.

The token is shown once, when issued; only its SHA-256 is kept (as a table's link)."""

from __future__ import annotations

import secrets

from django.db import transaction
from django.utils import timezone

from tournaments.competition.finishing import lock_open
from tournaments.models import CheckInKiosk, Tournament
from tournaments.table_links.services import token_hash


@transaction.atomic
def issue_kiosk(tournament: Tournament, by) -> str:
    """A new tablet link of the tournament's self check-in; returns its token (shown this once)."""
    tournament = lock_open(tournament.pk)
    token = secrets.token_urlsafe(24)
    CheckInKiosk.objects.create(tournament=tournament, token_hash=token_hash(token), created_by=by)
    return token


def revoke_kiosk(tournament: Tournament, kiosk_id: int) -> int:
    """The tablet link stops opening the page (for good); how many were live."""
    return CheckInKiosk.objects.filter(tournament=tournament, pk=kiosk_id, revoked_at__isnull=True).update(
        revoked_at=timezone.now()
    )


def live_kiosks(tournament: Tournament) -> list[CheckInKiosk]:
    return list(tournament.kiosks.filter(revoked_at__isnull=True).select_related("created_by"))


def kiosk_of(slug: str, token: str) -> CheckInKiosk | None:
    """The live tablet link this token opens for the tournament ``slug`` (not revoked, the tournament not
    finished), or None."""
    if not token or len(token) > 100:
        return None
    return (
        CheckInKiosk.objects.filter(
            token_hash=token_hash(token),
            revoked_at__isnull=True,
            tournament__slug=slug,
            tournament__finished_at__isnull=True,
        )
        .select_related("tournament", "created_by")
        .first()
    )
