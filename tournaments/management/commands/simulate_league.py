"""``manage.py simulate_league``: a league the size of Beijing's simulated, then its figures — the zone table's
time and every team page's weight (``tournaments.teams.simulation``)."""

from __future__ import annotations

import random
import time

from django.core.management.base import BaseCommand, CommandError
from django.test import Client
from django.urls import reverse

from tournaments.competition.accounts import create_director
from tournaments.league.results import zone_table
from tournaments.models import Match, Player, Tournament
from tournaments.teams.simulation import build_league, play_day

PAGE_LIMIT = 60 * 1024
TABLE_LIMIT = 1.0  # seconds for one zone's table


class Command(BaseCommand):
    help = "Simulate a team league (124 teams in 5 zones by default), then time its zone tables and weigh its pages."

    def add_arguments(self, parser):
        parser.add_argument("--slug", default="sim-league")
        parser.add_argument("--teams", type=int, default=124)
        parser.add_argument("--zones", type=int, default=5)
        parser.add_argument("--pairs", type=int, default=5, help="pairs on each team's roster")
        parser.add_argument("--tables", type=int, default=3)
        parser.add_argument("--days", type=int, default=8, help="match days played (8: 496 team matches)")
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument(
            "--weigh", action="store_true", help="only time and weigh an existing --slug's league"
        )

    def handle(self, *args, **o):
        if o["weigh"]:
            t = Tournament.objects.filter(slug=o["slug"]).first()
            if t is None:
                raise CommandError(f"no tournament at {o['slug']!r}")
            self.time_tables(t)
            self.weigh(t)
            return
        if Tournament.objects.filter(slug=o["slug"]).exists():
            raise CommandError(f"a tournament is already at {o['slug']!r}: give another --slug")
        director = create_director(f"sim-{o['slug']}"[:150], "simulated-director-1")
        rng = random.Random(o["seed"])
        start = time.perf_counter()
        t = build_league(o["slug"], teams=o["teams"], zones=o["zones"], pairs=o["pairs"], tables=o["tables"])
        self.stdout.write(
            f"built {t.teams.count()} teams, {t.zones.count()} zones in {time.perf_counter() - start:.1f} s"
        )
        played = 0
        for day in range(1, o["days"] + 1):
            played += play_day(t, day, director, rng)
        players = Player.objects.filter(name__startswith=f"{o['slug']}-").count()
        tables = Match.objects.filter(round__tournament=t, state=Match.State.FINISHED).count()
        self.stdout.write(
            f"{players} players, {played} team matches played ({tables} tables), {time.perf_counter() - start:.1f} s"
        )
        self.time_tables(t)
        self.weigh(t)

    def time_tables(self, t: Tournament) -> None:
        """Each zone's table computed from the database, timed (a benchmark: the goal is under a second)."""
        worst = 0.0
        for zone in t.zones.all():
            begin = time.perf_counter()
            rows = zone_table(t, zone)
            took = time.perf_counter() - begin
            worst = max(worst, took)
            self.stdout.write(f"zone table {zone.name}: {len(rows)} teams in {took * 1000:.0f} ms")
        self.stdout.write(
            f"every zone table under {TABLE_LIMIT:.0f} s (worst {worst * 1000:.0f} ms)"
            if worst < TABLE_LIMIT
            else f"A ZONE TABLE TOOK {worst:.2f} s (over {TABLE_LIMIT:.0f} s)"
        )

    def weigh(self, t: Tournament) -> None:
        """Each team page's weight for an anonymous visitor, and its second (cached) fetch's time."""
        client = Client(HTTP_HOST="localhost")
        team = t.teams.all()[0]
        fixture = t.rounds.get(number=1).team_matches.all()[0]
        pages = {
            "overview": reverse("tournament", args=[t.slug]),
            "team tables": reverse("team-tables", args=[t.slug]),
            "fixtures": reverse("team-fixtures", args=[t.slug]),
            "team": reverse("team", args=[t.slug, team.pk]),
            "fixture": reverse("team-fixture", args=[t.slug, fixture.pk]),
        }
        pages["playoffs"] = reverse("team-playoffs", args=[t.slug])
        pages["screen panels"] = reverse("screen-panels", args=[t.slug])
        pages["standings (pairs)"] = reverse("standings", args=[t.slug])
        worst = 0
        for name, url in pages.items():
            begin = time.perf_counter()
            response = client.get(url, HTTP_ACCEPT_LANGUAGE="zh-hans")
            first = time.perf_counter() - begin
            begin = time.perf_counter()
            client.get(url, HTTP_ACCEPT_LANGUAGE="zh-hans")
            cached = time.perf_counter() - begin
            size = len(response.content)
            worst = max(worst, size if response.status_code in (200, 302) else PAGE_LIMIT)
            self.stdout.write(
                f"{name:18} {response.status_code} {size / 1024:6.1f} KB  first {first * 1000:6.0f} ms  cached {cached * 1000:5.1f} ms"
            )
        self.stdout.write("every page under 60 KB" if worst < PAGE_LIMIT else "A PAGE IS OVER 60 KB")
