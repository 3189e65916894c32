"""The self check-in tablet's link: the page it opens (no account, no desk navigation) and the desk's issuing and
revoking of it. Thin, over ``checkin.kiosk``."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from tournaments.checkin import kiosk
from tournaments.checkin.views import tablet_page
from tournaments.competition.page_guards import desk_page
from tournaments.models import Tournament


@never_cache
@require_http_methods(["GET", "POST"])
def kiosk_check_in(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """What the tablet shows: the PIN check-in of the link's tournament; an unknown or revoked link is 404."""
    found = kiosk.kiosk_of(slug, token)
    if found is None:
        raise Http404
    return tablet_page(request, found.tournament, found.created_by, here=request.path, kiosk=True)


@desk_page
@require_http_methods(["GET", "POST"])
def desk_kiosks(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The tablet links: issue one (its address shown this once), see the live ones, revoke one."""
    link = None
    if request.method == "POST":
        token = kiosk.issue_kiosk(tournament, request.user)
        link = request.build_absolute_uri(reverse("kiosk-check-in", args=[tournament.slug, token]))
    context = {"tournament": tournament, "link": link, "kiosks": kiosk.live_kiosks(tournament)}
    return render(request, "tournaments/checkin/kiosks.html", context)


@desk_page
@require_POST
def desk_kiosk_revoke(request: HttpRequest, tournament: Tournament, kiosk_id: int) -> HttpResponse:
    if 0 < kiosk_id < 2**63 and kiosk.revoke_kiosk(tournament, kiosk_id):
        messages.success(request, _("The tablet link is revoked: it opens nothing any more."))
    return redirect("desk-kiosks", tournament.slug)
