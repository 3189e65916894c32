"""The knockout bracket (rules/knockout.py): the standard seeding, byes only to the top seeds, each round from the
previous winners, and the placings — by example and as properties over every field size."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.knockout import (
    KnockoutError,
    advance,
    bracket_rounds,
    bracket_size,
    pair_lines,
    placings,
    rounds_of,
    seed_numbers,
    seeded_lines,
    semifinal_losers,
    slot_seeds,
)

fields = st.integers(min_value=2, max_value=128)


def play_out(n: int, rng: random.Random) -> tuple[list, list[set]]:
    """A bracket of n pairs (1..n by seed) played to the end, random winners."""
    lines = seeded_lines(list(range(1, n + 1)))
    current, won = lines, []
    for r in range(rounds_of(n)):
        games, _byes = pair_lines(current, seed_numbers(lines))
        winners = {rng.choice(g) for g in games}
        won.append(winners)
        current = advance(current, winners, first=r == 0)
    return lines, won


def test_eight_seeds_meet_one_eight_four_five_three_six_two_seven():
    lines = seeded_lines(list("ABCDEFGH"))
    games, byes = pair_lines(lines, seed_numbers(lines))
    assert games == [("A", "H"), ("D", "E"), ("C", "F"), ("B", "G")] and byes == []


def test_six_pairs_give_byes_to_seeds_one_and_two():
    lines = seeded_lines(list("ABCDEF"))
    games, byes = pair_lines(lines, seed_numbers(lines))
    assert byes == ["A", "B"] and games == [("D", "E"), ("C", "F")]


@pytest.mark.parametrize("n", [0, 1])
def test_fewer_than_two_pairs_make_no_bracket(n):
    with pytest.raises(KnockoutError):
        seeded_lines(list(range(n)))


def test_a_pair_seeded_twice_is_refused():
    with pytest.raises(KnockoutError):
        seeded_lines(["A", "B", "A"])


def test_an_undecided_game_leaves_its_next_line_open():
    lines = seeded_lines(list("ABCD"))
    assert advance(lines, {"A"}) == ["A", None]


@given(fields)
def test_every_seed_appears_once_and_the_bracket_is_a_power_of_two(n):
    lines = seeded_lines(list(range(1, n + 1)))
    size = bracket_size(n)
    assert len(lines) == size and size // 2 < n <= size
    assert sorted(p for p in lines if p is not None) == list(range(1, n + 1))
    assert sorted(slot_seeds(size)) == list(range(1, size + 1))


@given(fields)
def test_seeds_one_and_two_are_in_opposite_halves(n):
    lines = seeded_lines(list(range(1, n + 1)))
    half = len(lines) // 2
    assert 1 in lines[:half] and 2 in lines[half:]


@given(fields)
def test_byes_go_only_to_the_top_seeds(n):
    lines = seeded_lines(list(range(1, n + 1)))
    games, byes = pair_lines(lines, seed_numbers(lines))
    assert sorted(byes) == list(range(1, bracket_size(n) - n + 1))
    assert len(games) * 2 + len(byes) == n
    assert all(a < b for a, b in games)  # the better seed North–South


@given(fields, st.randoms(use_true_random=False))
def test_each_round_pairs_only_the_previous_winners_and_one_champion_remains(n, rng):
    lines, won = play_out(n, rng)
    current = lines
    for r, winners in enumerate(won):
        games, byes = pair_lines(current, seed_numbers(lines))
        in_round = {p for g in games for p in g} | set(byes)
        if r:
            assert in_round == set(p for p in current if p is not None) and not byes
        current = advance(current, winners, first=r == 0)
    assert len(current) == 1 and current[0] in won[-1]


@given(fields)
def test_the_top_two_seeds_meet_only_in_the_final_when_the_favourites_win(n):
    lines = seeded_lines(list(range(1, n + 1)))
    current = lines
    for r in range(rounds_of(n)):
        games, _byes = pair_lines(current, seed_numbers(lines))
        if r < rounds_of(n) - 1:
            assert (1, 2) not in games
        current = advance(current, {min(g) for g in games}, first=r == 0)
    assert games == [(1, 2)]


@given(fields, st.randoms(use_true_random=False), st.booleans())
def test_the_placings_place_everyone_in_the_bands_of_their_round(n, rng, third):
    lines, won = play_out(n, rng)
    losers = semifinal_losers(lines, won)
    match = (losers[0], losers[1], rng.choice(losers)) if third and len(losers) == 2 else None
    places = placings(lines, won, match, third_place_match=match is not None)
    assert sorted(places) == list(range(1, n + 1))
    counts: dict = {}
    for p in places.values():
        counts[p.place] = counts.get(p.place, 0) + 1
        assert p.place <= p.last <= n
    assert counts[1] == 1 and counts.get(2) == 1
    for place, count in counts.items():  # a band holds as many as it spans, the last one cut at the field
        last = next(p.last for p in places.values() if p.place == place)
        assert count <= last - place + 1


def test_a_bracket_round_not_played_shows_open_ties():
    lines = seeded_lines(list("ABCD"))
    rounds = bracket_rounds(lines, [{"A"}])
    assert [(t.a, t.b, t.winner) for t in rounds[0]] == [("A", "D", "A"), ("C", "B", None)]
    assert [(t.a, t.b, t.winner) for t in rounds[1]] == [("A", None, None)]


def test_the_semi_final_losers_wait_for_the_third_place_match():
    lines = seeded_lines(list("ABCD"))
    won = [{"A", "B"}, {"A"}]
    assert set(placings(lines, won, third_place_match=True)) == {"A", "B"}
    assert placings(lines, won, ("C", "D", None), third_place_match=True).keys() == {"A", "B"}
    places = placings(lines, won, ("C", "D", "D"), third_place_match=True)
    assert (places["D"].place, places["C"].place) == (3, 4)
    assert placings(lines, won)["C"].last == 4  # without the match they share 3–4
