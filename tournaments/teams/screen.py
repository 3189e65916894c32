"""The projector screen of a team event: every zone's table and the current match day's fixtures with their
results, in pages, instead of the pairs' seating and standings (``public.screen_data.register_panels``).

Each panel follows the public switches as the team pages do: the tables with the standings, the fixtures with
the pairings, their scores with the results. A pairs event answers None: the screen shows the pairs' panels."""

from __future__ import annotations

from django.utils.translation import gettext as _

from tournaments.competition import access
from tournaments.league.results import current_day, results, shown, zone_table
from tournaments.models import TeamMatch, Tournament
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
            TeamMatch.objects.filter(round__tournament=tournament, round__number=day)
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
        chunks = pages(lines, FIXTURES_PAGE)
        for n, page in enumerate(chunks, start=1):
            title = _("Match day %(n)s") % {"n": day} if day else _("Fixtures and results")
            if day and event.playoff_start and day >= event.playoff_start:
                title = _("Playoffs")
            panels.append(Panel("fixtures", f"fixtures-{n}", title, page, {"page": n, "pages": len(chunks)}))
    if access.can_see_page(user, tournament, "public_standings"):
        for zone in list(tournament.zones.all()) or [None]:
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
