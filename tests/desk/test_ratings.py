"""Players' ratings: openskill's Plackett–Luce replayed over the finished matches in order (checked against the
library called by hand), corrections flowing through, the player page's chart, seeding by rating."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from openskill.models import PlackettLuce

from tests.desk.helpers import en, play
from tournaments.models import Match, Round, Tournament
from tournaments.season import ratings
from tournaments.season.services import SeasonError, seed_by_rating


def rated(rating) -> tuple[float, float]:
    return pytest.approx(rating.mu), pytest.approx(rating.sigma)


@pytest.fixture
def two_matches(tournament, make_pair):
    """甲1/乙1 beat 甲2/乙2 in round 1, then draw with 甲3/乙3 in round 2."""
    one, two, three = make_pair(), make_pair(), make_pair()
    r1 = Round.objects.create(tournament=tournament, number=1, state=Round.State.FINISHED)
    r2 = Round.objects.create(tournament=tournament, number=2, state=Round.State.FINISHED)
    first = play(r1, 1, one, two, winner=one)
    play(r2, 1, three, one, winner=None)
    return one, two, three, first


@pytest.mark.django_db
def test_two_matches_rate_as_the_library_rates_them_by_hand(two_matches):
    one, two, three, _first = two_matches
    model = PlackettLuce()
    a, b, c, d, e, f = (model.rating() for _ in range(6))
    [a, b], [c, d] = model.rate([[a, b], [c, d]], ranks=[1, 2])
    [e, f], [a, b] = model.rate([[e, f], [a, b]], ranks=[1, 1])
    now = ratings.current().now
    assert now[one.player1_id] == rated(a) and now[one.player2_id] == rated(b)
    assert now[two.player1_id] == rated(c) and now[three.player2_id] == rated(f)
    assert ratings.current().of(one.player1_id) == round(1000 + 40 * (a.mu - 3 * a.sigma))


@pytest.mark.django_db
def test_a_corrected_result_changes_every_rating_after_it(two_matches):
    one, two, _three, first = two_matches
    before = ratings.current().of(one.player1_id)
    first.winner = two
    first.save()
    model = PlackettLuce()
    a, b, c, d, e, f = (model.rating() for _ in range(6))
    [a, b], [c, d] = model.rate([[a, b], [c, d]], ranks=[2, 1])
    [e, f], [a, b] = model.rate([[e, f], [a, b]], ranks=[1, 1])
    assert ratings.current().now[one.player1_id] == rated(a)
    assert ratings.current().of(one.player1_id) < before


@pytest.mark.django_db
def test_an_earlier_tournament_is_replayed_first_whenever_it_was_entered(two_matches, make_pair):
    one, two, *_ = two_matches
    Tournament.objects.filter(slug="spring").update(start_date=dt.date(2026, 3, 1))
    earlier = Tournament.objects.create(name="冬季赛", slug="winter", start_date=dt.date(2026, 1, 1))
    rnd = Round.objects.create(tournament=earlier, number=1, state=Round.State.FINISHED)
    play(rnd, 1, make_pair(t=earlier), make_pair(t=earlier), winner=None)
    history = [p.match_id for p in ratings.current().history[one.player1_id]]
    assert history == list(
        Match.objects.filter(round__tournament__slug="spring")
        .order_by("round__number")
        .values_list("pk", flat=True)
    )
    assert ratings.games()[0][1] == earlier.pk


@pytest.mark.django_db
def test_a_forfeit_rates_no_one(tournament, make_pair):
    rnd = Round.objects.create(tournament=tournament, number=1, state=Round.State.FINISHED)
    one, two = make_pair(), make_pair()
    play(rnd, 1, one, two, winner=one, ended_by=Match.EndedBy.FORFEIT)
    assert ratings.games() == () and ratings.current().of(one.player1_id) == 1000


@pytest.mark.django_db
def test_a_players_page_draws_the_rating_history_without_a_script(client, two_matches):
    one, *_ = two_matches
    page = en(client).get(reverse("player", args=[one.player1_id])).content.decode()
    chart = page[page.index("<svg") : page.index("</svg>")]
    assert chart.count("<circle") == 3 and "<polyline" in chart and "<script" not in chart
    assert f'data-testid="rating">{ratings.current().of(one.player1_id)}<' in page


@pytest.mark.django_db
def test_a_player_of_hidden_tournaments_only_is_not_found_by_the_public(client, director, two_matches):
    one, *_ = two_matches
    Tournament.objects.filter(slug="spring").update(is_public=False)
    url = reverse("player", args=[one.player1_id])
    assert client.get(url).status_code == 404
    client.force_login(director)
    assert client.get(url).status_code == 200


@pytest.mark.django_db
def test_seeding_by_rating_puts_the_strongest_pair_first(two_matches, make_pair):
    one, two, three, _first = two_matches
    spring = one.tournament
    new = Tournament.objects.create(name="夏季赛", slug="summer")
    pairs = [make_pair(t=new) for _ in range(2)]
    for pair, old in zip(pairs, (two, one), strict=True):  # the same players as last time
        pair.player1, pair.player2 = old.player1, old.player2
        pair.save()
    ordered = seed_by_rating(new)
    assert [p.pk for p in ordered] == [pairs[1].pk, pairs[0].pk]
    assert list(new.pairs.order_by("seed").values_list("pk", flat=True)) == [pairs[1].pk, pairs[0].pk]
    with pytest.raises(SeasonError, match="第1轮已经配对"):
        seed_by_rating(spring)


@pytest.mark.django_db
def test_the_desk_seeds_from_the_pairs_page(client, director, make_pair):
    new = Tournament.objects.create(name="夏季赛", slug="summer")
    make_pair(t=new), make_pair(t=new)
    en(client).force_login(director)
    page = client.get(reverse("desk-pairs", args=["summer"])).content.decode()
    assert 'data-testid="seed-by-rating"' in page
    response = client.post(reverse("desk-seed-by-rating", args=["summer"]), follow=True)
    assert "The pairs are seeded by rating." in response.content.decode()


@pytest.mark.django_db
def test_a_hidden_tournaments_matches_rate_no_one(two_matches):
    one, *_ = two_matches
    Tournament.objects.filter(slug="spring").update(is_public=False)
    assert one.player1_id not in ratings.current().now


@pytest.mark.django_db
def test_a_public_series_neither_names_nor_counts_a_hidden_tournament(client, director):
    from tests.desk.season_scene import build_season

    season = build_season(director)
    hidden = season.tournaments[1]
    Tournament.objects.filter(pk=hidden.pk).update(is_public=False)
    page = client.get(reverse("series", args=[season.series.slug])).content.decode()
    assert hidden.name not in page and season.tournaments[0].name in page
    assert "新甲队" not in page  # the hidden tournament's pair only
