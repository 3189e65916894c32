"""Card notation (RULES §2): tolerant input, canonical output, decks and points."""

import pytest

from rules.cards import BJ, CARD_TEXT, LJ, POINTS, CardError, format_cards, make_deck, parse_cards
from rules.order import trump_from_text


def texts(cards):
    return [CARD_TEXT[c] for c in cards]


def points(cards):
    return sum(POINTS[c] for c in cards)


def test_group_tokens_from_the_spec():
    assert texts(parse_cards("SAAK H55 S1010 BJ")) == ["SA", "SA", "SK", "H5", "H5", "ST", "ST", "BJ"]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("SA", ["SA"]),
        ("s10", ["ST"]),
        ("ST", ["ST"]),
        ("♠A ♥10", ["SA", "HT"]),
        ("♣q,♦2", ["CQ", "D2"]),
        ("小王 大王", ["LJ", "BJ"]),
        ("lj, bj", ["LJ", "BJ"]),
        ("H5H5", ["H5", "H5"]),
        ("  DK   ", ["DK"]),
        ("", []),
    ],
)
def test_tolerant_input_reads_as_canonical_cards(text, expected):
    assert texts(parse_cards(text)) == expected


def test_list_of_tokens_reads_like_text():
    assert texts(parse_cards(["SA", "H10"])) == ["SA", "HT"]


@pytest.mark.parametrize("bad", ["SX", "S1", "X5", "S", "SH5", "10", "S11", "♠", "JOKER", "SLJ"])
def test_unreadable_token_names_it(bad):
    with pytest.raises(CardError) as e:
        parse_cards(f"SA {bad} H3")
    assert repr(bad) in str(e.value)


def test_card_error_is_a_value_error():
    assert issubclass(CardError, ValueError)


def test_two_decks_hold_108_cards_and_200_points():
    deck = make_deck(2)
    assert len(deck) == 108
    assert deck.count(LJ) == 2 and deck.count(BJ) == 2
    assert points(deck) == 200
    assert points(parse_cards("S5 HT DK SA BJ")) == 25


def test_output_sorted_by_trump_order():
    t = trump_from_text("5", "H")
    cards = parse_cards("S3 H5 BJ S5 HA SA D2 LJ")
    assert format_cards(cards, t) == "BJ LJ H5 S5 HA SA S3 D2"


def test_output_without_order_is_canonical():
    assert format_cards(parse_cards("s10 ♥a")) in ("ST HA", "HA ST")


@pytest.mark.parametrize(
    "text, expected",
    [
        ("ＳＪ", ["SJ"]),  # full-width: the same as typed in ASCII, ♠J (not a joker)
        ("Ｈ５５", ["H5", "H5"]),
        ("ｂｊ，ＬＪ", ["BJ", "LJ"]),
        ("Ｓ１０　Ｄ２", ["ST", "D2"]),  # a full-width space separates too
        ("黑桃A", ["SA"]),
        ("红桃55 梅花10 方块K", ["H5", "H5", "CT", "DK"]),
        ("黑桃AK红桃5", ["SA", "SK", "H5"]),  # a group: the suit word changes the suit
        ("大王黑桃Ｑ", ["BJ", "SQ"]),
        (["黑桃A", "Ｈ５"], ["SA", "H5"]),  # a list of tokens is read alike
    ],
)
def test_full_width_text_and_suit_words_read_as_their_plain_notation(text, expected):
    assert texts(parse_cards(text)) == expected


@pytest.mark.parametrize("text", ["黑桃", "红桃 5", "黑桃红桃A", "方块Ｘ"])
def test_a_suit_word_without_a_rank_is_not_a_card(text):
    with pytest.raises(CardError):
        parse_cards(text)
