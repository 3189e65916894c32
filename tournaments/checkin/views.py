"""The desk's check-in (`desk/check-in/`): each pair tapped in as it arrives, the round paired with the pairs
checked in; and the desk tablet's self check-in with a pair's PIN (`desk/check-in/tablet/`)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from tournaments.checkin import services
from tournaments.checkin.forms import PairCheckedInForm, PinCheckInForm
from tournaments.competition.finishing import FinishError
from tournaments.competition.page_guards import desk_page
from tournaments.models import Match, Tournament


def posted_pair(request: HttpRequest) -> int | None:
    """The pair's id as posted: ASCII digits only (``²``, ``①`` are digits to ``isdigit`` but not to ``int``)."""
    value = request.POST.get("pair", "")
    return int(value) if value.isascii() and value.isdigit() and len(value) < 20 else None


def late_rows(tournament: Tournament) -> list[dict]:
    """The last paired round's absent pairs, each with its match (a forfeit the director may withdraw)."""
    rnd = tournament.rounds.order_by("-number").first()
    if rnd is None:
        return []
    rows = []
    for absence in rnd.absences.select_related("pair"):
        match = Match.objects.filter(round=rnd).filter(pair_ns=absence.pair).first() or (
            Match.objects.filter(round=rnd, pair_ew=absence.pair).first()
        )
        rows.append({"absence": absence, "match": match, "round": rnd})
    return rows


@desk_page
def desk_check_in(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Who is here for the next round; a tap checks a pair in (or takes it back); then pair the round."""
    number = services.next_round(tournament)
    form = PairCheckedInForm()
    if request.method == "POST":
        action = request.POST.get("action", "")
        try:
            if action in ("in", "undo"):
                pair = services.pair_of(tournament, posted_pair(request))
                if action == "in":
                    services.check_in(tournament, pair, request.user)
                else:
                    services.undo_check_in(tournament, pair, request.user)
                return redirect("desk-check-in", tournament.slug)
            if action == "pair":
                form = PairCheckedInForm(request.POST)
                if form.is_valid():
                    rnd = services.pair_checked_in(tournament, request.user, **form.cleaned_data)
                    messages.success(
                        request,
                        _("Round %(n)s is paired as a draft: check it, then publish.") % {"n": rnd.number},
                    )
                    return redirect("desk-round", slug=tournament.slug, number=rnd.number)
            else:
                messages.error(request, _("Choose what to do."))
        except (services.CheckInError, FinishError) as exc:
            messages.error(request, exc.message)
    rows = services.arrivals(tournament, number)
    context = {
        "tournament": tournament,
        "number": number,
        "rows": rows,
        "here": sum(1 for r in rows if r.check_in),
        "form": form,
        "late": late_rows(tournament),
    }
    return render(request, "tournaments/checkin/check_in.html", context)


def tablet_page(request: HttpRequest, tournament: Tournament, by, *, here: str, kiosk: bool) -> HttpResponse:
    """A pair chooses its name and types its PIN to check itself in (the desk's tablet or a kiosk link);
    ``by``: the account the check-in is written as, ``here``: the page to come back to."""
    number = services.next_round(tournament)
    waiting = [r.pair for r in services.arrivals(tournament, number) if r.check_in is None]
    form = PinCheckInForm(request.POST or None, pairs=waiting)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                pair = services.pair_of(tournament, form.cleaned_data["pair"])
                services.check_in_by_pin(tournament, pair, form.cleaned_data["pin"], by)
            except (services.CheckInError, FinishError) as exc:
                form.add_error(None, exc.message)
                status = exc.status if exc.status != 404 else 400
            else:
                messages.success(request, _("%(pair)s is checked in. Welcome!") % {"pair": pair.name})
                return redirect(here)
        else:
            status = 400
    context = {"tournament": tournament, "number": number, "form": form, "kiosk": kiosk}
    return render(request, "tournaments/checkin/tablet.html", context, status=status)


@desk_page
def desk_check_in_tablet(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The desk's tablet, signed in as the director."""
    here = reverse("desk-check-in-tablet", args=[tournament.slug])
    return tablet_page(request, tournament, request.user, here=here, kiosk=False)
