"""The projector screen of a team event: the current match day's fixtures and every zone's table instead of the
pairs' seating and standings, following the public switches; the panels' fragment changes with a result."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from rules.teams import BY_SCORE
from tests.teams.scene import hand_in_both, league, play, play_league, two_zones
from tournaments.league.playoffs import advance_playoffs, start_playoffs
from tournaments.models import TeamMatch, Tournament

pytestmark = pytest.mark.django_db


def screen(t: Tournament, client: Client | None = None) -> str:
    response = (client or Client()).get(reverse("screen", args=[t.slug]))
    assert response.status_code == 200
    return response.content.decode()


def panels(html: str) -> list[str]:
    return re.findall(r'data-testid="panel-(\w+)"', html)


def test_a_team_events_screen_shows_the_match_days_fixtures_and_every_zones_table():
    t = two_zones()
    html = screen(t)
    assert panels(html) == ["fixtures", "zone", "zone"]
    assert "北区积分表" in html and "南区积分表" in html and "第1轮" not in html.split("screen-panels")[1]
    assert "seating" not in panels(html) and "standings" not in panels(html)
    assert 'data-team="北区1队"' in html


def test_the_screens_fixture_shows_its_score_once_its_tables_are_finished(director):
    t = league(teams=4)
    fx = TeamMatch.objects.filter(round__tournament=t, round__number=1).select_related(
        "home", "away", "round"
    )
    first = fx.order_by("number").first()
    hand_in_both(first, director)
    play(first, home_wins=3)
    html = screen(t)
    assert re.search(r'data-testid="fixture-score">6 : 0<', html)
    assert f"<strong>{first.home.name}</strong>" in html


@pytest.mark.parametrize(
    ("switch", "gone"), [("public_pairings", {"fixtures"}), ("public_standings", {"zone"})]
)
def test_each_team_panel_follows_its_public_switch(switch, gone):
    t = two_zones()
    setattr(t, switch, False)
    t.save()
    assert set(panels(screen(t))) == {"fixtures", "zone"} - gone


def test_the_hidden_results_leave_the_fixtures_without_scores(director):
    t = league(teams=2)
    first = TeamMatch.objects.filter(round__tournament=t).select_related("home", "away", "round").first()
    hand_in_both(first, director)
    play(first, home_wins=3)
    t.public_results = False
    t.save()
    html = screen(t)
    assert "fixtures" in panels(html) and not re.search(r'data-testid="fixture-score">\d', html)


def test_a_zone_of_thirteen_teams_takes_two_pages_of_the_screen():
    t = league(teams=13, tables=1)
    html = screen(t)
    assert panels(html).count("zone") == 2 and "1 / 2" in html


def test_during_the_playoffs_the_screen_shows_the_playoff_fixtures(director):
    t = two_zones()
    play_league(t, director)
    start_playoffs(t, 2, BY_SCORE)
    html = screen(t)
    fixtures = html.split('data-testid="panel-fixtures"')[1].split("</section>")[0]
    assert "季后赛" in fixtures and "北区1队" in fixtures and fixtures.count("data-home=") == 2


def play_playoff_day(t: Tournament, number: int, director) -> None:
    for fx in TeamMatch.objects.filter(round__tournament=t, round__number=number).select_related(
        "home", "away", "round"
    ):
        hand_in_both(fx, director)
        play(fx, home_wins=2)
    advance_playoffs(t)  # as the last table's commit does


def test_the_screens_playoff_panel_names_the_final_and_shows_the_placings_after_it(director):
    t = two_zones()
    play_league(t, director)
    po = start_playoffs(t, 2, BY_SCORE, third_place=True)
    play_playoff_day(t, po.start, director)
    fixtures = screen(t).split('data-testid="panel-fixtures"')[1].split("</section>")[0]
    assert "决赛" in fixtures and "三四名决赛" in fixtures and "placings" not in panels(screen(t))
    play_playoff_day(t, po.start + 1, director)
    html = screen(t)
    placings = html.split('data-testid="screen-placings"')[1].split("</table>")[0]
    assert "placings" in panels(html) and placings.count("<tr>") == 5  # the header and four places
