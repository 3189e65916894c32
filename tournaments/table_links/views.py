"""The desk's table links for one round: each table's live link and the devices that opened it; printing the
cards anew (new links with their QR codes, new PINs), one table's or every table's; revoking a table's link.

The printed cards are the response to the director's POST: a token and a PIN exist in clear only there (the
database keeps their hashes), so the page is never cached and never linked from a public page.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from tournaments.board import state as board
from tournaments.board.views import table_sheet
from tournaments.competition.page_guards import desk_page
from tournaments.models import Round, Tournament
from tournaments.table_links import services
from tournaments.table_links.addresses import hall_url, opened_on_loopback
from tournaments.table_links.qr import qr_svg


def _round(tournament: Tournament, number: int) -> Round:
    return get_object_or_404(tournament.rounds.exclude(state=Round.State.DRAFT), number=number)


@desk_page
@require_GET
def table_links(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    """Each table of the round: its live link (issued when, by whom), the devices that opened it, and the buttons."""
    rnd = _round(tournament, number)
    context = {
        "tournament": tournament,
        "round": rnd,
        "rows": services.round_links(rnd),
        "loopback": opened_on_loopback(request),
    }
    return render(request, "tournaments/table_links/links.html", context)


def _card(request: HttpRequest, issued: services.IssuedCard) -> dict:
    """One table's printable, with its link's QR code and its pairs' PINs."""
    url = hall_url(request, reverse("table-link", args=[issued.token]))
    m = issued.match
    title = _("Table %(n)s") % {"n": m.table}
    pins = [(m.pair_ns.name, issued.pins[0]), (m.pair_ew.name, issued.pins[1])]
    return {**table_sheet(m), "link_url": url, "link_qr": qr_svg(url, title), "pins": pins}


@never_cache
@desk_page
@require_POST
def issue_cards(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    """New cards (links and PINs) for one table (``match`` posted) or every table of the round, printed now."""
    rnd = _round(tournament, number)
    match_id = request.POST.get("match", "")
    try:
        if match_id:
            match = get_object_or_404(rnd.matches.select_related("round__tournament"), pk=_int(match_id))
            issued = [services.issue_card(match, request.user)]
        else:
            issued = services.issue_round(rnd, request.user)
    except services.TableLinkError as exc:
        messages.error(request, exc.message)
        return redirect("desk-table-links", tournament.slug, number)
    context = {
        "tournament": tournament,
        "round": rnd,
        "sheets": [_card(request, card) for card in issued],
        "time_limit": board.time_limit(tournament),
        "with_links": True,
        "loopback": opened_on_loopback(request),
    }
    return render(request, "tournaments/board/table_cards.html", context)


@desk_page
@require_POST
def revoke_link(request: HttpRequest, tournament: Tournament, number: int, match_id: int) -> HttpResponse:
    """The table's link stops working on every device that opened it."""
    rnd = _round(tournament, number)
    match = get_object_or_404(rnd.matches.select_related("round"), pk=match_id)
    if services.revoke(match):
        messages.success(
            request,
            _("Table %(n)s's link is revoked: its devices can no longer record.") % {"n": match.table},
        )
    return redirect("desk-table-links", tournament.slug, number)


def _int(text: str) -> int:
    """A posted row id, or 0 (no row) for anything else."""
    return int(text) if text.isascii() and text.isdigit() and len(text) < 19 else 0
