"""The desk's entries page (``desk/entries/``): open the tournament for entries and change its settings, accept
or refuse an entry awaiting approval, withdraw one, mark a fee paid, and close entries (the accepted entries
become the tournament's pairs). Each action a POST, through ``entries.services``."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from tournaments.competition.finishing import FinishError
from tournaments.competition.page_guards import desk_page
from tournaments.entries import services
from tournaments.entries.forms import WindowForm
from tournaments.entries.links import token_for
from tournaments.models import Entry, Tournament

ENTRY_ACTIONS = ("accept", "refuse", "withdraw", "paid", "unpaid")


def posted_entry(request: HttpRequest, tournament: Tournament) -> Entry:
    value = request.POST.get("entry", "")
    entry = None
    if value.isascii() and value.isdigit() and len(value) < 19:
        entry = tournament.entries.filter(pk=int(value)).first()
    if entry is None:
        raise services.EntryError(_("Choose an entry of this tournament."), 404)
    return entry


def _act(request: HttpRequest, tournament: Tournament, action: str) -> str:
    """Do one action; the sentence the desk is told."""
    if action == "close":
        pairs = services.close_entries(tournament, request.user)
        return _("Entries are closed: %(n)s pairs entered the tournament.") % {"n": len(pairs)}
    entry = posted_entry(request, tournament)
    if action in ("accept", "refuse"):
        entry = services.decide_entry(entry, action == "accept")
        return _("%(name)s: %(state)s.") % {"name": entry.name, "state": entry.get_state_display()}
    if action == "withdraw":
        promoted = services.withdraw_entry(entry)
        if promoted is not None:
            return _("%(name)s is withdrawn; %(next)s has its place.") % {
                "name": entry.name,
                "next": promoted.name,
            }
        return _("%(name)s is withdrawn.") % {"name": entry.name}
    services.mark_paid(entry, action == "paid", request.user)
    return _("%(name)s: fee paid.") % {"name": entry.name} if action == "paid" else entry.name


@desk_page
def desk_entries(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    window = services.window_of(tournament)
    form = WindowForm(instance=window)
    status = 200
    if request.method == "POST":
        action = request.POST.get("action", "")
        try:
            if action == "settings":
                form = WindowForm(request.POST, instance=window)
                if form.is_valid():
                    services.open_entries(tournament, by=request.user, **form.cleaned_data)
                    messages.success(request, _("Entries on line are open with these settings."))
                    return redirect("desk-entries", tournament.slug)
                status = 400
            elif action == "close" or action in ENTRY_ACTIONS:
                messages.success(request, _act(request, tournament, action))
                back = "desk-check-in" if request.POST.get("back") == "check-in" else "desk-entries"
                return redirect(back, tournament.slug)  # a fee taken at check-in goes back there
            else:
                messages.error(request, _("Choose what to do."))
                status = 400
        except (services.EntryError, FinishError) as exc:
            messages.error(request, exc.message)
            status = exc.status
    entries = list(tournament.entries.select_related("pair").order_by("pk"))
    context = {
        "tournament": tournament,
        "window": window,
        "form": form,
        "entries": [(e, token_for(e)) for e in entries],
        "taken": sum(1 for e in entries if e.state == Entry.State.ACCEPTED),
        "why_not_close": services.why_not_close(tournament) if window else None,
        "States": Entry.State,
    }
    return render(request, "tournaments/entries/desk.html", context, status=status)
