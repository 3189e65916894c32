"""The projector screen (``/t/<slug>/screen/``): full screen, no interaction; ``static/js/screen.js`` fetches the
panels again every 15 s (``screen/panels/``) and swaps them in only on success, and cycles them every 12 s."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from tournaments.public.caching import public_cache
from tournaments.public.screen_data import current_round, qr_code, screen_panels
from tournaments.public.views import tournament_for
from tournaments.table_links.addresses import hall_url


def screen_context(request: HttpRequest, slug: str) -> dict:
    tournament = tournament_for(request, slug)  # a hidden tournament is the TD's alone (404)
    return {
        "tournament": tournament,
        "round": current_round(tournament),
        "panels": screen_panels(tournament, request.user),
        "updated": timezone.localtime(),
    }


@public_cache(by_host=True)
def screen_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The projector's page, kept like the other public pages (its QR code prints the address it was asked at, so
    each host has its own copy); its panels are fetched again by the script."""
    context = screen_context(request, slug)
    url = hall_url(request, context["tournament"].get_absolute_url())
    return render(request, "tournaments/public/screen.html", {**context, "qr": qr_code(url), "site_url": url})


@public_cache
def screen_panels_fragment(request: HttpRequest, slug: str) -> HttpResponse:
    """The panels and the message alone, for the screen's script: kept until the tournament's public data changes,
    so a hall of screens polling costs one build per change (a 304 when nothing changed)."""
    return render(request, "tournaments/public/_screen_panels.html", screen_context(request, slug))
