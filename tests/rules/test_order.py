"""Trump order and effective suits (RULES §3); seeds 002 and 004 give the level-10 orders."""

from rules.cards import parse_cards
from rules.order import TRUMP, trump_from_text


def order_of(t, text):
    """Positions of the cards in ``text`` (trump order), to compare orders."""
    return [t.pos[c] for c in parse_cards(text)]


def one(text):
    return parse_cards(text)[0]


def is_trump(t, card):
    return t.eff[card] == TRUMP


def beats(t, a, b):
    """Does card ``a`` played after ``b`` beat it? (Same effective suit and strictly higher.)"""
    return t.eff[a] == t.eff[b] and t.pos[a] > t.pos[b]


def test_trump_cards_have_the_effective_suit_trump():
    t = trump_from_text("5", "H")
    for text in ("BJ", "LJ", "H5", "S5", "D5", "HA", "H2"):
        assert is_trump(t, one(text)), text
    for text in ("SA", "C2", "D6"):
        assert not is_trump(t, one(text)), text
    assert t.suit_of(one("SA")) == 0 and t.suit_of(one("S5")) == TRUMP


def test_seed_002_trump_order_level_10_without_permanent_twos():
    # 002: 大王, 小王, 主10, 副10, A, K, Q, J, 9, 8, …, 2
    t = trump_from_text("10", "H")
    positions = order_of(t, "BJ LJ HT ST HA HK HQ HJ H9 H8 H7 H6 H5 H4 H3 H2")
    assert positions == sorted(positions, reverse=True)
    assert len(set(positions)) == len(positions)


def test_other_suit_level_cards_are_equal():
    t = trump_from_text("10", "H")
    assert t.pos[one("ST")] == t.pos[one("DT")] == t.pos[one("CT")]
    assert not beats(t, one("DT"), one("ST")) and not beats(t, one("ST"), one("DT"))
    assert beats(t, one("HT"), one("ST"))


def test_permanent_twos_order_seed_004():
    # 004 / 002 (2 为常主时): 大王, 小王, 主10, 副10, 主2, 副2, A, K, …, 3
    t = trump_from_text("10", "H", permanent_twos=True)
    positions = order_of(t, "BJ LJ HT ST H2 S2 HA HK HQ HJ H9 H3")
    assert positions == sorted(positions, reverse=True) and len(set(positions)) == len(positions)
    assert t.pos[one("S2")] == t.pos[one("D2")]
    assert is_trump(t, one("C2"))
    plain = order_of(t, "SA SK SQ SJ S9 S3")
    assert plain == sorted(plain, reverse=True)
    assert t.pos[one("S3")] == 0  # 2 is no longer at the bottom of the plain suit


def test_no_trump_has_jokers_over_equal_level_cards():
    t = trump_from_text("5", "NT")
    assert t.pos[one("S5")] == t.pos[one("H5")]
    assert beats(t, one("LJ"), one("S5")) and beats(t, one("BJ"), one("LJ"))
    assert not is_trump(t, one("SA"))


def test_plain_suit_skips_the_level():
    t = trump_from_text("5", "H")
    assert t.pos[one("S6")] == t.pos[one("S4")] + 1
    assert beats(t, one("SA"), one("SK"))
    assert not beats(t, one("SA"), one("HA"))  # different suits: plain cards never beat a trump


def test_sort_is_high_to_low_trump_first():
    t = trump_from_text("5", "S")
    assert t.sort(parse_cards("D3 SA S5 H5 BJ")) == list(parse_cards("BJ S5 H5 SA D3"))
