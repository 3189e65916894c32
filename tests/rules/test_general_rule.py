"""Three and four decks, the general follow rule (RULES §13.3): a card counts in one unit only.

A follower's triple that answers the lead's triple is not also the pair the lead asks for; a tractor that takes
two cards of a triple leaves no triple. The property test checks the engine against a brute-force reading of
§6.2 with §13.3: every way of forming the cards into units, each card in one unit, and the best over every
selection of the lead's size from the hand.
"""

from collections.abc import Iterator, Sequence
from itertools import combinations, permutations

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from rules.cards import Card, card_counts, parse_cards
from rules.follow import follow_problem, hand_counts, witness_follow
from rules.judge import judge
from rules.order import Trump
from rules.ruleset import PRESETS
from rules.sets import best_forming, general_value, lead_shape
from rules.units import decompose

THREE = PRESETS["three-deck"]
FOUR = PRESETS["four-deck"]
T3 = THREE.trump("10", "S")  # the example: three decks, level 10, ♠ trump


def follow(rs, t, lead, held, play):
    lead_cards = parse_cards(lead)
    shape = lead_shape(decompose(lead_cards, t), rs, t)
    return follow_problem(hand_counts(parse_cards(held)), parse_cards(play), t.eff[lead_cards[0]], shape, t)


def test_a_triple_that_answers_the_leads_triple_is_not_also_the_pair_it_owes():
    """N throws ♥AAA ♥KK; W holds ♥888 ♥QQ ♥7 ♥6 and owes ♥888 and ♥QQ, so ♥888 ♥7 ♥6 is a revoke."""
    lead, held = "HA HA HA HK HK", "H8 H8 H8 HQ HQ H7 H6"
    bad = follow(THREE, T3, lead, held, "H8 H8 H8 H7 H6")
    assert bad is not None and bad.code == "revoke_pair"
    assert sorted(bad.witness) == sorted(parse_cards("H8 H8 H8 HQ HQ"))
    assert follow(THREE, T3, lead, held, "H8 H8 H8 HQ HQ") is None


def test_the_judge_flags_the_triple_counted_twice_in_a_recorded_deal():
    rec = {
        "format": "tractor-deal/1",
        "ruleset": "three-deck",
        "banker": "N",
        "level": "10",
        "trump": "S",
        "partial": True,
        "hands": {
            "N": "HA HA HA HK HK",
            "W": "H8 H8 H8 HQ HQ H7 H6",
            "S": "D2 D3 D4 D6 D7",
            "E": "C2 C3 C4 C6 C7",
        },
        "tricks": [
            {
                "plays": [
                    ["N", "HA HA HA HK HK"],
                    ["W", "H8 H8 H8 H7 H6"],
                    ["S", "D2 D3 D4 D6 D7"],
                    ["E", "C2 C3 C4 C6 C7"],
                ]
            }
        ],
    }
    (bad,) = judge(rec).violations
    assert (bad.code, bad.trick, bad.seat) == ("revoke_pair", 0, "W")
    rec["tricks"][0]["plays"][1] = ["W", "H8 H8 H8 HQ HQ"]
    assert judge(rec).ok


def test_a_tractor_taking_two_cards_of_a_triple_is_a_legal_follow():
    """N throws ♥AAA ♥KKQQ; W holds ♥999 ♥88 ♥5 ♥4 ♥3. The lead's tractor comes first (§13.3 (a)): ♥9988 covers
    it and leaves one ♥9, no triple, so ♥9988 ♥5 ♥4 ♥3 reaches the best the hand can form."""
    lead, held = "HA HA HA HK HK HQ HQ", "H9 H9 H9 H8 H8 H5 H4 H3"
    assert follow(THREE, T3, lead, held, "H9 H9 H8 H8 H5 H4 H3") is None
    assert follow(THREE, T3, lead, held, "H9 H9 H9 H8 H8 H5 H4") is None
    bad = follow(THREE, T3, lead, held, "H9 H9 H9 H8 H5 H4 H3")
    assert bad is not None and bad.code == "revoke_tractor"


# ---------------------------------------------------------------- the brute-force reading


def formings(counts: dict[Card, int], t: Trump) -> Iterator[list[tuple[int, int]]]:
    """Every way to form the cards into units, as (n, length) of each set or chain (singles left out): the
    lowest card left is a single, or the lowest link of a set or a chain of sets, each card in one unit."""
    left = [c for c, k in counts.items() if k]
    if not left:
        yield []
        return
    c = min(left, key=lambda x: (t.link[x], x))
    counts[c] -= 1
    yield from formings(counts, t)
    counts[c] += 1
    for n in range(2, counts[c] + 1):
        counts[c] -= n
        for rest in formings(counts, t):
            yield [(n, 1), *rest]
        for chain in list(_chains_up(counts, t.link[c], n, t)):
            for d in chain:
                counts[d] -= n
            for rest in formings(counts, t):
                yield [(n, len(chain) + 1), *rest]
            for d in chain:
                counts[d] += n
        counts[c] += n


def _chains_up(counts: dict[Card, int], link: int, n: int, t: Trump) -> Iterator[list[Card]]:
    """The cards of the links above ``link`` that extend a chain of ``n``-sets, one link or more."""
    for d in [d for d, k in counts.items() if k >= n and t.link[d] == link + 1]:
        yield [d]
        counts[d] -= n
        for more in _chains_up(counts, link + 1, n, t):
            yield [d, *more]
        counts[d] += n


def value(units: list[tuple[int, int]], kinds: Sequence[tuple[int, int]]) -> tuple[int, ...]:
    """§13.3's vector for one forming: the lead's chains covered per n (one piece each, at most its length),
    then its sets matched per n (chain sets count; an unmatched set may be matched one size smaller)."""
    vec: list[int] = []
    for n in sorted({n for n, ln in kinds if n > 1 and ln > 1}, reverse=True):
        lead = [ln for m, ln in kinds if m == n and ln > 1]
        mine = [ln for m, ln in units if m == n and ln > 1] + [0] * len(lead)
        vec.append(max(sum(map(min, lead, p)) for p in permutations(mine, len(lead))))
    own = {n: sum(ln for m, ln in kinds if m == n) for n in range(2, 5)}
    have = {n: sum(ln for m, ln in units if m == n) for n in range(2, 5)}
    unmatched = 0
    for n in range(max((n for n, _ in kinds), default=1), 1, -1):
        vec.append(min(own[n] + unmatched, have[n]))
        unmatched = max(0, own[n] - have[n])
    return tuple(vec)


def best(cards: Sequence[Card], kinds: Sequence[tuple[int, int]], t: Trump) -> tuple[int, ...]:
    return max(value(f, kinds) for f in formings(card_counts(cards), t))


def legal_by_brute_force(held: Sequence[Card], play: Sequence[Card], kinds, t: Trump) -> bool:
    """§6.2: the play reaches the best value of every selection of its size from the hand."""
    subsets = {tuple(sorted(s)) for s in combinations(sorted(held), len(play))}
    return best(play, kinds, t) >= max(best(s, kinds, t) for s in subsets)


# plain hearts (chains of consecutive ranks), or trumps at level 10 with ♠ trump (♥T ♦T share a link)
POOLS = {
    "plain": parse_cards("H6 H7 H8 H9 HJ HQ"),
    "trump": parse_cards("SK SA HT DT ST LJ"),
}


@st.composite
def follows(draw):
    rs, decks = draw(st.sampled_from([(THREE, 3), (FOUR, 4)]))
    t = rs.trump("10", "S")
    pool = POOLS[draw(st.sampled_from(sorted(POOLS)))]
    multiset = st.lists(st.sampled_from(pool), min_size=2, max_size=7)
    lead = draw(multiset.filter(lambda cs: max(card_counts(cs).values()) <= decks))
    held = draw(st.lists(st.sampled_from(pool), min_size=len(lead) + 1, max_size=min(len(lead) + 3, 8)))
    assume(max(card_counts(held).values()) <= decks)
    play = draw(st.permutations(held)).__getitem__(slice(0, len(lead)))
    return rs, t, tuple(lead), tuple(held), tuple(play)


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much]
)
@given(follows())
def test_the_general_rule_agrees_with_every_card_disjoint_forming(case):
    """A follow is legal exactly when no selection of its size from the hand forms more of the lead's units,
    each card in one unit only; the witness of a fault is what a legal follow holds."""
    rs, t, lead, held, play = case
    shape = lead_shape(decompose(lead, t), rs, t)
    assume(shape.lines is None and shape.kinds and shape.kinds[0][0] > 1)
    suit = t.eff[lead[0]]
    prob = follow_problem(hand_counts(held), play, suit, shape, t)
    assert (prob is None) == legal_by_brute_force(held, play, shape.kinds, t)
    assert (
        best_forming(held, shape.kinds, t)[0]
        == general_value(held, shape.kinds, t)
        == best(held, shape.kinds, t)
    )
    if prob is not None:
        fill = witness_follow(held, prob.witness, suit, shape, t)
        assert fill is not None and follow_problem(hand_counts(held), fill, suit, shape, t) is None


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much]
)
@given(follows(), st.randoms(use_true_random=False))
def test_the_verdict_does_not_depend_on_the_order_of_the_cards(case, rng):
    rs, t, lead, held, play = case
    shape = lead_shape(decompose(lead, t), rs, t)
    suit = t.eff[lead[0]]
    shuffled = list(play)
    rng.shuffle(shuffled)
    first = follow_problem(hand_counts(held), play, suit, shape, t)
    again = follow_problem(hand_counts(held), tuple(shuffled), suit, shape, t)
    assert (first is None) == (again is None)
    if first is not None:
        assert first.code == again.code
