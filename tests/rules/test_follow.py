"""Following (RULES §6): refusal codes, the shape optimisation, and the simulator's random follow."""

import random

import pytest

from rules.cards import parse_cards
from rules.follow import follow_problem, hand_counts, random_follow
from rules.order import trump_from_text
from rules.units import decompose, shape_of_units

T10 = trump_from_text("10", "H")


def shape_of(cards, t):
    return shape_of_units(decompose(cards, t))


def problem(hand, lead, play, t=T10, exact=True):
    lead_c = parse_cards(lead)
    r = follow_problem(
        hand_counts(parse_cards(hand)), parse_cards(play), t.eff[lead_c[0]], shape_of(lead_c, t), t, exact
    )
    return r.code if r else None


def test_rules_example_tractor_lead_owes_two_pairs():
    # RULES §6: lead ♦3344, H = ♦AA ♦77 ♦8 ♦6 → ♦AA77 only; ♦8776 is a revoke
    hand = "DA DA D7 D7 D8 D6 S3 C4"
    assert problem(hand, "D3 D3 D4 D4", "DA DA D7 D7") is None
    assert problem(hand, "D3 D3 D4 D4", "D8 D7 D7 D6") == "revoke_pair"


def test_pair_lead_owes_a_pair():
    # RULES §6: lead ♠AA, H holds ♠99 → a pair is owed
    hand = "S9 S9 S3 S7 HA"
    assert problem(hand, "SA SA", "S3 S7") == "revoke_pair"
    assert problem(hand, "SA SA", "S9 S9") is None


def test_tractor_lead_owes_a_tractor():
    hand = "SJ SJ S9 S9 SK SK S3"  # JJ99 is a tractor at level 10
    assert problem(hand, "S3 S3 S4 S4", "SK SK SJ SJ") == "revoke_tractor"
    assert problem(hand, "S3 S3 S4 S4", "SJ SJ S9 S9") is None


def test_no_tractor_then_pairs():
    hand = "SK SK S9 S9 S3 S5"
    assert problem(hand, "S6 S6 S7 S7", "SK SK S9 S9") is None
    assert problem(hand, "S6 S6 S7 S7", "SK SK S3 S5") == "revoke_pair"


def test_short_in_suit_plays_all_of_it():
    hand = "S5 H2 C3 D4"
    assert problem(hand, "SA SA", "S5 C3") is None
    assert problem(hand, "SA SA", "C3 D4") == "revoke_suit"


def test_follower_must_stay_in_suit():
    hand = "S5 S6 S7 H2"
    assert problem(hand, "SA", "H2") == "revoke_suit"
    assert problem(hand, "SA", "S6") is None


def test_trump_lead_followed_by_trump():
    # level 10 ♥: ♠10 is trump, so a trump lead must be followed with it
    assert problem("ST S3", "HA", "S3") == "revoke_suit"
    assert problem("ST S3", "HA", "ST") is None


def test_void_may_ruff_or_discard():
    assert problem("H3 D4", "SA", "D4") is None
    assert problem("H3 D4", "SA", "H3") is None


def test_a_follow_of_the_wrong_size_is_play_size():
    assert problem("S3 S4 S5", "SA SA", "S3") == "play_size"


def test_throw_with_two_pairs_owes_two_pairs():
    hand = "SQ SQ S8 S8 S3 S2"
    assert problem(hand, "SA SK SK S5 S5", "SQ SQ S8 S8 S3") is None
    assert problem(hand, "SA SK SK S5 S5", "SQ SQ S8 S3 S2") == "revoke_pair"


def test_follower_tractor_cut_into_pieces():
    # two lead tractors (33-44, 66-77 at level 10) covered by JJQQKKAA cut into two pieces
    hand = "SJ SJ SQ SQ SK SK SA SA S2 S2"
    lead = "S3 S3 S4 S4 S6 S6 S7 S7"
    assert problem(hand, lead, "SJ SJ SQ SQ SK SK SA SA") is None
    assert problem(hand, lead, "SJ SJ SQ SQ SK SK S2 S2") == "revoke_tractor"


def test_lower_bound_hand_reports_only_certain_faults():
    # known cards S3 (played later): a discard when S3 is held is a certain revoke
    assert problem("S3", "SA", "H2", exact=False) == "revoke_suit"
    # known S3 only, played S4: the real hand may hold more spades — not a fault
    assert problem("S3 S4", "SA", "S4", exact=False) is None


@pytest.mark.parametrize("seed", range(20))
def test_random_follow_is_legal(seed):
    rng = random.Random(seed)
    t = T10
    hand = parse_cards("SA SK SK SQ SQ SJ S9 S9 S8 S8 S3 H4 D5 LJ")
    for lead in ("S4 S4 S5 S5", "S2", "S2 S2", "S6 S6 S7 S7 S5"):
        lc = parse_cards(lead)
        p = random_follow(hand, t.eff[lc[0]], shape_of(lc, t), t, rng)
        assert p is not None
        assert follow_problem(hand_counts(hand), p, t.eff[lc[0]], shape_of(lc, t), t) is None
