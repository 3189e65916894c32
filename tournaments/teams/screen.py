"""The projector screen of a team event: every zone's table and the current match day's fixtures with their
results, in pages, instead of the pairs' seating and standings (``public.screen_data.register_panels``).

Each panel follows the public switches as the team pages do: the tables with the standings, the fixtures with
the pairings, their scores with the results. A pairs event answers None: the screen shows the pairs' panels."""

from __future__ import annotations

from django.utils.translation import gettext as _

from tournaments.competition import access
from tournaments.league.playoffs import playoff_picture
from tournaments.league.results import current_day, results, shown, zone_table
from tournaments.models import TeamMatch, Tournament, zones_or_field
from tournaments.public.screen_data import STANDINGS_PAGE, Panel, pages
from tournaments.teams.models import team_event

FIXTURES_PAGE = 10  # a line a fixture, team names on both sides: fewer than the standings fit


def team_panels(tournament: Tournament, user) -> list[Panel] | None:
    event = team_event(tournament)
    if event is None:
        return None
    panels: list[Panel] = []
    if access.can_see_page(user, tournament, "public_pairings"):
        day = current_day(tournament)
        fixtures = list(
            TeamMatch.objects.filter(round__tournament=tournament, round__number=day or 0)
            .select_related("home", "away", "zone")
            .order_by("number")
        )
        with_results = access.can_see_page(user, tournament, "public_results")
        found = results(tournament, fixtures) if with_results else {}
        lines = []
        for fx in fixtures:
            res = found.get(fx.pk)
            lines.append(
                {
                    "home": fx.home.name,
                    "away": fx.away.name,
                    "zone": fx.zone.name if fx.zone else "",
                    "score": f"{shown(res.home_score, event.scoring)} : {shown(res.away_score, event.scoring)}"
                    if res
                    else "",
                    "winner": res.winner if res else None,
                }
            )
        in_playoffs = bool(day and event.playoff_start and day >= event.playoff_start)
        picture = playoff_picture(tournament, event, show_results=with_results) if in_playoffs else None
        if picture is not None:
            stages = playoff_stages(picture)
            for fx, line in zip(fixtures, lines, strict=True):
                line["stage"] = stages.get(fx.pk, "")
        chunks = pages(lines, FIXTURES_PAGE)
        for n, page in enumerate(chunks, start=1):
            title = _("Match day %(n)s") % {"n": day} if day else _("Fixtures and results")
            if in_playoffs:
                title = _("Playoffs")
            panels.append(Panel("fixtures", f"fixtures-{n}", title, page, {"page": n, "pages": len(chunks)}))
        if picture is not None and picture["placings"]:
            rows = [{"place": place, "team": team.name} for place, team in picture["placings"]]
            panels.append(Panel("placings", "placings", _("Final placings"), rows, {"page": 1, "pages": 1}))
    if access.can_see_page(user, tournament, "public_standings"):
        for zone in zones_or_field(tournament):
            rows = [
                {"line": line, "score": shown(line.score, event.scoring)}
                for line in zone_table(tournament, zone)
            ]
            chunks = pages(rows, STANDINGS_PAGE)
            title = _("Zone table %(zone)s") % {"zone": zone.name} if zone else _("Team standings")
            key = f"zone-{zone.pk if zone else 0}"
            for n, page in enumerate(chunks, start=1):
                panels.append(Panel("zone", f"{key}-{n}", title, page, {"page": n, "pages": len(chunks)}))
    return panels


def playoff_stages(picture: dict) -> dict[int, str]:
    """Each playoff fixture's stage by its id (the final, the semi-finals …, the third-place match)."""
    stages = {
        tie.fixture.pk: column.title for column in picture["columns"] for tie in column.ties if tie.fixture
    }
    if picture["third"] is not None and picture["third"].fixture is not None:
        stages[picture["third"].fixture.pk] = _("Third-place match")
    return stages
