"""A series' and a player's public pages, and the director's: series (list, new, edit, workbook), merging two
players, seeding a tournament's pairs by rating. Thin: read the request, one service call, render."""

from __future__ import annotations

import io

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from tournaments.competition import access
from tournaments.competition.page_guards import desk_page, director_required
from tournaments.models import Player, PlayerMerge, Series, Tournament
from tournaments.people import registry
from tournaments.season import ratings, services
from tournaments.season.chart import rating_chart
from tournaments.season.forms import MergeForm, SeriesForm
from tournaments.season.series_standings import series_standings
from tournaments.season.workbook import series_workbook_names, write_series_workbook
from tournaments.workbook.download import attach

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def visible_series(user):
    return access.visible_series(user, Series.objects.all())


def _series(request: HttpRequest, slug: str) -> Series:
    return get_object_or_404(visible_series(request.user), slug=slug)


def series_page(request: HttpRequest, series: str) -> HttpResponse:
    """The series' standings: players (with their rating) and pairs, each tournament's points, the best counted."""
    found = _series(request, series)
    standings = series_standings(found)
    readable = {t.pk for t in standings.tournaments if access.can_read_tournament(request.user, t)}
    return render(
        request,
        "tournaments/season/series.html",
        {
            "series": found,
            "standings": standings,
            "readable": readable,
            "finished": {t.pk for t in standings.counted},
        },
    )


def player_page(request: HttpRequest, player_id: int) -> HttpResponse:
    """A player's rating and its history (an SVG line), their tournaments and series."""
    player = get_object_or_404(Player, pk=player_id)
    pairs = registry.pairs_of(player).select_related("tournament", "player1", "player2")
    pairs = [p for p in pairs if access.can_read_tournament(request.user, p.tournament)]
    if not pairs and not access.is_director(request.user):
        raise Http404
    rated = ratings.current()
    history = rated.history.get(player.pk, [])
    tournaments = [p.tournament for p in pairs]
    series = visible_series(request.user).filter(tournaments__in=tournaments).distinct()
    return render(
        request,
        "tournaments/season/player.html",
        {
            "player": player,
            "rating": rated.of(player.pk),
            "games": len(history),
            "chart": rating_chart([ratings.shown(ratings.MU, ratings.SIGMA)] + [p.shown for p in history]),
            "pairs": sorted(
                pairs, key=lambda p: (p.tournament.start_date is None, p.tournament.start_date, p.pk)
            ),
            "series": series,
        },
    )


# --- the director's -----------------------------------------------------------------------------------------


def _directed_series(request: HttpRequest, slug: str) -> Series:
    """A series the user directs; another organisation's is refused (403), as every desk page refuses."""
    found = get_object_or_404(Series, slug=slug)
    if not access.directs_series(request.user, found):
        raise PermissionDenied
    return found


@director_required
def desk_series_list(request: HttpRequest) -> HttpResponse:
    mine = (
        Series.objects.all()
        if request.user.is_superuser
        else Series.objects.filter(organisation_id__in=access.directed_organisations(request.user))
    )
    return render(request, "tournaments/season/desk_series.html", {"all_series": mine})


@director_required
@require_http_methods(["GET", "POST"])
def desk_series_form(request: HttpRequest, series: str | None = None) -> HttpResponse:
    """A new series, or a series' settings and tournaments."""
    found = _directed_series(request, series) if series else None
    form = SeriesForm(request.POST or None, series=found, user=request.user)
    status = 200
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            saved = services.save_series(
                data["name"],
                data["points"],
                data["best_of"],
                data["is_public"],
                list(data["tournaments"]),
                found,
                request.user,
                organisation=data.get("organisation"),
            )
        except services.SeasonError as exc:
            form.add_error("name", exc.message)
            status = exc.status
        else:
            messages.success(request, _("Saved."))
            return redirect("series", series=saved.slug)
    context = {"series": found, "form": form}
    return render(request, "tournaments/season/series_form.html", context, status=status)


@director_required
def desk_series_workbook(request: HttpRequest, series: str) -> HttpResponse:
    found = _directed_series(request, series)
    out = io.BytesIO()
    write_series_workbook(found, out)
    return attach(HttpResponse(out.getvalue(), content_type=XLSX), *series_workbook_names(found))


@director_required
@require_http_methods(["GET", "POST"])
def desk_players(request: HttpRequest) -> HttpResponse:
    """The registry: merge a duplicate entered with a typo into the player kept; the merges done."""
    form = MergeForm(request.POST or None)
    status = 200
    if request.method == "POST" and form.is_valid():
        kept, duplicate = form.cleaned_data["kept"], form.cleaned_data["duplicate"]
        try:
            registry.merge_players(kept, duplicate, request.user)
        except registry.MergeError as exc:
            form.add_error(None, exc.message)
            status = exc.status
        else:
            messages.success(
                request, _("%(b)s is merged into %(a)s.") % {"a": kept.name, "b": duplicate.name}
            )
            return redirect("desk-players")
    query = request.GET.get("q", "")[:100].replace("\x00", "")
    players = Player.objects.order_by("name", "pk")
    if query:
        players = players.filter(Q(name__icontains=query) | Q(club__icontains=query))
    context = {
        "form": form,
        "players": players[:200],
        "query": query,
        "merges": PlayerMerge.objects.select_related("kept", "merged_by")[:20],
    }
    return render(request, "tournaments/season/players.html", context, status=status)


@desk_page
@require_POST
def desk_seed_by_rating(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    try:
        services.seed_by_rating(tournament, request.user)
    except services.SeasonError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("The pairs are seeded by rating."))
    return redirect("desk-pairs", slug=tournament.slug)
