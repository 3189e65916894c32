"""A featured table's live page (``/t/<slug>/live/<table>/``) and the desk's featured tables page.

The live page is polled every few seconds (``static/js/live.js``), so it answers from its own validator before
anything is drawn: the tournament's generation (names, the round), the language and what ``following.where``
says may be shown. A poll that finds the same sends back a 304 with no engine run and no page built; a play the
delay still hides changes nothing the validator holds, so it is a 304 too.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from tournaments.competition import access
from tournaments.competition.display import card_faces
from tournaments.competition.page_guards import desk_page
from tournaments.live import following, services
from tournaments.live.forms import FeaturedForm
from tournaments.models import SEAT_CHOICES, Tournament
from tournaments.public.caching import CODE_STAMP, finish, live, matches
from tournaments.public.charts import trick_picture
from tournaments.public.generation import tokens

SEAT_NAMES = dict(SEAT_CHOICES)
POLL_SECONDS = 5


@require_http_methods(["GET", "HEAD"])
def live_table(request: HttpRequest, slug: str, table: int) -> HttpResponse:
    """The current deal at a featured table, as far as the delay allows; with ``X-Live: 1`` its fragment alone."""
    tournament = get_object_or_404(Tournament, slug=slug)
    if not access.can_read_tournament(request.user, tournament):
        raise Http404  # a hidden tournament is the TD's alone
    at = following.where(tournament, table, request.user)
    if at is None:
        raise Http404
    who = str(request.user.pk or "")  # a signed-in visitor's page names them
    etag = at.validator(tokens(slug) or "", get_language() or "", live(request), who, CODE_STAMP)
    if matches(request, etag):
        return private(request, finish(HttpResponseNotModified(), etag))
    seats = seat_labels(at)
    shown = following.picture(at)
    latest = shown.tricks[-1] if shown.tricks else None
    earlier = [
        {"trick": t, "lines": [(seats[s], card_faces(t.plays.get(s))) for s in "NESW"]}
        for t in reversed(shown.tricks[:-1])
    ]
    context = {
        "tournament": tournament,
        "at": at,
        "seats": seats,
        "latest": latest,
        "picture": trick_picture(latest, seats) if latest else "",
        "earlier": earlier,
        "points": shown.attackers_points,
        "hands": [(seats[seat], card_faces(cards)) for seat, cards in shown.hands.items()],
        "hidden": at.complete - at.shown if at.deal and not at.confirmed else 0,
        "poll": POLL_SECONDS,
    }
    template = "tournaments/live/_table.html" if live(request) else "tournaments/live/table.html"
    return private(request, finish(render(request, template, context), etag))


def private(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """A signed-in visitor's page names them: no proxy in front keeps it (``finish`` lets nginx keep a second)."""
    if request.user.is_authenticated and "X-Accel-Expires" in response:
        del response["X-Accel-Expires"]
    return response


def seat_labels(at: following.Where) -> dict[str, str]:
    """Each seat by its name and player (北 · 甲), or by its name alone before a match sits at the table."""
    players = at.match.seat_players() if at.match else {}
    return {
        seat: f"{SEAT_NAMES[seat]} · {players[seat]}" if seat in players else str(SEAT_NAMES[seat])
        for seat in "NESW"
    }


@desk_page
@require_http_methods(["GET", "POST"])
def desk_live(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Feature a table, change its delay or put it on the projector, or stop featuring it."""
    form = FeaturedForm(request.POST if request.POST.get("action") == "feature" else None)
    status = 200
    if request.method == "POST":
        try:
            if request.POST.get("action") == "feature" and form.is_valid():
                data = form.cleaned_data
                delay = None if data["whole_deals"] else data["delay"]
                services.feature(tournament, data["table"], delay, data["on_screen"])
                messages.success(request, _("Table %(n)s is featured.") % {"n": data["table"]})
                return redirect("desk-live", tournament.slug)
            if request.POST.get("action") == "remove":
                table = request.POST.get("table", "")
                number = int(table) if table.isascii() and table.isdigit() and len(table) < 4 else 0
                services.unfeature(tournament, number)
                messages.success(request, _("Table %(n)s is no longer featured.") % {"n": number})
                return redirect("desk-live", tournament.slug)
            status = 400
            if request.POST.get("action") != "feature":
                messages.error(request, _("Choose what to do."))
        except services.LiveError as exc:
            messages.error(request, exc.message)
            status = exc.status
    context = {"tournament": tournament, "form": form, "featured": tournament.featured_tables.all()}
    return render(request, "tournaments/live/desk.html", context, status=status)
