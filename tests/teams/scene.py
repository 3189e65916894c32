"""Small team leagues built through the team services: six teams in one zone, three tables a match; two zones
of three teams, two tables a match, for the playoffs."""

from __future__ import annotations

import datetime as dt

from django.contrib.auth import get_user_model

from tests.desk.helpers import finish
from tournaments.league.playoffs import after_table
from tournaments.models import Team, TeamMatch, Tournament
from tournaments.teams import services

FIRST_DAY = dt.date.today() + dt.timedelta(days=30)  # line-ups still due


def league(
    teams: int = 6, tables: int = 3, scoring: str = "table_points", zone: str = "A", slug: str = "league"
) -> Tournament:
    t = Tournament.objects.create(name="联赛", slug=slug, ruleset={"preset": "standard"})
    services.save_team_event(t, tables=tables, scoring=scoring)
    for i in range(1, teams + 1):
        pairs = [(f"队{i}甲{j}", f"队{i}乙{j}") for j in range(1, tables + 2)]
        services.add_team(
            t, services.TeamEntry(f"第{i}队", pairs, club=f"俱乐部{i}", venue=f"场馆{i}", zone=zone)
        )
    services.schedule_league(t, FIRST_DAY)
    return t


def captain(team, username: str):
    account = get_user_model().objects.create_user(username=username, password="captain-pass-1")
    services.set_captain(team, account)
    return account


def hand_in_both(fixture, by) -> None:
    for team in (fixture.home, fixture.away):
        services.hand_in_lineup(
            fixture, team, [p.pk for p in services.roster(team)][: fixture_tables(fixture)], by
        )


def fixture_tables(fixture) -> int:
    return fixture.round.tournament.team_event.tables


def play(fixture, home_wins: int) -> None:
    """Finish the fixture's tables: the home pair wins the first ``home_wins`` (6 to 3), loses the others. Each
    table's result is set directly, so the next playoff fixture is asked for as the match fold asks for it
    (``after_table``)."""
    for tt in fixture.tables.select_related("match"):
        m = tt.match
        home_ns = tt.number % 2 == 1
        home_pair = m.pair_ns if home_ns else m.pair_ew
        away_pair = m.pair_ew if home_ns else m.pair_ns
        winner = home_pair if tt.number <= home_wins else away_pair
        high, low = "6", "3"
        ns_won = winner == m.pair_ns
        after_table(finish(m, winner, high if ns_won else low, low if ns_won else high))


def two_zones(per_zone: int = 3, tables: int = 2, slug: str = "playoffs") -> Tournament:
    """Two zones (北区 first, then 南区) of ``per_zone`` teams; in each, team 1 is the strongest."""
    t = Tournament.objects.create(name="季后赛", slug=slug, ruleset={"preset": "standard"})
    services.save_team_event(t, tables=tables)
    for zone in ("北区", "南区"):
        for i in range(1, per_zone + 1):
            pairs = [(f"{zone}{i}甲{j}", f"{zone}{i}乙{j}") for j in range(tables)]
            services.add_team(t, services.TeamEntry(f"{zone}{i}队", pairs, venue=f"{zone}{i}馆", zone=zone))
    services.schedule_league(t)
    return t


def strength(team: Team) -> int:
    return -int(team.name[2:-1])  # 北区1队 is the best of its zone


def play_league(t: Tournament, director) -> None:
    """Every league fixture played: the stronger team wins every table."""
    fixtures = TeamMatch.objects.filter(round__tournament=t).select_related("home", "away", "round")
    for fx in fixtures:
        hand_in_both(fx, director)
        play(fx, home_wins=2 if strength(fx.home) > strength(fx.away) else 0)
