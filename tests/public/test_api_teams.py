"""The public API's word for a team event and its language: the zone tables and fixtures of a league, an
adjusted pair flagged on its standings line, the answers in the language the client's Accept-Language asks."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.teams.scene import hand_in_both, league, play
from tournaments.adjusted import awarding as adjusting
from tournaments.models import TeamMatch

pytestmark = pytest.mark.django_db


def test_the_api_gives_a_leagues_zone_tables_and_fixtures(director):
    t = league(teams=4)
    fx = TeamMatch.objects.filter(round__tournament=t).select_related("home", "away", "round").first()
    hand_in_both(fx, director)
    play(fx, home_wins=2)
    answer = Client().get(reverse("api-teams", args=[t.slug])).json()
    (zone,) = answer["zones"]
    assert zone["name"] == "A" and zone["table"][0]["team"]["name"] == fx.home.name
    played = next(f for f in answer["fixtures"] if f["id"] == fx.pk)
    assert (played["home_score"], played["away_score"], played["winner"]) == (4, 2, "home")


def test_a_pairs_events_teams_answer_is_404(tournament):
    assert Client().get(reverse("api-teams", args=[tournament.slug])).status_code == 404


def test_the_standings_lines_flag_an_adjusted_pair(match, director):
    adjusting.award(match, director, kind="both_lose", reason="双方缺席")
    lines = Client().get(reverse("api-standings", args=[match.round.tournament.slug])).json()["lines"]
    assert {line["pair"]["id"]: line["adjusted"] for line in lines} == {
        match.pair_ns_id: True,
        match.pair_ew_id: True,
    }


def test_the_api_answers_in_the_language_of_accept_language(tournament):
    url = reverse("api-standings", args=["no-such-tournament"])
    english = Client().get(url, headers={"accept-language": "en"}).json()["message"]
    chinese = Client().get(url).json()["message"]
    assert english == "There is nothing public at this address." and chinese != english
