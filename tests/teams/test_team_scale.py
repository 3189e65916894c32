"""The team pages of a league the size of Beijing's 2014 双升 league (124 teams in five zones of 24–25, rosters
of five pairs, three tables a match) stay under 60 KB.

One zone of 25 teams is built and three match days are played (``tournaments.teams.simulation``, the same
builder as ``manage.py simulate_league``), which is what a page of the big league holds for one zone:

- a team's page lists its zone's double round robin, 48 fixtures, and its five pairs; a fixture's page its
  three tables and line-ups: both are the same in a zone of 25 whatever the number of zones, so they are
  weighed as they are;
- the team tables list every zone, the fixtures page one match day of every zone (12 fixtures a zone of 25,
  one team resting), the screen a panel of every zone's table and the day's fixtures of every zone: each grows
  by one zone's part per zone, so four more copies of the measured zone's part are added to the measured page
  (the five zones of 124 teams are at most 25 teams each, so this bounds them from above).

Scores grow by a digit or two over a season; the margin left under 60 KB is far larger than that.
"""

from __future__ import annotations

import random
import re

import pytest
from django.db import transaction
from django.test import Client
from django.urls import reverse

from tournaments.competition.accounts import create_director
from tournaments.models import TeamMatch
from tournaments.teams.simulation import build_league, play_day

pytestmark = pytest.mark.django_db

LIMIT = 60 * 1024
ZONES = 5


def parts(html: bytes, pattern: str) -> int:
    """The bytes of every block matching ``pattern`` (the measured zone's part of a page)."""
    return sum(len(m.group(0)) for m in re.finditer(pattern.encode(), html, re.S))


@pytest.fixture(scope="module")
def weights(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock(), transaction.atomic():  # built once for the module, rolled back after
        director = create_director("scale-td", "scale-director-1")
        t = build_league("scale-league", teams=25, zones=1)
        rng = random.Random(0)
        for day in (1, 2, 3):
            play_day(t, day, director, rng)
        client = Client()
        zh = {"accept-language": "zh-hans"}

        def get(name, *args, query=""):
            response = client.get(reverse(name, args=[t.slug, *args]) + query, headers=zh)
            assert response.status_code == 200
            return response.content

        team = t.teams.first()
        played = TeamMatch.objects.filter(round__tournament=t, round__number=1).first()
        tables = get("team-tables")
        fixtures = get("team-fixtures", query="?day=1")
        screen = get("screen-panels")
        out = {
            "overview": len(get("tournament")),
            "team": len(get("team", team.pk)),
            "fixture": len(get("team-fixture", played.pk)),
            "team tables": len(tables)
            + (ZONES - 1) * parts(tables, r'<section data-testid="zone-table">.*?</section>'),
            "fixtures": len(fixtures) + (ZONES - 1) * parts(fixtures, r'<tr data-testid="fixture">.*?</tr>'),
            "screen": len(screen) + (ZONES - 1) * parts(screen, r'<section class="panel panel-.*?</section>'),
            "fixtures in a day": fixtures.count(b'data-testid="fixture"'),
            "fixtures of a team": get("team", team.pk).count(b'data-testid="fixture"'),
        }
        transaction.set_rollback(True)
    return out


def test_the_measured_zone_is_a_zone_of_the_big_league(weights):
    assert weights["fixtures in a day"] == 12 and weights["fixtures of a team"] == 48


@pytest.mark.parametrize("page", ["overview", "team tables", "fixtures", "team", "fixture", "screen"])
def test_a_team_page_of_a_124_team_league_stays_under_60_kb(weights, page):
    assert 1024 < weights[page] < LIMIT, f"{page}: {weights[page] / 1024:.1f} KB"
