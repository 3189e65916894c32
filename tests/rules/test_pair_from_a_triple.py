"""RULES §13.3: two cards of a triple or quad are a pair. A follower who holds no pair owes the lead's pair from a
triple, and one who holds both may give either; chains of triples give tractors, a throw's pair is owed from a
triple too, and the judge proves such a revoke in a recorded deal. The simulator's follower (the legal-play
generator) always finds a play the checker accepts."""

import random

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from rules.cards import card_counts, parse_cards
from rules.follow import follow_problem, hand_counts, random_follow, witness_follow
from rules.judge import judge
from rules.ruleset import PRESETS
from rules.sets import lead_shape
from rules.units import decompose

THREE = PRESETS["three-deck"]
FOUR = PRESETS["four-deck"]
T3 = THREE.trump("10", "S")
T4 = FOUR.trump("10", "S")


def follow(rs, t, lead, held, play):
    lead_cards = parse_cards(lead)
    shape = lead_shape(decompose(lead_cards, t), rs, t)
    return follow_problem(hand_counts(parse_cards(held)), parse_cards(play), t.eff[lead_cards[0]], shape, t)


def test_a_follower_without_a_pair_owes_the_leads_pair_from_a_triple():
    for rs, t in ((THREE, T3), (FOUR, T4)):
        bad = follow(rs, t, "HK HK", "H8 H8 H8 H7 H6", "H7 H6")
        assert bad is not None and bad.code == "revoke_pair"
        assert bad.witness == tuple(parse_cards("H8 H8"))
        assert follow(rs, t, "HK HK", "H8 H8 H8 H7 H6", "H8 H8") is None


def test_a_follower_without_a_pair_owes_the_leads_pair_from_a_quad():
    bad = follow(FOUR, T4, "HK HK", "H8 H8 H8 H8 H3 H4", "H3 H4")
    assert bad is not None and bad.code == "revoke_pair"
    assert follow(FOUR, T4, "HK HK", "H8 H8 H8 H8 H3 H4", "H8 H8") is None


def test_a_follower_holding_a_pair_and_a_triple_may_give_either():
    held = "HQ HQ H8 H8 H8 H5"
    assert follow(THREE, T3, "HK HK", held, "HQ HQ") is None
    assert follow(THREE, T3, "HK HK", held, "H8 H8") is None
    assert follow(THREE, T3, "HK HK", held, "HQ H5").code == "revoke_pair"


def test_a_tractor_is_owed_from_a_chain_of_triples():
    """Lead ♥KKQQ; W holds ♥888 ♥777 ♥3: ♥8877 is a tractor, owed before any triple."""
    lead, held = "HK HK HQ HQ", "H8 H8 H8 H7 H7 H7 H3"
    for rs, t in ((THREE, T3), (FOUR, T4)):
        assert follow(rs, t, lead, held, "H8 H8 H7 H7") is None
        assert follow(rs, t, lead, held, "H8 H8 H8 H7").code == "revoke_tractor"


def test_two_unchained_triples_owe_two_pairs_to_a_tractor():
    lead, held = "HK HK HQ HQ", "H8 H8 H8 H5 H5 H5 H3"
    assert follow(THREE, T3, lead, held, "H8 H8 H5 H5") is None
    assert follow(THREE, T3, lead, held, "H8 H8 H8 H3").code == "revoke_pair"


def test_a_thrown_triple_and_pair_are_owed_from_two_triples():
    """Throw ♥AAA ♥KK; W holds ♥888 ♥777 ♥3: ♥888 answers the triple, two of ♥777 the pair."""
    lead, held = "HA HA HA HK HK", "H8 H8 H8 H7 H7 H7 H3"
    assert follow(THREE, T3, lead, held, "H8 H8 H8 H7 H7") is None
    assert follow(THREE, T3, lead, held, "H8 H8 H8 H7 H3").code == "revoke_pair"


def test_the_judge_proves_a_pair_withheld_from_a_triple():
    head = dict(format="tractor-deal/1", ruleset="three-deck", banker="N", level="10", trump="S")
    hands = {"N": "HK HK", "W": "H8 H8 H8 H7 H6", "S": "D2 D3", "E": "C2 C3"}
    plays = [["N", "HK HK"], ["W", "H7 H6"], ["S", "D2 D3"], ["E", "C2 C3"]]
    rec = {**head, "partial": True, "hands": hands, "tricks": [{"plays": plays}]}
    (bad,) = judge(rec).violations
    assert (bad.code, bad.trick, bad.seat) == ("revoke_pair", 0, "W")
    rec["tricks"][0]["plays"][1] = ["W", "H8 H8"]
    assert judge(rec).ok


# plain hearts (chains of consecutive ranks), or trumps at level 10 with ♠ trump (♥T ♦T share a link)
POOLS = (parse_cards("H6 H7 H8 H9 HJ HQ"), parse_cards("SK SA HT DT ST LJ"))


@st.composite
def deals(draw):
    rs, decks = draw(st.sampled_from([(THREE, 3), (FOUR, 4)]))
    t = rs.trump("10", "S")
    pool = draw(st.sampled_from(POOLS))
    cards = st.lists(st.sampled_from(pool), min_size=2, max_size=8)
    lead = draw(cards.filter(lambda cs: max(card_counts(cs).values()) <= decks))
    held = draw(st.lists(st.sampled_from(pool), min_size=len(lead) + 1, max_size=len(lead) + 4))
    assume(max(card_counts(held).values()) <= decks)
    play = tuple(draw(st.permutations(held))[: len(lead)])
    return rs, t, tuple(lead), tuple(held), play


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(deals(), st.integers(0, 2**32))
def test_the_generators_follow_is_accepted_and_every_refused_play_has_a_legal_alternative(case, seed):
    rs, t, lead, held, play = case
    shape = lead_shape(decompose(lead, t), rs, t)
    suit = t.eff[lead[0]]
    made = random_follow(held, suit, shape, t, random.Random(seed))
    assert made is not None and follow_problem(hand_counts(held), made, suit, shape, t) is None
    refused = follow_problem(hand_counts(held), play, suit, shape, t)
    if refused is not None:
        other = witness_follow(held, refused.witness, suit, shape, t)
        assert other is not None and follow_problem(hand_counts(held), other, suit, shape, t) is None
