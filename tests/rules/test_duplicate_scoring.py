"""Duplicate scoring (RULES §14.2–14.5): calling, a table's result, matchpoints, Neuberg, the Mitchell movement
and teams' scale points, each worked example of the text a test."""

from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.calling import CallError, call_trump
from rules.cards import parse_cards
from rules.facts import PenaltyCall
from rules.matchpoints import (
    BoardEntry,
    Fault,
    PairScore,
    artificial,
    compare,
    neuberg,
    rank,
    score_board,
    top,
)
from rules.movement import MovementError, mitchell, mitchell_rounds
from rules.ruleset import PRESETS
from rules.scale_points import match_points, match_scale_points, scale_points
from rules.table_result import table_result

STD = PRESETS["standard"]
FAST = settings(max_examples=30, deadline=None)


# ---- §14.2 calling ----
def _call(shows, level="7", decks=2, fallback="S", banker="N"):
    return call_trump(banker, level, decks, fallback, [(s, parse_cards(c)) for s, c in shows])


def test_with_no_show_the_board_takes_its_fallback_suit():
    assert _call([("N", ""), ("W", ""), ("S", ""), ("E", "")]).trump == "S"


def test_more_level_cards_overturn_fewer():
    assert _call([("N", "H7"), ("W", "D7 D7")]).trump == "D"


def test_equal_shows_never_overturn():
    assert _call([("N", "H7 H7"), ("W", "D7 D7")]).trump == "H"


def test_jokers_outrank_level_cards_at_an_equal_count_and_big_jokers_small_ones():
    assert _call([("N", "H7 H7"), ("W", "LJ LJ")]).trump == "NT"
    called = _call([("N", "LJ LJ"), ("W", "BJ BJ"), ("S", "H7")])
    assert called.trump == "NT" and called.standing.seat == "W"


def test_a_single_joker_or_a_card_off_the_level_is_not_a_show():
    with pytest.raises(CallError, match="W showed LJ"):
        _call([("N", ""), ("W", "LJ")])
    with pytest.raises(CallError, match="N showed H8"):
        _call([("N", "H8")])
    with pytest.raises(CallError, match="N showed H7 H7 H7"):
        _call([("N", "H7 H7 H7")])


def test_shows_start_with_the_banker_and_go_in_play_order():
    with pytest.raises(CallError):
        _call([("W", "")], banker="N")
    assert _call([("S", ""), ("E", "C7")], banker="S").trump == "C"


# ---- §14.3 a table's result ----
def test_the_ns_score_is_plus_p_when_ns_attack_and_minus_p_when_they_bank():
    assert table_result(STD, "E", 85).ns_score == 85
    assert table_result(STD, "N", 85).ns_score == -85
    assert table_result(STD, "N", 85).outcome == "attackers+0"


def test_a_banker_side_lose_deal_revoke_raises_p_to_2s():
    result = table_result(STD, "N", 30, [PenaltyCall("S", "revoke")])
    assert result.points == 2 * STD.step and result.outcome == "attackers+0"
    assert table_result(STD, "N", 130, [PenaltyCall("S", "revoke")]).points == 130


def test_an_attackers_lose_deal_revoke_lowers_p_to_2s_minus_5():
    result = table_result(STD, "N", 150, [PenaltyCall("W", "revoke")])
    assert result.points == 2 * STD.step - 5 and result.outcome == "banker+1"
    assert table_result(STD, "N", 20, [PenaltyCall("W", "revoke")]).points == 20


def test_a_jj_banker_side_wrong_card_count_gives_the_attackers_take_over_and_one_at_100():
    result = table_result(PRESETS["jj-competition"], "N", 40, [PenaltyCall("N", "wrong_card_count")])
    assert result.points == 100 and result.outcome == "attackers+1"


def test_both_sides_at_fault_leaves_the_board_not_played_at_the_table():
    result = table_result(STD, "N", 60, [PenaltyCall("S", "revoke"), PenaltyCall("E", "wrong_card_count")])
    assert result.not_played and result.ns_score is None


def test_a_level_penalty_moves_p_by_20_a_deck_against_the_side_at_fault():
    assert table_result(STD, "N", 60, [PenaltyCall("N", "renege")]).points == 100
    assert table_result(STD, "N", 60, [PenaltyCall("E", "renege")]).points == 20
    assert table_result(PRESETS["three-deck"], "N", 60, [PenaltyCall("E", "renege")]).points == 0


def test_the_outcome_leaves_the_level_cap_out():
    capped = PRESETS["club-competition"]
    assert table_result(capped, "N", 0).gain.levels == 3
    four = PRESETS["four-deck"]
    assert table_result(four, "N", 4 * four.step + 8 * four.step).gain.levels > four.level_cap


# ---- §14.4 matchpoints ----
def test_two_matchpoints_for_each_score_beaten_and_one_for_each_equal():
    assert compare([100, 50, 50, -20]) == [6, 3, 3, 0]


def test_a_boards_top_is_twice_the_other_results():
    assert top(7) == 12 and max(compare(list(range(7)))) == top(7)


def test_neubergs_formula_scales_a_board_played_fewer_times():
    assert neuberg(4, 3, 4) == Fraction(5 * 4, 3) - 1
    assert neuberg(top(3), 3, 4) < top(4)
    assert neuberg(0, 4, 4) == 0 and neuberg(top(4), 4, 4) == top(4)


def test_artificial_scores_are_60_50_and_40_percent_of_the_top():
    assert [artificial(f, 7) for f in Fault] == [Fraction(36, 5), 6, Fraction(24, 5)]


def test_a_board_not_played_at_one_table_scales_the_others_and_gives_that_table_artificial_scores():
    entries = {1: BoardEntry(100), 2: BoardEntry(-40), 3: BoardEntry(None, Fault.NONE, Fault.AT_FAULT)}
    scored = score_board(entries, plays=3)
    assert scored[1] == (neuberg(2, 2, 3), neuberg(0, 2, 3))
    assert scored[3] == (Fraction(6, 10) * 4, Fraction(4, 10) * 4)


def test_a_pairs_percentage_is_rounded_half_up_to_two_decimals_and_ranked_on_the_exact_value():
    assert str(PairScore(Fraction(1, 8), 1).percentage) == "12.50"
    assert str(PairScore(Fraction(2469, 20000) * 12, 12).percentage) == "12.35"  # 12.345 exactly
    scores = {
        "a": PairScore(Fraction(10), 20),
        "b": PairScore(Fraction(7), 12),
        "c": PairScore(Fraction(5), 10),
    }
    assert rank(scores) == [(1, "b"), (2, "a"), (2, "c")]


@FAST
@given(st.lists(st.integers(-60, 60).map(lambda p: 5 * p), min_size=2, max_size=9))
def test_a_boards_matchpoints_in_each_direction_sum_to_a_constant(scores):
    n = len(scores)
    ns, ew = compare(scores), compare([-s for s in scores])
    assert sum(ns) == sum(ew) == n * (n - 1)
    assert all(a + b == top(n) for a, b in zip(ns, ew, strict=True))


# ---- §14.4 the Mitchell movement ----
@pytest.mark.parametrize("tables", [3, 4, 5, 7, 8, 9])
def test_no_pair_plays_a_board_twice_or_meets_a_pair_twice(tables):
    rounds = mitchell(tables, 2)
    assert len(rounds) == mitchell_rounds(tables)
    played, met = {}, set()
    for row in rounds:
        assert sorted(s.ew for s in row) == list(range(1, tables + 1))
        assert sorted(s.board_set for s in row) == list(range(1, tables + 1))
        for s in row:
            assert s.ns == s.table
            for who in (("NS", s.ns), ("EW", s.ew)):
                assert not set(s.boards) & played.setdefault(who, set())
                played[who] |= set(s.boards)
            assert (s.ns, s.ew) not in met
            met.add((s.ns, s.ew))
    plays = {}
    for row in rounds:
        for s in row:
            for b in s.boards:
                plays[b] = plays.get(b, 0) + 1
    assert set(plays.values()) == {mitchell_rounds(tables)}


def test_round_one_seats_pair_k_and_board_set_k_at_table_k_and_then_ew_move_up_and_boards_down():
    r1, r2 = mitchell(5, 3)[:2]
    assert [(s.ns, s.ew, s.boards) for s in r1][1] == (2, 2, (4, 5, 6))
    assert r2[1].ew == 1 and r2[0].ew == 5  # EW up one table, t to 1
    assert r2[1].board_set == 3 and r2[4].board_set == 1  # boards down one, 1 to t


def test_with_eight_tables_the_ew_pairs_skip_a_table_before_round_five():
    rounds = mitchell(8, 2)
    assert len(rounds) == 7

    def table_of(rnd, ew):
        return next(s.table for s in rounds[rnd - 1] if s.ew == ew)

    assert [table_of(r, 1) for r in range(1, 8)] == [1, 2, 3, 4, 6, 7, 8]  # up one, then two before round 5


def test_a_mitchell_needs_two_tables():
    with pytest.raises(MovementError):
        mitchell(1, 2)


# ---- §14.5 scale points ----
@pytest.mark.parametrize(
    "d, points", [(0, 0), (5, 0), (10, 1), (25, 1), (30, 2), (45, 2), (50, 3), (75, 3), (80, 4), (115, 4),
                  (120, 5), (155, 5), (160, 6), (195, 6), (200, 7), (400, 7), (-30, -2)],
)  # fmt: skip
def test_scale_points_read_the_difference_on_the_scale_with_two_decks(d, points):
    assert scale_points(d, 2) == points


def test_scale_points_scale_the_difference_by_two_over_decks():
    assert scale_points(60, 3) == 2  # x = 40
    assert scale_points(60, 1) == 5  # x = 120


def test_a_match_is_won_on_scale_points_two_one_or_nothing_or_by_the_directors_table():
    a, b = match_scale_points([40, -10, 0, 100])
    assert (a, b) == (2 + 4, 1)
    assert match_points(a, b) == (2, 0) and match_points(3, 3) == (1, 1)
    assert match_points(1, 9, {0: (10, 10), 5: (15, 5), 8: (20, 0)}) == (0, 20)


def test_team_difference_goes_to_the_side_with_the_better_score():
    assert all(scale_points(-d) == -scale_points(d) for d, _ in combinations(range(0, 300, 15), 2))
