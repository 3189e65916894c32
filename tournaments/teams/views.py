"""The team pages: the public's zone tables, fixtures by match day, a fixture with its tables and line-ups, a
team's page; the desk's team settings, teams, fixtures and captains; a captain's line-up.

Thin: who may see what is asked of ``tournaments.competition.access`` and ``teams.services``; the writes are the
services'; the sums are ``teams.results``'."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from rules.ranks import rank_text
from tournaments.competition import access
from tournaments.competition.page_guards import desk_page, tournament_page
from tournaments.league import playoffs
from tournaments.league.results import current_day, results, shown, zone_table
from tournaments.models import LineUp, Match, Team, TeamEvent, TeamMatch, Tournament, zones_or_field
from tournaments.people.errors import PeopleError
from tournaments.public.caching import public_cache
from tournaments.teams import playoff_desk, services
from tournaments.teams.duplicate_match import scale_context
from tournaments.teams.forms import (
    CaptainForm,
    DeadlineForm,
    LineUpForm,
    PostponeForm,
    ScheduleForm,
    TeamEventForm,
    TeamForm,
)
from tournaments.teams.models import team_event
from tournaments.teams.swiss import pair_swiss_round

FIXTURE = ("home", "away", "zone", "round")


@tournament_page
def _team_tournament(
    request: HttpRequest, tournament: Tournament, switch: str, fixture_id: int | None = None
) -> tuple[Tournament, TeamEvent]:
    """The tournament and its team settings when it is a team event and the page's switch is on (or, for the
    fixture ``fixture_id``, the user captains one of its teams: a hidden league's captain hands in there); else
    404."""
    event = team_event(tournament)
    if event is None:
        raise Http404
    if not access.can_see_page(request.user, tournament, switch) and not captains_fixture(
        request.user, tournament, fixture_id
    ):
        raise Http404
    return tournament, event


def captains_fixture(user, tournament: Tournament, fixture_id: int | None) -> bool:
    """Whether the user captains the home or the away team of this tournament's fixture."""
    if fixture_id is None or not getattr(user, "is_authenticated", False) or not 0 < fixture_id < 2**63:
        return False
    mine = Q(home__captain=user) | Q(away__captain=user)
    return TeamMatch.objects.filter(mine, round__tournament=tournament, pk=fixture_id).exists()


def _lines(tournament, event, fixtures) -> list[dict]:
    """Each fixture with its result shown in the event's scoring."""
    found = results(tournament, fixtures)
    out = []
    for fx in fixtures:
        res = found.get(fx.pk)
        out.append(
            {
                "fixture": fx,
                "home": shown(res.home_score, event.scoring) if res else "",
                "away": shown(res.away_score, event.scoring) if res else "",
                "winner": res.winner if res else None,
            }
        )
    return out


@public_cache
def tables_page(request: HttpRequest, slug: str) -> HttpResponse:
    """Every zone's table (a team Swiss: one table of all teams)."""
    tournament, event = _team_tournament(request, slug, "public_standings")
    zones = zones_or_field(tournament)
    shown_zones = []
    for zone in zones:
        rows = [
            {"line": line, "score": shown(line.score, event.scoring)} for line in zone_table(tournament, zone)
        ]
        shown_zones.append({"zone": zone, "rows": rows})
    return render(
        request,
        "tournaments/teams/tables.html",
        {"tournament": tournament, "event": event, "zones": shown_zones},
    )


@public_cache(reads=("day",))
def fixtures_page(request: HttpRequest, slug: str) -> HttpResponse:
    """One match day's fixtures and results (``?day=N``, the first unfinished by default), a picker for the others."""
    tournament, event = _team_tournament(request, slug, "public_pairings")
    days = list(
        tournament.rounds.filter(team_matches__isnull=False).distinct().values_list("number", flat=True)
    )
    try:
        day = int(request.GET["day"])
    except (KeyError, ValueError):
        day = None
    if day not in days:
        day = current_day(tournament, days)
    fixtures = TeamMatch.objects.filter(round__tournament=tournament, round__number=day or 0).select_related(
        *FIXTURE
    )
    return render(
        request,
        "tournaments/teams/fixtures.html",
        {
            "tournament": tournament,
            "event": event,
            "days": days,
            "day": day,
            "lines": _lines(tournament, event, fixtures),
        },
    )


@public_cache
def playoffs_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The playoffs' bracket of team matches (the teams when the pairings are public, the scores and who went
    through when the results are too), and its fixtures."""
    tournament, event = _team_tournament(request, slug, "public_pairings")
    show = access.can_see_page(request.user, tournament, "public_results")
    picture = playoffs.playoff_picture(tournament, event, show_results=show)
    fixtures = picture["fixtures"] if picture else []
    return render(
        request,
        "tournaments/teams/playoffs.html",
        {
            "tournament": tournament,
            "event": event,
            "bracket": picture,
            "entrant_label": _("team"),
            "show_results": show,
            "lines": _lines(tournament, event, fixtures) if show else [{"fixture": fx} for fx in fixtures],
        },
    )


def _tables(fixture: TeamMatch, event) -> list[dict]:
    rows = []
    tables = fixture.tables.select_related(
        "match__pair_ns__player1",
        "match__pair_ns__player2",
        "match__pair_ew__player1",
        "match__pair_ew__player2",
    )
    for tt in tables:
        m = tt.match
        home_ns = tt.number % 2 == 1
        rows.append(
            {
                "number": m.table,
                "match": m,
                "home_pair": m.pair_ns if home_ns else m.pair_ew,
                "away_pair": m.pair_ew if home_ns else m.pair_ns,
                "home_side": _("North–South") if home_ns else _("East–West"),
                "levels": f"{rank_text(m.level_ns if home_ns else m.level_ew)} : "
                f"{rank_text(m.level_ew if home_ns else m.level_ns)}",
                "finished": m.state == Match.State.FINISHED,
            }
        )
    return rows


@public_cache
@require_http_methods(["GET", "POST"])
def fixture_page(request: HttpRequest, slug: str, fixture_id: int) -> HttpResponse:
    """A fixture: its tables once seated (each an ordinary match), the line-ups once both are in, and the form
    of the line-up for the team's captain (or the director) while it may be handed in."""
    tournament, event = _team_tournament(request, slug, "public_pairings", fixture_id)
    fixture = get_object_or_404(
        TeamMatch.objects.filter(round__tournament=tournament).select_related(*FIXTURE), pk=fixture_id
    )
    user = request.user
    director = access.directs(user, tournament)
    mine = services.side_of(fixture, user)
    lineups = list(fixture.lineups.select_related("team"))
    seated = fixture.tables.exists()
    teams = [t for t in (fixture.home, fixture.away) if director or t == mine] if not seated else []
    forms = {}
    for team in teams:
        if not services.may_hand_in(fixture, team, user):
            continue
        given = next((lu.pairs for lu in lineups if lu.team_id == team.pk), None)
        initial = {f"table_{i}": p for i, p in enumerate(given or [], 1)}
        posted = (
            request.POST if request.method == "POST" and request.POST.get("team") == str(team.pk) else None
        )
        form = LineUpForm(
            posted,
            initial=initial,
            pairs=services.roster(team),
            tables=[services.hall_table(fixture, i, event.tables) for i in range(1, event.tables + 1)],
            prefix=f"t{team.pk}",
        )
        if posted is not None and form.is_valid():
            try:
                services.hand_in_lineup(fixture, team, form.pair_ids(), user)
            except services.TeamError as exc:
                form.add_error(None, exc.message)
            else:
                messages.success(request, _("The line-up of %(team)s is in.") % {"team": team.name})
                return redirect("team-fixture", slug=tournament.slug, fixture_id=fixture.pk)
        forms[team.pk] = (team, form)
    if request.method == "POST" and not forms:
        raise PermissionDenied
    both = services.lineups_visible(fixture, lineups)
    names = {}
    if both or director or mine:
        wanted = [pk for lu in lineups for pk in lu.pairs]
        pairs = tournament.pairs.filter(pk__in=wanted).select_related("player1", "player2").in_bulk()
        for lu in lineups:
            if both or director or lu.team_id == getattr(mine, "pk", None):
                names[lu.team] = [pairs.get(pk) for pk in lu.pairs]
    res = results(tournament, [fixture]).get(fixture.pk)
    return render(
        request,
        "tournaments/teams/fixture.html",
        {
            "tournament": tournament,
            "event": event,
            "fixture": fixture,
            "tables": _tables(fixture, event),
            "forms": list(forms.values()),
            "lineups": names,
            "handed_in": {lu.team.name for lu in lineups},
            "result": res,
            "home_score": shown(res.home_score, event.scoring) if res else "",
            "away_score": shown(res.away_score, event.scoring) if res else "",
            **scale_context(fixture, event, user),
            "is_captain": mine is not None,
            "late": mine is not None and not seated and services.deadline_passed(fixture) and not director,
            "deadline_form": DeadlineForm(
                initial={
                    "at": timezone.localtime(fixture.lineup_deadline).time()
                    if fixture.lineup_deadline
                    else None
                }
            ),
        },
    )


@public_cache
def team_page(request: HttpRequest, slug: str, team_id: int) -> HttpResponse:
    """One team: its roster (each player's own page), its line in its zone's table, its fixtures and results."""
    tournament, event = _team_tournament(request, slug, "public_results")
    team = get_object_or_404(tournament.teams.select_related("zone", "captain"), pk=team_id)
    line = next((x for x in zone_table(tournament, team.zone) if x.team.pk == team.pk), None)
    fixtures = (
        TeamMatch.objects.filter(round__tournament=tournament)
        .filter(Q(home=team) | Q(away=team))
        .select_related(*FIXTURE)
    )
    played: dict[int, int] = {}
    for lu in LineUp.objects.filter(team=team, team_match__tables__isnull=False).distinct():
        for pk in lu.pairs:
            played[pk] = played.get(pk, 0) + 1
    roster = [{"pair": p, "played": played.get(p.pk, 0)} for p in services.roster(team)]
    return render(
        request,
        "tournaments/teams/team.html",
        {
            "tournament": tournament,
            "event": event,
            "team": team,
            "line": line,
            "score": shown(line.score, event.scoring) if line else "",
            "roster": roster,
            "lines": _lines(tournament, event, fixtures),
        },
    )


# --- the desk ----------------------------------------------------------------------------------------------


@desk_page
@require_http_methods(["GET", "POST"])
def desk_teams(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The team settings, the teams with their captains, the fixtures made (league) or the next round (Swiss)."""
    event = team_event(tournament)
    action = request.POST.get("action") if request.method == "POST" else None
    settings_form = TeamEventForm(
        request.POST if action == "settings" else None, instance=event, tournament=tournament
    )
    team_form = TeamForm(request.POST if action == "team" else None)
    schedule_form = ScheduleForm(request.POST if action == "schedule" else None)
    playoff_form = playoff_desk.playoff_form(request, tournament, event, action)
    done, preview = playoff_desk.playoff_step(request, tournament, playoff_form, action)
    if done is not None:
        return done
    try:
        if action == "settings" and settings_form.is_valid():
            services.save_team_event(tournament, **settings_form.cleaned_data)
            messages.success(request, _("The team settings are saved."))
            return redirect("desk-teams", slug=tournament.slug)
        if action == "team" and event and team_form.is_valid():
            d = team_form.cleaned_data
            entry = services.TeamEntry(d["name"], d["pairs"], d["club"], d["venue"], d["zone"])
            team = services.add_team(tournament, entry)
            messages.success(request, _("%(team)s is entered.") % {"team": team.name})
            return redirect("desk-teams", slug=tournament.slug)
        if action == "schedule" and event and schedule_form.is_valid():
            n = services.schedule_league(
                tournament, schedule_form.cleaned_data["first_day"], schedule_form.cleaned_data["days_apart"]
            )
            messages.success(request, _("%(n)s fixtures are made.") % {"n": n})
            return redirect("desk-teams", slug=tournament.slug)
        if action == "playoffs-next" and event:
            made = playoffs.advance_playoffs(tournament)
            if made:
                messages.success(request, _("%(n)s playoff fixtures are made.") % {"n": len(made)})
            else:
                messages.info(request, _("No playoff fixture is due: a tie before it is still open."))
            return redirect("desk-teams", slug=tournament.slug)
        if action == "swiss" and event:
            rnd = pair_swiss_round(tournament)
            messages.success(request, _("%(round)s is paired.") % {"round": rnd})
            return redirect("desk-teams", slug=tournament.slug)
    except services.TeamError as exc:
        messages.error(request, exc.message)
        return redirect("desk-teams", slug=tournament.slug)
    teams = tournament.teams.select_related("zone", "captain").order_by("zone__order", "seed", "name")
    return render(
        request,
        "tournaments/teams/desk.html",
        {
            "tournament": tournament,
            "event": event,
            "settings_form": settings_form,
            "team_form": team_form,
            "schedule_form": schedule_form,
            "playoff_form": playoff_form,
            "preview": preview,
            "redraw": bool(
                event and event.playoff_start and not playoffs.playoff_deal_started(tournament, event)
            ),
            "stale": [
                _(
                    "Round %(round)s, match %(n)s (%(fixture)s) has started, but the corrected results send "
                    "%(home)s and %(away)s there: fix it by hand in the admin."
                )
                % {
                    "round": fx.round.number,
                    "n": fx.number,
                    "fixture": fx,
                    "home": home.name,
                    "away": away.name,
                }
                for fx, home, away in (playoffs.stale_fixtures(tournament) if event else [])
            ],
            "teams": teams,
            "fixtures": TeamMatch.objects.filter(round__tournament=tournament).count(),
        },
    )


@desk_page
@require_POST
def desk_captain(request: HttpRequest, tournament: Tournament, team_id: int) -> HttpResponse:
    """The team's captain: an existing account linked by its user name, or a new one made (its password shown
    this once); empty: none."""
    team = get_object_or_404(Team, tournament=tournament, pk=team_id)
    form = CaptainForm(request.POST)
    if form.is_valid():
        name = form.cleaned_data["username"]
        try:
            if name:
                account, password = services.give_captain(team, name, form.cleaned_data["name"])
            else:
                services.set_captain(team, None)
                password = None
        except (services.TeamError, PeopleError) as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("The captain of %(team)s is saved.") % {"team": team.name})
            if password:  # a new account: its password, this once
                messages.warning(
                    request,
                    _(
                        "New account %(user)s, password %(password)s: give it to the captain (shown this once)."
                    )
                    % {"user": account.get_username(), "password": password},
                )
    else:
        messages.error(request, _("Write the user name with letters, digits and @ . + - _ only."))
    return redirect("desk-teams", slug=tournament.slug)


def _fixture_write(
    request: HttpRequest, tournament: Tournament, fixture_id: int, form_class, write, done, bad
):
    """A desk write on one fixture from a one-field form: ``write(fixture, cleaned_data)``; back to the fixture
    with ``done`` or the refusal (``bad`` when the form is not valid)."""
    fixture = get_object_or_404(TeamMatch, round__tournament=tournament, pk=fixture_id)
    form = form_class(request.POST)
    if form.is_valid():
        try:
            write(fixture, form.cleaned_data)
        except services.TeamError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, done)
    else:
        messages.error(request, bad)
    return redirect("team-fixture", slug=tournament.slug, fixture_id=fixture.pk)


@desk_page
@require_POST
def desk_postpone(request: HttpRequest, tournament: Tournament, fixture_id: int) -> HttpResponse:
    """A fixture postponed to a new date (or to a date still to be fixed)."""
    return _fixture_write(
        request,
        tournament,
        fixture_id,
        PostponeForm,
        lambda fx, d: services.postpone(fx, d["date"], request.user),
        _("The match is postponed."),
        _("Give the new date as a date."),
    )


@desk_page
@require_POST
def desk_deadline(request: HttpRequest, tournament: Tournament, fixture_id: int) -> HttpResponse:
    """The time on the match day by which the fixture's line-ups are due."""
    return _fixture_write(
        request,
        tournament,
        fixture_id,
        DeadlineForm,
        lambda fx, d: services.set_deadline(fx, d["at"]),
        _("The line-ups' deadline is saved."),
        _("Give the deadline as a time of day."),
    )
