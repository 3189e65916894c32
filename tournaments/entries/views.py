"""The public's entry form (``/t/<slug>/enter/``) and a player's own page (``/t/<slug>/me/<token>/``): the
entry's private link, or the QR on the pair's card. Each view reads the request and calls the services.

The own page is the pair's alone: never cached by anyone (``never_cache``), never indexed, and its address is
sent to no other site (``Referrer-Policy: same-origin``: ``no-referrer`` would make the browser send ``Origin: null`` with
the page's own withdrawal form, which Django's CSRF check refuses). A wrong link is a 404 that says nothing of any pair, counted
against the address (``throttle.OWN_LINKS``).
"""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.module_loading import import_string
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from tournaments.competition import access
from tournaments.competition.page_guards import tournament_page
from tournaments.competition.throttle import ENTRY_ADDRESSES, ENTRY_TOURNAMENTS, OWN_LINKS
from tournaments.entries import services
from tournaments.entries.forms import EntryFormForm, TeamEntryFormForm, new_key
from tournaments.entries.links import own_page_path, read_token
from tournaments.entries.own_page import own_page
from tournaments.models import Entry, Tournament, team_event
from tournaments.table_links.qr import qr_svg


def client_address(request: HttpRequest) -> str:
    """The address the log-in throttle counts (``AXES_CLIENT_IP_CALLABLE``: the proxy's word when trusted)."""
    return str(import_string(settings.AXES_CLIENT_IP_CALLABLE)(request))


def private(response: HttpResponse) -> HttpResponse:
    response["X-Robots-Tag"] = "noindex, nofollow"
    response["Referrer-Policy"] = "same-origin"
    return response


def _visible(request: HttpRequest, tournament: Tournament) -> None:
    if not access.can_read_tournament(request.user, tournament):
        raise Http404


def _throttled(request: HttpRequest, tournament: Tournament) -> str | None:
    """One try taken from the address and one from the tournament; the refusal when either has none left."""
    if not ENTRY_ADDRESSES.take(client_address(request)):
        return _("Too many entries from this network: wait ten minutes and send the form again.")
    if not ENTRY_TOURNAMENTS.take(str(tournament.pk)):
        return _("Too many entries for this tournament at once: wait ten minutes and send the form again.")
    return None


@never_cache
@require_http_methods(["GET", "POST"])
@tournament_page
def enter(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The entry form: a post makes one entry (its key), then the entry's own page with its QR code."""
    _visible(request, tournament)
    window = services.window_of(tournament)
    closed = services.why_closed(window)
    status = 200
    kind = TeamEntryFormForm if team_event(tournament) else EntryFormForm
    if request.method == "POST" and not closed:
        form = kind(request.POST)
        key = request.POST.get("key", "")
        known = tournament.entries.filter(key=key).first() if isinstance(key, str) and len(key) < 65 else None
        if known is not None:  # the same form again: its entry, counted nowhere
            return redirect(f"{own_page_path(known)}?new=1")
        if refusal := _throttled(request, tournament):
            form.add_error(None, refusal)
            status = 429
        elif form.is_valid():
            try:
                entry, _made = services.submit_entry(tournament, form.entry(), form.cleaned_data["key"])
            except services.EntryError as exc:
                form.add_error(None, exc.message)
                status = exc.status
            else:
                return redirect(f"{own_page_path(entry)}?new=1")
        else:
            status = 400
    else:
        form = kind(initial={"key": new_key()})
    context = {
        "tournament": tournament,
        "window": window,
        "closed": closed,
        "form": form,
        "teams": kind is TeamEntryFormForm,
        "free": window.capacity - services.places_taken(tournament) if window else 0,
        "waiting": len(services.waiting_list(tournament)) if window else 0,
    }
    return render(request, "tournaments/entries/enter.html", context, status=status)


@never_cache
@require_http_methods(["GET", "POST"])
@tournament_page
def own(request: HttpRequest, tournament: Tournament, token: str) -> HttpResponse:
    """The entry's or the pair's own page; a post withdraws the entry (before entries close)."""
    entry, pair = read_token(tournament, token)
    if entry is None and pair is None:
        if not OWN_LINKS.take(client_address(request)):
            return _not_found(request, 429)
        return _not_found(request, 404)
    message, status = "", 200
    if request.method == "POST" and entry is not None and request.POST.get("action") == "withdraw":
        if request.POST.get("confirm") != "yes":  # a slip of the thumb withdraws nobody
            message, status = _("Tick the box to confirm the withdrawal."), 400
        else:
            try:
                services.withdraw_entry(entry)
            except services.EntryError as exc:
                message, status = exc.message, exc.status
            else:
                return redirect(request.path)
    if entry is not None:
        entry.refresh_from_db()
    window = services.window_of(tournament)
    link = request.build_absolute_uri(request.path)
    context = {
        "tournament": tournament,
        "entry": entry,
        "pair": pair,
        "window": window,
        "position": services.waiting_position(entry) if entry else None,
        "may_withdraw": bool(entry and entry.is_live and window and window.closed_at is None),
        "new": request.GET.get("new") == "1" and entry is not None,
        "qr": qr_svg(link, _("Your own page")) if request.GET.get("new") == "1" else "",
        "link": link,
        "page": own_page(tournament, pair) if pair is not None else None,
        "team_pairs": [(p, own_page_path(p)) for p in _team_pairs(entry)],
        "message": message,
        "States": Entry.State,
    }
    return private(render(request, "tournaments/entries/own.html", context, status=status))


def _team_pairs(entry: Entry | None) -> list:
    """A team entry's pairs once entries closed (each with its own page), in roster order."""
    if entry is None or entry.team is None:
        return []
    return [
        tp.pair for tp in entry.team.roster.select_related("pair__player1", "pair__player2").order_by("order")
    ]


def _not_found(request: HttpRequest, status: int) -> HttpResponse:
    """A wrong link: one sentence, nothing of any pair or entry."""
    message = (
        _("Too many wrong links from this network: wait a minute and try again.")
        if status == 429
        else _("This link opens no page: check it, or ask the desk for your pair's card.")
    )
    context = {"title": _("Your own page"), "message": message, "ways_back": []}
    return private(render(request, "error.html", context, status=status))
