"""The director's calls queue: every open call with its table, reason and waiting time (refreshed by
``static/js/calls.js``, which also sounds a new call), one call's page, "on the way", and the ruling (``rulings``: it may write a penalty or reopen a deal). The table's
own call is posted from the judge's page (``referee.table.call_views``).
"""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from tournaments.calls import rulings
from tournaments.calls import services as calls
from tournaments.calls.forms import RulingForm
from tournaments.competition.page_guards import scoring_page
from tournaments.models import Tournament


def found(tournament: Tournament, call_id: int):
    try:
        return calls.call_of(tournament, call_id)
    except calls.CallError as exc:
        raise Http404 from exc


@scoring_page
@require_GET
def desk_calls(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The calls queue: open calls oldest first, then the day's resolved calls with their rulings."""
    context = {
        "tournament": tournament,
        "calls": calls.waiting_calls(tournament),
        "resolved": calls.resolved_calls(tournament),
    }
    return render(request, "tournaments/calls/queue.html", context)


@scoring_page
@require_GET
def desk_calls_live(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The queue's open calls alone, for the page's refresh without a reload."""
    context = {"tournament": tournament, "calls": calls.waiting_calls(tournament)}
    return render(request, "tournaments/calls/_open.html", context)


@scoring_page
@require_GET
def desk_call(request: HttpRequest, tournament: Tournament, call_id: int) -> HttpResponse:
    """One call: its table, reason and deal; "on the way" and the ruling's form while it is open."""
    call = found(tournament, call_id)
    return render(
        request,
        "tournaments/calls/call.html",
        {
            "tournament": tournament,
            "call": call,
            "form": RulingForm(),
            "minutes": calls.waiting_minutes(call),
        },
    )


@scoring_page
@require_POST
def desk_call_on_the_way(request: HttpRequest, tournament: Tournament, call_id: int) -> HttpResponse:
    call = found(tournament, call_id)
    try:
        calls.mark_on_the_way(call, request.user)
    except calls.CallError as exc:
        messages.error(request, exc.message)
    return redirect("desk-call", tournament.slug, call.pk)


@scoring_page
@require_POST
def desk_call_resolve(request: HttpRequest, tournament: Tournament, call_id: int) -> HttpResponse:
    """The director's ruling closes the call (with a penalty or the deal reopened, where it applies)."""
    call = found(tournament, call_id)
    form = RulingForm(request.POST)
    if form.is_valid():
        try:
            rulings.resolve(call, request.user, **form.cleaned_data)
        except calls.CallError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, _("The call is resolved."))
            return redirect("desk-calls", tournament.slug)
    context = {"tournament": tournament, "call": call, "form": form, "minutes": calls.waiting_minutes(call)}
    return render(request, "tournaments/calls/call.html", context, status=400)
