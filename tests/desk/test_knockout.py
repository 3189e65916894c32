"""A knockout played through: the bracket's first round by seed (byes to the top seeds), each round only the
previous round's winners, a level match refused until the director decides it, the final placings and the
third-place match.

The eight pairs' bracket is played by the rules simulator (each match as a table plays it); the six and the sixteen
pairs' have their results set straight in (``finish_tables``), as their claims are the byes and the placings that
follow from the winners, whoever the simulator would make them."""

from __future__ import annotations

import random

import pytest
from django.utils import translation

from referee.table.simulation import simulate_round
from tests.desk.helpers import finish, finish_tables
from tournaments.checkin.forfeits import publish_round
from tournaments.models import Match, Round, Tournament
from tournaments.pairing.bracket import final_placings
from tournaments.pairing.knockout import bracket_of
from tournaments.pairing.services import PairingError, pair_round, why_not_pair
from tournaments.pairing.ties import TieError, decide_tie

SHORT = {"preset": "standard", "target_level": "4"}  # matches of a few deals: the bracket is under test


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.fixture
def knockout(db, make_pair):
    def make(n: int, **fields) -> Tournament:
        t = Tournament.objects.create(
            name="淘汰赛", slug=f"ko{n}", format=Tournament.Format.KNOCKOUT, ruleset=SHORT, **fields
        )
        for k in range(n):
            make_pair(f"队{k + 1:02d}", t=t)
        return t

    return make


def play_round(t: Tournament, director, seed: int = 1, simulated: bool = True) -> Round:
    """The next round paired, published and played: by the rules simulator, else its results set straight in."""
    rnd = pair_round(t)
    publish_round(rnd)
    if simulated:
        simulate_round(t, rnd.number, director, seed=seed)
    else:
        finish_tables(rnd, random.Random(seed))
    rnd.refresh_from_db()
    assert rnd.state == Round.State.FINISHED
    return rnd


def seeds_at_tables(rnd: Round) -> list[tuple[int, int]]:
    return [(m.pair_ns.seed, m.pair_ew.seed) for m in rnd.matches.select_related("pair_ns", "pair_ew")]


def winners(rnd: Round) -> set[int]:
    return {m.goes_through_id for m in rnd.matches.all()}


def play_through(t: Tournament, director, simulated: bool = True) -> list[Round]:
    rounds = []
    while why_not_pair(t) is None:
        before = (
            winners(rounds[-1]) | set(rounds[-1].byes.values_list("pair_id", flat=True)) if rounds else None
        )
        rnd = play_round(t, director, seed=len(rounds), simulated=simulated)
        if before is not None:
            bracket_pairs = {p for m in rnd.matches.all() for p in (m.pair_ns_id, m.pair_ew_id)}
            third = bracket_of(t).third
            if third is not None:
                bracket_pairs -= {third.pair_ns_id, third.pair_ew_id}
            assert bracket_pairs == before  # only the previous round's winners (and byes) go on
        rounds.append(rnd)
    return rounds


@pytest.mark.django_db
def test_a_knockout_of_eight_pairs_the_standard_bracket_and_plays_three_rounds(knockout, director):
    t = knockout(8)
    assert t.rounds_planned == 3
    rounds = play_through(t, director)
    assert seeds_at_tables(rounds[0]) == [(1, 8), (4, 5), (3, 6), (2, 7)]
    assert len(rounds) == 3 and why_not_pair(t) == "This tournament has 3 rounds."
    final = rounds[-1].matches.get()
    places = {p.pk: place for place, p in final_placings(t)}
    assert (
        places[final.winner_id] == "1"
        and places[final.pair_ns_id if final.winner_id == final.pair_ew_id else final.pair_ew_id] == "2"
    )
    assert sorted(places.values()) == ["1", "2", "3–4", "3–4", "5–8", "5–8", "5–8", "5–8"]


@pytest.mark.django_db
def test_a_knockout_of_six_gives_byes_to_the_two_top_seeds(knockout, director):
    t = knockout(6)
    rounds = play_through(t, director, simulated=False)
    first = rounds[0]
    assert sorted(first.byes.values_list("pair__seed", flat=True)) == [1, 2]
    assert seeds_at_tables(first) == [(4, 5), (3, 6)]
    assert len(rounds) == 3
    places = sorted(place for place, _p in final_placings(t))
    assert places == ["1", "2", "3–4", "3–4", "5–6", "5–6"]


@pytest.mark.django_db
def test_a_knockout_of_sixteen_with_a_third_place_match_places_everyone(knockout, director):
    t = knockout(16, third_place_match=True)
    rounds = play_through(t, director, simulated=False)
    assert len(rounds) == 4 and rounds[-1].matches.count() == 2
    assert seeds_at_tables(rounds[0])[0] == (1, 16)
    places = sorted((place for place, _p in final_placings(t)), key=lambda s: int(s.split("–")[0]))
    assert places == ["1", "2", "3", "4"] + ["5–8"] * 4 + ["9–16"] * 8


@pytest.mark.django_db
def test_a_level_match_stops_the_bracket_until_the_director_decides_it(knockout, director):
    t = knockout(4)
    rnd = pair_round(t)
    publish_round(rnd)
    level, other = rnd.matches.order_by("table")
    finish(level, None, "5", "5", ended_by="time")
    finish(other, other.pair_ew)
    reason = why_not_pair(t)
    assert reason == "Table 1 of round 1 ended level: decide who goes through on the round's page."
    with pytest.raises(PairingError):
        pair_round(t)
    with pytest.raises(TieError):
        decide_tie(level, level.pair_ns_id, "  ", director)
    with pytest.raises(TieError):
        decide_tie(level, other.pair_ns_id, "coin", director)
    decide_tie(level, level.pair_ew_id, "more deals won as banker", director)
    level.refresh_from_db()
    assert (level.tie_winner_id, level.tie_decided_by) == (level.pair_ew_id, director)
    assert level.history.first().tie_reason == "more deals won as banker"
    final = pair_round(t).matches.get()
    assert {final.pair_ns_id, final.pair_ew_id} == {level.pair_ew_id, other.pair_ew_id}
    with pytest.raises(TieError):  # the final is drawn from the decision
        decide_tie(level, level.pair_ns_id, "changed my mind", director)


@pytest.mark.django_db
def test_a_won_match_cannot_be_decided_again(knockout, director):
    t = knockout(2)
    rnd = pair_round(t)
    publish_round(rnd)
    match = finish(rnd.matches.get(), None)
    match.winner = match.pair_ns
    match.save()
    with pytest.raises(TieError):
        decide_tie(match, match.pair_ew_id, "no", director)
    assert Match.objects.get(pk=match.pk).tie_winner is None


@pytest.mark.django_db
def test_a_knockout_whose_final_ended_level_cannot_be_finished_until_decided(knockout, director):
    from tournaments.competition.finishing import why_not_finish

    t = knockout(2)
    rnd = pair_round(t)
    publish_round(rnd)
    final = finish(rnd.matches.get(), None, "9", "9", ended_by="time")
    assert why_not_finish(t) == "Table 1 of round 1 ended level: decide who goes through on the round's page."
    decide_tie(final, final.pair_ns_id, "coin toss before witnesses", director)
    assert why_not_finish(t) is None
    assert [place for place, _pair in final_placings(t)] == ["1", "2"]
