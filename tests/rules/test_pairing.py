"""The draw generators (rules.pairing): round robin complete and seat-balanced, Swiss without rematch, byes."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from rules.pairing import (
    balance_seats,
    circle_schedule,
    first_round_order,
    round_robin_round,
    seed_order_draft,
    swiss_bye,
    swiss_pairs,
    swiss_round,
)

# --- round robin -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", range(2, 21))
def test_circle_schedule_is_complete_and_seat_balanced(n):
    rounds = circle_schedule(list(range(n)))
    assert len(rounds) == (n - 1 if n % 2 == 0 else n)
    met = Counter()
    ns_minus_ew = Counter()
    for games in rounds:
        seated = [p for g in games for p in g if p is not None]
        assert sorted(seated) == list(range(n))  # everyone exactly once (a bye counts)
        for a, b in games:
            if b is None:
                continue
            met[frozenset((a, b))] += 1
            ns_minus_ew[a] += 1
            ns_minus_ew[b] -= 1
        # Never more than two seats ahead at any point of the event ...
        assert all(abs(v) <= 2 for v in ns_minus_ew.values())
    assert len(met) == n * (n - 1) // 2 and set(met.values()) == {1}
    # ... and within one over the whole event.
    assert all(abs(v) <= 1 for v in ns_minus_ew.values())


def test_circle_schedule_gives_each_pair_one_bye_when_odd():
    rounds = circle_schedule(list("ABCDE"))
    byes = [a for games in rounds for a, b in games if b is None]
    assert sorted(byes) == list("ABCDE")


def test_swiss_pairs_neighbours_without_rematch():
    order = list("ABCDEF")
    assert swiss_pairs(order) == [("A", "B"), ("C", "D"), ("E", "F")]
    played = {frozenset("AB"), frozenset("CD")}
    games = swiss_pairs(order, played)
    assert not {frozenset(g) for g in games} & played
    assert games[0] == ("A", "C")


def test_swiss_pairs_backtracks_when_the_last_two_have_met():
    games = swiss_pairs(list("ABCD"), {frozenset("CD")})
    assert {frozenset(g) for g in games} == {frozenset("AC"), frozenset("BD")}


def test_swiss_pairs_allows_a_rematch_only_when_unavoidable():
    everyone = {frozenset(p) for p in itertools.combinations("ABCD", 2)}
    # One way left without a rematch, far from the neighbours' A–B, C–D: it is the one taken.
    games = swiss_pairs(list("ABCD"), everyone - {frozenset("AD"), frozenset("BC")})
    assert {frozenset(g) for g in games} == {frozenset("AD"), frozenset("BC")}
    # Everyone has met everyone: a rematch cannot be avoided, and each pair still plays once.
    games = swiss_pairs(list("ABCD"), everyone)
    assert sorted(p for g in games for p in g) == list("ABCD")


def test_swiss_same_club_avoidance_is_an_option():
    clubs = {"A": "x", "B": "x", "C": "y", "D": "y"}
    assert swiss_pairs(list("ABCD"), clubs=clubs) == [("A", "B"), ("C", "D")]
    games = swiss_pairs(list("ABCD"), clubs=clubs, avoid_same_club=True)
    assert all(clubs[a] != clubs[b] for a, b in games)


def test_swiss_pairs_needs_an_even_list():
    with pytest.raises(ValueError):
        swiss_pairs(list("ABC"))


def test_round_robin_round_gives_a_withdrawn_pairs_opponent_a_bye():
    games, byes = round_robin_round([("A", "B"), ("C", "D"), ("E", None)], withdrawn={"C", "E"})
    assert games == [("A", "B")] and byes == ["D"]


def test_first_round_is_top_half_against_bottom_half():
    assert first_round_order([1, 2, 3, 4, 5, 6]) == [1, 4, 2, 5, 3, 6]


def test_balance_seats_gives_north_south_to_who_sat_east_west_more():
    seats = {"A": 1, "B": -1, "C": 0, "D": 0}
    assert balance_seats([("A", "B"), ("C", "D")], seats) == [("B", "A"), ("C", "D")]


def test_swiss_bye_goes_to_the_lowest_ranked_without_one():
    assert swiss_bye(list("ABCD")) is None
    assert swiss_bye(list("ABC")) == "C"
    assert swiss_bye(list("ABC"), had_bye={"C"}) == "B"
    assert swiss_bye(list("ABC"), had_bye=set("ABC")) == "C"


def test_swiss_round_pairs_the_rest_and_sets_the_bye_aside():
    games, bye = swiss_round(list("ABCDE"), first_round=True)
    assert bye == "E" and games == [("A", "C"), ("B", "D")]
    games, bye = swiss_round(list("ABCDE"), played={frozenset("AB")}, had_bye={"E"}, ns_minus_ew={"A": 1})
    assert bye == "D" and games == [("C", "A"), ("B", "E")]


def test_seed_order_draft_pairs_neighbours_and_leaves_the_odd_one_out():
    assert seed_order_draft([1, 2, 3, 4]) == ([(1, 2), (3, 4)], [])
    assert seed_order_draft([1, 2, 3]) == ([(1, 2)], [3])
    assert seed_order_draft([]) == ([], [])


def _sixteen_in_eight_clubs():
    """Seeds 1–16; seed n and seed n + 8 share a club (the fold would pair each with its own club's other pair)."""
    ranked = list(range(1, 17))
    return ranked, {seed: f"club{(seed - 1) % 8}" for seed in ranked}


def test_swiss_round_one_keeps_the_fold_when_it_avoids_the_same_club():
    ranked, clubs = _sixteen_in_eight_clubs()
    games, bye = swiss_round(ranked, first_round=True, clubs=clubs, avoid_same_club=True)
    assert bye is None
    assert games == [(1, 10), (2, 9), (3, 12), (4, 11), (5, 14), (6, 13), (7, 16), (8, 15)]


def test_swiss_round_one_swaps_only_where_two_pairs_of_one_club_would_meet():
    ranked = list(range(1, 17))
    clubs = {1: "east", 9: "east"}
    games, _bye = swiss_round(ranked, first_round=True, clubs=clubs, avoid_same_club=True)
    assert games == [(1, 10), (2, 9)] + [(n, n + 8) for n in range(3, 9)]


def test_swiss_round_one_without_the_option_is_the_fold():
    ranked, clubs = _sixteen_in_eight_clubs()
    games, _bye = swiss_round(ranked, first_round=True, clubs=clubs)
    assert games == [(n, n + 8) for n in range(1, 9)]
