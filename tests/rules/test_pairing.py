"""The draw generators (rules.pairing): round robin complete and seat-balanced, Swiss without rematch, byes."""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.pairing import (
    REPEAT,
    SAME_CLUB,
    GaveWay,
    balance_seats,
    circle_schedule,
    round_robin_round,
    seed_order_draft,
    swiss_bye,
    swiss_match,
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


def test_swiss_match_pairs_neighbours_without_rematch():
    order = list("ABCDEF")
    assert swiss_match(order) == [("A", "B"), ("C", "D"), ("E", "F")]
    # A–C costs 2², B–D 2², E–F 1²: 9; the next best (A–D, B–C, E–F) costs 3² + 1² + 1² = 11.
    assert swiss_match(order, {frozenset("AB"), frozenset("CD")}) == [("A", "C"), ("B", "D"), ("E", "F")]


def test_swiss_match_avoids_the_last_two_meeting_again():
    # A–C, B–D costs 2² + 2² = 8 against A–D, B–C: 3² + 1² = 10.
    assert swiss_match(list("ABCD"), {frozenset("CD")}) == [("A", "C"), ("B", "D")]


def test_swiss_match_keeps_the_top_tables_when_a_disruption_costs_the_same_lower_down():
    # 3 and 4 met: 1–2, 3–5, 4–6, 7–8 and 1–3, 2–4, 5–6, 7–8 both cost 1 + 4 + 4 + 1 in ranks; the top table stays.
    assert swiss_match(list(range(1, 9)), {frozenset((3, 4))}) == [(1, 2), (3, 5), (4, 6), (7, 8)]


def test_swiss_match_pairs_by_match_points_before_rank():
    # A and B lead on 4 points but met; C, D on 2; E, F on 0. A–C, B–D (2² + 2²) beat A–E (4²) and the rest.
    points = {"A": 4, "B": 4, "C": 2, "D": 2, "E": 0, "F": 0}
    games = swiss_match(list("ABCDEF"), {frozenset("AB")}, points=points)
    assert games == [("A", "C"), ("B", "D"), ("E", "F")]


def test_swiss_match_floats_the_lowest_of_an_odd_group_down():
    # Three pairs on 2 points: the third plays the best of the 0-point group, the rest pair within their group.
    points = {"A": 2, "B": 2, "C": 2, "D": 0, "E": 0, "F": 0}
    assert swiss_match(list("ABCDEF"), points=points) == [("A", "B"), ("C", "D"), ("E", "F")]


def test_swiss_match_allows_a_rematch_only_when_unavoidable():
    everyone = {frozenset(p) for p in itertools.combinations("ABCD", 2)}
    # One way left without a rematch, far from the neighbours' A–B, C–D: it is the one taken.
    games = swiss_match(list("ABCD"), everyone - {frozenset("AD"), frozenset("BC")})
    assert {frozenset(g) for g in games} == {frozenset("AD"), frozenset("BC")}
    # Everyone has met everyone: a rematch cannot be avoided, and each pair still plays once.
    games = swiss_match(list("ABCD"), everyone)
    assert sorted(p for g in games for p in g) == list("ABCD")


def test_swiss_same_club_avoidance_is_an_option():
    clubs = {"A": "x", "B": "x", "C": "y", "D": "y"}
    assert swiss_match(list("ABCD"), clubs=clubs) == [("A", "B"), ("C", "D")]
    assert swiss_match(list("ABCD"), clubs=clubs, avoid_same_club=True) == [("A", "C"), ("B", "D")]


def test_a_repeat_outweighs_a_same_club_table():
    # A has met B and C; A and D are of one club: the only pairing without a repeat seats A and D together.
    clubs = {"A": "x", "D": "x"}
    played = {frozenset("AB"), frozenset("AC")}
    draw = swiss_round(list("ABCD"), played=played, clubs=clubs, avoid_same_club=True)
    assert draw.games == [("A", "D"), ("B", "C")]
    assert draw.gave_way == [GaveWay(SAME_CLUB, 1, ("A", "D"))]


def test_an_unavoidable_repeat_is_named_with_its_table():
    # Everyone has met everyone: the neighbours meet again and both tables say so.
    played = {frozenset(p) for p in itertools.combinations("ABCD", 2)}
    draw = swiss_round(list("ABCD"), played=played)
    assert draw.games == [("A", "B"), ("C", "D")]
    assert draw.gave_way == [GaveWay(REPEAT, 1, ("A", "B")), GaveWay(REPEAT, 2, ("C", "D"))]


def test_only_the_unavoidable_repeats_are_made():
    # A has met B, C and D: A must repeat, and only A's table does (A–B, then C–D who have not met).
    played = {frozenset("AB"), frozenset("AC"), frozenset("AD")}
    draw = swiss_round(list("ABCD"), played=played)
    assert draw.games == [("A", "B"), ("C", "D")]
    assert draw.gave_way == [GaveWay(REPEAT, 1, ("A", "B"))]


def test_a_draw_that_keeps_every_constraint_names_nothing():
    draw = swiss_round(
        list("ABCDEF"), played={frozenset("AB")}, clubs={"C": "x", "D": "x"}, avoid_same_club=True
    )
    assert draw.gave_way == []


def test_swiss_match_needs_an_even_list():
    with pytest.raises(ValueError):
        swiss_match(list("ABC"))


def test_round_robin_round_gives_a_withdrawn_pairs_opponent_a_bye():
    games, byes = round_robin_round([("A", "B"), ("C", "D"), ("E", None)], withdrawn={"C", "E"})
    assert games == [("A", "B")] and byes == ["D"]


def test_first_round_is_top_half_against_bottom_half():
    assert swiss_round([1, 2, 3, 4, 5, 6], first_round=True).games == [(1, 4), (2, 5), (3, 6)]


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


# --- Swiss: properties, checked against every pairing of a small field ----------------------------------------


def every_pairing(items: list) -> Iterator[list[tuple]]:
    """Every way to seat an even list two by two (945 for ten pairs)."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for k, other in enumerate(rest):
        for tail in every_pairing(rest[:k] + rest[k + 1 :]):
            yield [(first, other), *tail]


def broken(games, played, clubs, avoid_same_club) -> tuple[int, int]:
    """(repeats, same-club tables) of a pairing, the order the draw minimises them in."""
    repeats = sum(frozenset(g) in played for g in games)
    same = sum(avoid_same_club and clubs.get(a, "") != "" and clubs.get(a) == clubs.get(b) for a, b in games)
    return repeats, same


@st.composite
def small_fields(draw, most: int = 10):
    """A ranked field of up to ``most`` pairs with random meetings, clubs, byes and match points (rank order)."""
    n = draw(st.integers(0, most))
    points = {p: draw(st.integers(0, 4)) * 2 for p in range(n)}
    ranked = sorted(points, key=lambda p: (-points[p], p))
    meetings = list(itertools.combinations(ranked, 2))
    played = (
        {frozenset(m) for m in draw(st.lists(st.sampled_from(meetings), unique=True))} if meetings else set()
    )
    clubs = {p: draw(st.sampled_from(["", "x", "y"])) for p in ranked}
    had_bye = set(draw(st.lists(st.sampled_from(ranked), unique=True))) if ranked else set()
    return ranked, played, clubs, draw(st.booleans()), had_bye, points


@settings(max_examples=150, deadline=None)
@given(small_fields(), st.booleans())
def test_swiss_round_places_every_pair_once_and_gives_the_bye_by_the_rules(field, first_round):
    ranked, played, clubs, avoid, had_bye, points = field
    draw = swiss_round(
        ranked,
        first_round=first_round,
        played=played,
        clubs=clubs,
        avoid_same_club=avoid,
        had_bye=had_bye,
        points=points,
    )
    placed = [p for g in draw.games for p in g] + ([] if draw.bye is None else [draw.bye])
    assert sorted(placed) == sorted(ranked)
    if len(ranked) % 2 == 0:
        assert draw.bye is None
    else:
        without = [p for p in ranked if p not in had_bye]
        assert draw.bye == (without[-1] if without else ranked[-1])


@settings(max_examples=200, deadline=None)
@given(small_fields(), st.booleans(), st.sampled_from([1, 2, 3, 12]))
def test_a_constraint_gives_way_only_when_every_pairing_breaks_it(field, first_round, nearest):
    """Fewest repeats, then fewest same-club tables, as a search of every pairing finds; ``nearest`` small makes
    the first, sparse matching fail often, so the whole-field matching is checked too."""
    ranked, played, clubs, avoid, _had_bye, points = field
    order = ranked[: len(ranked) // 2 * 2]
    games = swiss_match(
        order, played, clubs, avoid_same_club=avoid, points=points, first_round=first_round, nearest=nearest
    )
    assert sorted(p for g in games for p in g) == sorted(order)
    best = min(broken(m, played, clubs, avoid) for m in every_pairing(order))
    assert broken(games, played, clubs, avoid) == best
    draw = swiss_round(order, played=played, clubs=clubs, avoid_same_club=avoid, points=points)
    named = {(g.constraint, frozenset(g.pairs)) for g in draw.gave_way}
    assert named == {(REPEAT, frozenset(g)) for g in draw.games if frozenset(g) in played} | {
        (SAME_CLUB, frozenset((a, b))) for a, b in draw.games if avoid and clubs[a] and clubs[a] == clubs[b]
    }


@settings(max_examples=150, deadline=None)
@given(small_fields())
def test_swiss_match_pairs_the_closest_match_points_every_pairing_allows(field):
    ranked, played, clubs, avoid, _had_bye, points = field
    order = ranked[: len(ranked) // 2 * 2]

    def apart(games):
        return sum((points[a] - points[b]) ** 2 for a, b in games)

    games = swiss_match(order, played, clubs, avoid_same_club=avoid, points=points)
    fewest = min(broken(m, played, clubs, avoid) for m in every_pairing(order))
    closest = min(apart(m) for m in every_pairing(order) if broken(m, played, clubs, avoid) == fewest)
    assert apart(games) == closest


# --- Swiss: determinism ------------------------------------------------------------------------------------------


def test_the_same_field_gives_the_same_draw_whatever_order_its_sets_are_built_in():
    ranked = [f"pair{n:02}" for n in range(1, 21)]
    meetings = [frozenset((ranked[i], ranked[(i * 7 + 3) % 20])) for i in range(20) if i != (i * 7 + 3) % 20]
    clubs = {p: f"club{n % 5}" for n, p in enumerate(ranked)}
    draws = [
        swiss_round(
            ranked, played=set(order), clubs=dict(sorted(clubs.items(), reverse=flip)), avoid_same_club=True
        )
        for order, flip in ((meetings, False), (meetings[::-1], True))
    ]
    assert draws[0] == draws[1]


DRAW_IN_A_CHILD = """
from rules.pairing import swiss_round
ranked = [f"pair{n:02}" for n in range(1, 41)]
clubs = {p: f"club{n % 10}" for n, p in enumerate(ranked)}
played = {frozenset((ranked[i], ranked[i ^ 1])) for i in range(40)}
print(swiss_round(ranked, played=played, clubs=clubs, avoid_same_club=True).games)
"""


def test_the_same_field_gives_the_same_draw_under_any_string_hash_seed():
    """Node order must not follow the ids' hashes, which Python varies from process to process."""
    root = Path(__file__).resolve().parents[2]
    outputs = {
        subprocess.run(
            [sys.executable, "-c", DRAW_IN_A_CHILD],
            cwd=root,
            env={**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(root)},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in ("1", "2", "3")
    }
    assert len(outputs) == 1 and "pair01" in outputs.pop()
