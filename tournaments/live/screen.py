"""The projector's featured table: one panel, the table the director put on the screen, drawn by its own live
fragment (``static/js/live.js`` fetches it every few seconds into the panel), since the screen's panels are kept
until the tournament's generation changes and a play never changes it."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext as _

from tournaments.competition import access
from tournaments.models import Tournament
from tournaments.public.screen_data import Panel


def live_panels(tournament: Tournament, user) -> list[Panel]:
    if not access.can_read_tournament(user, tournament):
        return []
    featured = tournament.featured_tables.filter(on_screen=True).first()
    if featured is None:
        return []
    return [
        Panel(
            "live",
            f"live-{featured.table}",
            _("Table %(n)s live") % {"n": featured.table},
            extra={"src": reverse("live-table", args=[tournament.slug, featured.table])},
        )
    ]
