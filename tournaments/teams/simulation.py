"""A league the size of Beijing's 2014 双升 league simulated, for its pages' weights and the zone table's speed:
teams with rosters of registry players in zones, the double round robin made by the services, then match days
played — line-ups handed in through the service, each table's result entered quickly (its final levels and
winner, as a table without trick entry reports them), not trick by trick."""

from __future__ import annotations

import datetime as dt
import random

from django.db import transaction

from tournaments.models import Match, Team, TeamMatch, Tournament
from tournaments.teams import services

LEVELS = "23456789TJQKA"


def zone_sizes(teams: int, zones: int) -> list[int]:
    """Teams per zone as even as they go (124 in 5: 25, 25, 25, 25, 24)."""
    return [teams // zones + (1 if z < teams % zones else 0) for z in range(zones)]


@transaction.atomic
def build_league(
    slug: str,
    *,
    teams: int = 124,
    zones: int = 5,
    pairs: int = 5,
    tables: int = 3,
    first_day: dt.date | None = None,
) -> Tournament:
    """The league's teams (``pairs`` pairs each: 124 × 5 × 2 = 1,240 players) and all its fixtures."""
    t = Tournament.objects.create(name=f"Simulated league {slug}", slug=slug, ruleset={"preset": "standard"})
    services.save_team_event(t, tables=tables)
    n = 0
    for z, size in enumerate(zone_sizes(teams, zones), 1):
        for _i in range(size):
            n += 1
            roster = [(f"{slug}-{n}-{j}a", f"{slug}-{n}-{j}b") for j in range(1, pairs + 1)]
            entry = services.TeamEntry(
                f"Team {n}", roster, club=f"Club {n}", venue=f"Hall {n}", zone=f"Zone {z}"
            )
            services.add_team(t, entry)
    services.schedule_league(t, first_day or dt.date.today() + dt.timedelta(days=1))
    return t


def play_day(t: Tournament, number: int, director, rng: random.Random) -> int:
    """Every fixture of match day ``number``: line-ups by the director (random pairs of each roster), then each
    table's final levels and winner; returns the fixtures played."""
    tables = t.team_event.tables
    fixtures = TeamMatch.objects.filter(round__tournament=t, round__number=number).select_related(
        "home", "away"
    )
    rosters = {
        team.pk: [tp.pair_id for tp in team.roster.all()] for team in Team.objects.filter(tournament=t)
    }
    played = 0
    for fx in fixtures:
        with transaction.atomic():
            for team in (fx.home, fx.away):
                services.hand_in_lineup(fx, team, rng.sample(rosters[team.pk], tables), director)
        played += 1
    matches = list(
        Match.objects.filter(round__tournament=t, round__number=number, state=Match.State.SCHEDULED)
    )
    for m in matches:
        ns, ew = rng.sample(range(len(LEVELS)), 2)
        m.level_ns, m.level_ew = LEVELS[ns], LEVELS[ew]
        m.winner_id = m.pair_ns_id if ns > ew else m.pair_ew_id
        m.state, m.ended_by = Match.State.FINISHED, Match.EndedBy.TARGET
    Match.objects.bulk_update(
        matches, ["level_ns", "level_ew", "winner", "state", "ended_by"], batch_size=500
    )
    return played
