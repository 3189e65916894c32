"""The issue's Done-when: a 6-round Swiss of 24 pairs, then a top-8 knockout seeded and published from the desk;
each later bracket round pairs and publishes itself when the last match before it is confirmed at the table, the
public bracket fills round by round, and the finished tournament's placings reach the series table and the
ratings. Also: the advance is done once, waits for a level match's decision, and never makes the first bracket
round (the director's review of the seeding)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from referee.table.simulation import simulate_round
from tests.desk.helpers import en, finish, swiss_stage
from tournaments.checkin.forfeits import publish_round
from tournaments.models import Match, Pair, Round, Tournament
from tournaments.pairing.advance import advance_bracket
from tournaments.pairing.bracket import final_placings
from tournaments.pairing.services import pair_round
from tournaments.pairing.ties import decide_tie
from tournaments.season import ratings
from tournaments.season.series_standings import series_standings
from tournaments.season.services import save_series


def decide_level_matches(client, t: Tournament, number: int) -> None:
    """The director decides every level match of the round from its page, as the desk does."""
    level = Match.objects.filter(round__tournament=t, round__number=number, state="finished", winner=None)
    for m in level:
        url = reverse("desk-decide-tie", args=[t.slug, number, m.pk])
        assert client.post(url, {"pair": m.pair_ns_id, "reason": "庄家局数多"}).status_code == 302


def public(client, t: Tournament, name: str, *args) -> tuple[int, str]:
    response = client.get(reverse(name, args=[t.slug, *args]))
    return response.status_code, response.content.decode()


@pytest.mark.django_db(transaction=True)
def test_a_swiss_of_24_then_a_top_8_knockout_fills_its_bracket_and_the_season_by_itself(
    client, director, make_pair
):
    t = swiss_stage(make_pair, "winter")
    series = save_series("俱乐部赛季", [10, 8, 6, 5, 4, 3, 2, 1], None, True, [t])
    desk = en(client)
    desk.force_login(director)
    desk.post(reverse("desk-pair-round", args=[t.slug]))
    first = Round.objects.get(tournament=t, number=7)
    assert first.state == Round.State.DRAFT and len(first.bracket) == 8  # the seeding waits for the review
    assert desk.post(reverse("desk-publish-round", args=[t.slug, 7])).status_code == 302
    won = 0
    for number, tables in ((7, 4), (8, 2), (9, 1)):
        assert not Round.objects.filter(tournament=t, number=number + 1).exists()
        finalists = [m.pair_ns for m in Match.objects.filter(round__number=9, round__tournament=t)]
        before = ratings.current().of(finalists[0].player1_id) if finalists else None
        simulate_round(t, number, director, seed=number)  # every deal confirmed at the table
        decide_level_matches(desk, t, number)
        won += tables
        status, page = public(desk, t, "bracket")
        assert status == 200 and page.count("bracket-line won") == won
        following = Round.objects.filter(tournament=t, number=number + 1).first()
        if number < 9:
            assert following is not None and following.state == Round.State.PUBLISHED
            assert following.history.latest().history_user is None  # the system's (no request finished it)
            assert following.matches.count() == tables // 2
            assert public(desk, t, "round", number + 1)[0] == 200
            for m in following.matches.select_related("pair_ns", "pair_ew"):
                assert m.pair_ns.name in page and m.pair_ew.name in page
        else:
            assert following is None  # no round past the final
            assert ratings.current().of(finalists[0].player1_id) != before  # the final is rated
    assert desk.post(reverse("desk-finish", args=[t.slug])).status_code == 302
    t.refresh_from_db()
    assert t.is_finished
    champion = Pair.objects.get(pk=Match.objects.get(round__tournament=t, round__number=9).goes_through_id)
    placings = final_placings(t)
    assert placings[0] == ("1", champion)
    standings = series_standings(series)
    assert [row.name for row in standings.pairs[:2]] == [p.name for _place, p in placings[:2]]
    assert standings.pairs[0].total == 10 and standings.pairs[1].total == 8 and standings.pairs[8].total == 0
    series_page = desk.get(reverse("series", args=[series.slug])).content.decode()
    assert champion.name in series_page


@pytest.mark.django_db(transaction=True)
def test_the_next_bracket_round_is_made_once_and_only_after_a_level_match_is_decided(
    client, director, make_pair
):
    t = swiss_stage(make_pair, "tiny", pairs=8, rounds=2, size=4)
    semis = pair_round(t)
    publish_round(semis)
    one, two = semis.matches.order_by("table")
    finish(one, one.pair_ns, "A", "5")
    assert advance_bracket(semis.pk) is None  # a table still plays
    finish(two, None, "7", "7")  # level
    assert advance_bracket(semis.pk) is None  # the director decides first
    desk = en(client)
    desk.force_login(director)
    url = reverse("desk-decide-tie", args=[t.slug, semis.number, two.pk])
    desk.post(url, {"pair": two.pair_ew_id, "reason": "抽签"})  # the decision's commit runs the advance
    final = t.rounds.get(number=semis.number + 1)
    assert final.state == Round.State.PUBLISHED
    assert final.history.latest().history_user == director  # who finished the round's last match
    assert {final.matches.get().pair_ns_id, final.matches.get().pair_ew_id} == {
        one.pair_ns_id,
        two.pair_ew_id,
    }
    assert advance_bracket(semis.pk) is None and t.rounds.count() == 4  # twice asked, paired once


@pytest.mark.django_db(transaction=True)
def test_a_level_match_decided_through_the_service_pairs_the_next_round_as_the_desks_page_does(
    director, make_pair
):
    t = swiss_stage(make_pair, "service", pairs=8, rounds=2, size=4)
    semis = pair_round(t)
    publish_round(semis)
    one, two = semis.matches.order_by("table")
    finish(one, one.pair_ns, "A", "5")
    finish(two, None, "7", "7")
    decide_tie(
        two, two.pair_ns_id, "抽签", director
    )  # no page: a command or the shell goes through the same service
    final = t.rounds.get(number=semis.number + 1)
    assert final.state == Round.State.PUBLISHED
    assert {final.matches.get().pair_ns_id, final.matches.get().pair_ew_id} == {
        one.pair_ns_id,
        two.pair_ns_id,
    }


@pytest.mark.django_db
def test_the_first_bracket_round_after_the_stage_is_never_made_by_itself(make_pair):
    t = swiss_stage(make_pair, "stage", pairs=8, rounds=2, size=4)
    last_swiss = t.rounds.get(number=2)
    assert advance_bracket(last_swiss.pk) is None and t.rounds.count() == 2
