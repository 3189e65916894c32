"""The public's pages: home, first run, a tournament's overview, standings, rounds, results, pairs, deal logs.

Who may see what is asked of ``tournaments.competition.access``; these views only pick the tournament, rounds and tables.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import login
from django.db.models import F, Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.translation import pgettext
from django.views.decorators.http import require_http_methods
from django_tables2 import RequestConfig

from tournaments.competition import access
from tournaments.competition.accounts import create_director, site_is_new
from tournaments.competition.display import match_status
from tournaments.competition.page_guards import tournament_page
from tournaments.competition.ruleset_settings import setting_label
from tournaments.duplicate import results as duplicate_results
from tournaments.duplicate.display import figure
from tournaments.duplicate.movement import round_boards
from tournaments.duplicate.overall import overall
from tournaments.duplicate.visibility import shown_deals
from tournaments.models import Deal, Match, Organisation, Round, Tournament, captained_teams
from tournaments.pairing.bracket import final_placings
from tournaments.people.forms import DirectorSetupForm
from tournaments.public.caching import public_cache
from tournaments.public.history import rank_picture
from tournaments.public.pair_now import pair_now
from tournaments.standings.compute import compute_standings, standings_title, tie_break_columns
from tournaments.standings.grids import (
    MatchGrid,
    PairGrid,
    PairingGrid,
    PairMatchGrid,
    ResultGrid,
    StandingsGrid,
)


def home(request: HttpRequest) -> HttpResponse:
    if site_is_new():
        return redirect("setup")
    my_matches = []
    if request.user.is_authenticated:
        my_matches = (
            access.published(access.own_matches(request.user, Match.objects.all()))
            .exclude(state=Match.State.FINISHED)
            .select_related("round__tournament", "pair_ns", "pair_ew")
            .order_by("round__tournament", "round__number", "table")
        )
    return render(
        request,
        "tournaments/public/home.html",
        {
            "tournaments": access.visible_tournaments(
                request.user,
                Tournament.objects.select_related("organisation").order_by(
                    F("organisation__name").asc(nulls_last=True), "-start_date", "name"
                ),
            ),
            "my_organisations": Organisation.objects.filter(pk__in=list(access.memberships(request.user))),
            "my_matches": my_matches,
            "my_teams": captained_teams(request.user),
        },
    )


@require_http_methods(["GET", "POST"])
def setup(request: HttpRequest) -> HttpResponse:
    """First run (as in Tabbycat): create the director's account; refused once any account exists."""
    if not site_is_new():
        return redirect("home")
    form = DirectorSetupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = create_director(form.cleaned_data["username"], form.cleaned_data["password1"])
        login(request, user, backend=settings.AUTHENTICATION_BACKENDS[-1])  # the password backend
        return redirect("home")
    return render(request, "tournaments/setup/first_director.html", {"form": form})


@tournament_page
def tournament_for(request: HttpRequest, tournament: Tournament) -> Tournament:
    if not access.can_read_tournament(request.user, tournament):
        raise Http404
    return tournament


@public_cache(reads=("p-sort", "m-sort", "m-round"))
def tournament_detail(request: HttpRequest, slug: str) -> HttpResponse:
    """The overview: the pairs; the matches when pairings are public, with their levels when results are."""
    tournament = tournament_for(request, slug)
    links = links_for(request, tournament)
    rows = tournament.pairs.select_related("player1", "player2")
    pairs = PairGrid(
        rows,
        prefix="p-",
        slug=tournament.slug if links["show_results"] else None,
        exclude=() if rows.filter(withdrawn=True).exists() else ("withdrawn",),  # no empty column
    )
    config = RequestConfig(request, paginate=False)
    config.configure(pairs)
    matches, current = None, shown_round(links["rounds"], request.GET.get("m-round"))
    if links["show_pairings"] and current is not None:  # one round's matches; the others a link away
        matches = MatchGrid(
            current.matches.select_related("round", "pair_ns", "pair_ew", "judge"),
            prefix="m-",
            exclude=("round",)
            if links["show_results"]
            else ("round", "levels"),  # the heading names the round
        )
        config.configure(matches)
    changed = changed_settings(tournament)
    return render(
        request,
        "tournaments/public/tournament.html",
        {
            "tournament": tournament,
            "pairs": pairs,
            "matches": matches,
            "current_round": current,
            "changed_settings": changed,
            "changed_names": pgettext("list separator", ", ").join(changed),
            **links,
        },
    )


def shown_round(rounds, asked: str | None, *, finished_only: bool = False) -> Round | None:
    """The round a page shows one of: the one asked for (``?round=N``) if visible, else the latest (with a
    finished match, for results); None when there is none. Keeps a 64-pair, 9-round event's pages small."""
    rounds = list(rounds)
    try:
        number = int(asked or "")
    except ValueError:  # not a number, or one of thousands of digits: the latest round
        number = None
    found = next((r for r in rounds if r.number == number), None)
    if found is not None:
        return found
    if finished_only:
        done = set(
            Match.objects.filter(round__in=rounds, state=Match.State.FINISHED).values_list(
                "round_id", flat=True
            )
        )
        rounds = [r for r in rounds if r.pk in done] or rounds
    return max(rounds, key=lambda r: r.number, default=None)


def changed_settings(tournament: Tournament) -> list[str]:
    """The settings the tournament plays otherwise than its preset, by name in the active language (its spec
    is stored shortest: every key but the preset is a change)."""
    spec = tournament.ruleset
    return [setting_label(name) for name in spec if name != "preset"] if isinstance(spec, dict) else []


# --- who may see what ---------------------------------------------------------------------------------------


@tournament_page
def public_tournament(request: HttpRequest, tournament: Tournament, switch: str) -> Tournament:
    """The tournament when its page ``switch`` (public_standings …) is on, or for the TD; else 404."""
    if not access.can_see_page(request.user, tournament, switch):
        raise Http404
    return tournament


def links_for(request: HttpRequest, tournament: Tournament) -> dict:
    """Which public pages the visitor may open (the TD sees them all)."""
    user = request.user
    rounds = visible_rounds(request, tournament)
    show_pairings = access.can_see_page(user, tournament, "public_pairings")
    start = tournament.bracket_start
    return {
        "show_standings": access.can_see_page(user, tournament, "public_standings"),
        "show_pairings": show_pairings,
        "show_results": access.can_see_page(user, tournament, "public_results"),
        "show_deal_log": access.can_see_page(user, tournament, "public_deal_log"),
        "show_bracket": show_pairings and start is not None and rounds.filter(number=start).exists(),
        "rounds": rounds,
        "featured": list(tournament.featured_tables.values_list("table", flat=True)),  # followed live
    }


def visible_rounds(request: HttpRequest, tournament: Tournament):
    rounds = tournament.rounds.all()
    return rounds if access.sees_drafts(request.user, tournament) else rounds.exclude(state=Round.State.DRAFT)


def _pair_url(tournament: Tournament):
    return lambda pair: reverse("pair", args=[tournament.slug, pair.pk])


def _deal_log_url(tournament: Tournament):
    return lambda match: reverse("deal-log", args=[tournament.slug, match.pk])


# --- public pages -------------------------------------------------------------------------------------------


@public_cache(reads=("round", "sort", "scope"))
def standings_page(request: HttpRequest, slug: str) -> HttpResponse:
    """Live standings: refreshes itself (static/js/standings.js fetches the table with ``X-Live: 1``); ``?round=N``.
    Once the tournament is finished they are the final standings, and no longer refresh."""
    tournament = public_tournament(request, slug, "public_standings")
    # A team event (its settings reached by their one-to-one link, so this room never imports the teams room,
    # which builds on it) ranks its teams; its pairs' records are on the team pages.
    if hasattr(tournament, "team_event"):
        return redirect("team-tables", slug=tournament.slug)
    if tournament.format == Tournament.Format.DUPLICATE:
        return duplicate_standings(request, tournament)
    try:
        up_to = int(request.GET["round"])
    except (KeyError, ValueError):
        up_to = None
    links = links_for(request, tournament)
    table = StandingsGrid(
        [line.as_row() for line in compute_standings(tournament, up_to)],
        tie_breaks=tie_break_columns(tournament),
        pair_url=_pair_url(tournament) if links["show_results"] else None,
    )
    RequestConfig(request, paginate=False).configure(table)
    context = {
        "tournament": tournament,
        "table": table,
        "up_to": up_to,
        "title": standings_title(tournament, up_to),
        "updated": timezone.localtime(),
        "tie_break_labels": [label for _code, label in tie_break_columns(tournament)],
        "placings": final_placings(tournament) if up_to is None and tournament.bracket_start else [],
        **links,
    }
    live = request.headers.get("X-Live") == "1"
    context["rank_chart"] = "" if live else rank_picture(tournament)
    response = render(
        request,
        "tournaments/standings/fragment.html" if live else "tournaments/public/standings.html",
        context,
    )
    patch_vary_headers(response, ["X-Live"])
    return response


def duplicate_standings(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """A duplicate's standings: NS and EW pairs ranked apart on their percentage over the boards the visitor
    may see (the public: the complete boards, ``duplicate.visibility``)."""
    venues = tournament.venue_results.exists()  # a simultaneous session: the overall ranking too
    across = venues and request.GET.get("scope") == "all"
    if across:
        rows = [
            (x.direction, x.place, x.entrant.name, x.entrant.venue, x.matchpoints, x.top, x.percentage)
            for x in overall(tournament, request.user).standings
        ]
    else:
        rows = [
            (x.direction, x.place, x.pair.name, "", x.matchpoints, x.top, x.percentage)
            for x in duplicate_results.standings(tournament, request.user)
        ]
    names = ("place", "name", "venue", "matchpoints", "top", "percentage")
    directions = [
        (code, [dict(zip(names, (*r[1:4], figure(r[4]), *r[5:]), strict=True)) for r in rows if r[0] == code])
        for code in ("NS", "EW")
    ]
    return render(
        request,
        "tournaments/public/duplicate_standings.html",
        {
            "tournament": tournament,
            "directions": directions,
            "venues": venues,
            "across": across,
            **links_for(request, tournament),
        },
    )


@public_cache(reads=("p-sort", "r-sort"))
def round_page(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A round's pairing list (printable); the results once the matches are over."""
    tournament = public_tournament(request, slug, "public_pairings")
    rnd = get_object_or_404(visible_rounds(request, tournament), number=number)
    matches = rnd.matches.select_related(
        "pair_ns__player1", "pair_ns__player2", "pair_ew__player1", "pair_ew__player2", "judge", "winner"
    )
    links = links_for(request, tournament)
    pairing = PairingGrid(matches, prefix="p-")
    RequestConfig(request, paginate=False).configure(pairing)
    results, boards = None, round_boards(rnd)
    if links["show_results"] and not boards:  # a duplicate's results are its boards' (the boards pages)
        results = ResultGrid(
            matches, prefix="r-", deal_log_url=_deal_log_url(tournament) if links["show_deal_log"] else None
        )
        RequestConfig(request, paginate=False).configure(results)
    return render(
        request,
        "tournaments/public/round.html",
        {
            "tournament": tournament,
            "round": rnd,
            "pairing": pairing,
            "results": results,
            "byes": rnd.byes.select_related("pair"),
            "boards": [
                {"match": m, "boards": ", ".join(map(str, boards[m.pk]))}
                for m in matches.order_by("table")
                if m.pk in boards
            ],
            **links,
        },
    )


@public_cache(reads=("round", "sort"))
def results_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The finished matches of one round (``?round=N``, the latest by default), with a picker for the others."""
    tournament = public_tournament(request, slug, "public_results")
    links = links_for(request, tournament)
    current = shown_round(links["rounds"], request.GET.get("round"), finished_only=True)
    matches = Match.objects.filter(round=current, state=Match.State.FINISHED).select_related(
        "round", "pair_ns__player1", "pair_ns__player2", "pair_ew__player1", "pair_ew__player2", "winner"
    )
    table = ResultGrid(matches, deal_log_url=_deal_log_url(tournament) if links["show_deal_log"] else None)
    RequestConfig(request, paginate=False).configure(table)
    context = {"tournament": tournament, "table": table, "current_round": current, **links}
    return render(request, "tournaments/public/results.html", context)


@public_cache(reads=("sort",))
def pair_page(request: HttpRequest, slug: str, pair_id: int) -> HttpResponse:
    """One pair: its players, its line in the standings and its matches."""
    tournament = public_tournament(request, slug, "public_results")
    pair = get_object_or_404(tournament.pairs.select_related("player1", "player2"), pk=pair_id)
    links = links_for(request, tournament)
    matches = (
        Match.objects.filter(round__in=visible_rounds(request, tournament))
        .filter(Q(pair_ns=pair) | Q(pair_ew=pair))
        .select_related(
            "round", "pair_ns__player1", "pair_ns__player2", "pair_ew__player1", "pair_ew__player2", "winner"
        )
    )
    table = PairMatchGrid(matches, deal_log_url=_deal_log_url(tournament) if links["show_deal_log"] else None)
    RequestConfig(request, paginate=False).configure(table)
    line = next((x for x in compute_standings(tournament) if x.pair.pk == pair.pk), None)
    return render(
        request,
        "tournaments/public/pair.html",
        {
            "tournament": tournament,
            "pair": pair,
            "table": table,
            "line": line,
            "tie_breaks": [(label, line.tiebreaks[code]) for code, label in tie_break_columns(tournament)]
            if line
            else [],
            "byes": pair.byes.filter(round__in=visible_rounds(request, tournament)).select_related("round"),
            "now": pair_now(tournament, pair),
            **links,
        },
    )


@public_cache
def deal_log_page(request: HttpRequest, slug: str, match_id: int) -> HttpResponse:
    """A match's confirmed deals: number, banker, level, trump, attackers' points, kitty bonus, result."""
    tournament = public_tournament(request, slug, "public_deal_log")
    match = get_object_or_404(
        Match.objects.select_related("round", "pair_ns", "pair_ew", "winner"),
        pk=match_id,
        round__in=visible_rounds(request, tournament),
    )
    rows = [
        {"deal": deal, "banker_pair": match.pair_ns if deal.banker in ("N", "S") else match.pair_ew}
        for deal in shown_deals(
            match.deals.filter(state=Deal.State.CONFIRMED), tournament, request.user
        ).order_by("number")
    ]
    return render(
        request,
        "tournaments/public/deal_log.html",
        {
            "tournament": tournament,
            "match": match,
            "rows": rows,
            "result": match_status(match),
            "details": access.can_read_deals(request.user, match),  # each deal's review page
            **links_for(request, tournament),
        },
    )
