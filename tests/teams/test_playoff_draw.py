"""The playoff draw at the desk: zones crossed by default (A1–B2, B1–A2), a last qualifying place shared on
every criterion named and decided by the director, the bracket shown before it is saved, drawn again until the
first playoff deal starts."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.table.helpers import confirmed_deal
from tests.teams.scene import hand_in_both, play, strength, two_zones
from tournaments.league.playoffs import playoffs_of, shared, start_playoffs
from tournaments.models import TeamMatch, Tournament
from tournaments.teams import services

pytestmark = pytest.mark.django_db


def play_league_with(t: Tournament, director, home_wins) -> None:
    """Every league fixture played, ``home_wins(fixture)`` tables to the home team."""
    for fx in TeamMatch.objects.filter(round__tournament=t).select_related("home", "away", "round"):
        hand_in_both(fx, director)
        play(fx, home_wins=home_wins(fx))


def stronger_home(fx) -> int:
    return 2 if strength(fx.home) > strength(fx.away) else 0


def weak_north_runner_up(fx) -> int:
    """As ``stronger_home``, but 北区2队 only draws away at 北区3队: 南区2队 ends the better runner-up."""
    if fx.home.name == "北区3队" and fx.away.name == "北区2队":
        return 1
    return stronger_home(fx)


def twins_in_the_north(fx) -> int:
    """北区2队 and 北区3队 each win at home against the other, by the same margin: every criterion equal."""
    if {fx.home.name, fx.away.name} == {"北区2队", "北区3队"}:
        return 2
    return stronger_home(fx)


def zones_of(fx) -> set[str]:
    return {fx.home.zone.name, fx.away.zone.name}


def test_the_default_draw_crosses_the_zones_whoever_finished_second_best(director):
    t = two_zones()
    play_league_with(t, director, weak_north_runner_up)
    po = start_playoffs(t, 2, services.TeamEvent._meta.get_field("playoff_seeding").default)
    first = TeamMatch.objects.filter(round__number=po.start).select_related("home__zone", "away__zone")
    assert [zones_of(fx) for fx in first] == [{"北区", "南区"}, {"北区", "南区"}]


def test_a_shared_last_place_is_named_and_the_draw_waits_for_the_directors_choice(director):
    t = two_zones()
    play_league_with(t, director, twins_in_the_north)
    [place] = shared(t, 2)
    assert {team.name for team in place.teams} == {"北区2队", "北区3队"} and place.place == 2
    with pytest.raises(services.TeamError) as refused:
        start_playoffs(t, 2, "crossover")
    assert "北区2队" in refused.value.message and "北区3队" in refused.value.message
    third = next(team for team in place.teams if team.name == "北区3队")
    po = start_playoffs(t, 2, "crossover", chosen={place.zone: [third.pk]})
    assert third.pk in po.lines and not any(
        team.name == "北区2队" for team in place.teams if team.pk in po.lines
    )


def test_the_desk_asks_for_a_shared_place_and_shows_the_bracket_before_saving(client, director):
    t = two_zones()
    play_league_with(t, director, twins_in_the_north)
    client.force_login(director)
    url = reverse("desk-teams", args=[t.slug])
    fields = {"per_zone": 2, "seeding": "crossover"}
    asked = client.post(url, {**fields, "action": "playoffs-preview"}).content.decode()
    assert "北区2队、北区3队" in asked and 'data-testid="playoff-preview"' not in asked
    [place] = shared(t, 2)
    pick = {f"shared_{place.zone}": [place.teams[0].pk]}
    preview = client.post(url, {**fields, **pick, "action": "playoffs-preview"}).content.decode()
    assert 'data-testid="playoff-preview"' in preview and playoffs_of(t) is None
    assert client.post(url, {**fields, **pick, "action": "playoffs"}).status_code == 302
    assert playoffs_of(t) is not None


def test_the_playoffs_are_drawn_again_until_the_first_playoff_deal_starts(director):
    t = two_zones()
    play_league_with(t, director, stronger_home)
    first = start_playoffs(t, 2, "zone_order")
    again = start_playoffs(t, 2, "crossover", third_place=True)
    assert again.start == first.start and again.third_place
    assert TeamMatch.objects.filter(round__number=again.start).count() == 2
    fx = TeamMatch.objects.filter(round__number=again.start).select_related("home", "away", "round").first()
    hand_in_both(fx, director)
    confirmed_deal(fx.tables.first().match, director)
    with pytest.raises(services.TeamError) as refused:
        start_playoffs(t, 2, "zone_order")
    assert refused.value.status == 409
