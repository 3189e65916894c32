"""The deck-count rule asked of one play before it is judged (``rules.card_counts.used_up``)."""

from __future__ import annotations

from rules.card_counts import used_up
from rules.cards import parse_cards
from rules.record import parse_record


def record(tricks: list, kitty: str = "", ruleset: str = "standard") -> object:
    return parse_record(
        {
            "format": "tractor-deal/1",
            "ruleset": ruleset,
            "banker": "N",
            "level": "2",
            "trump": "S",
            "kitty": kitty,
            "partial": True,
            "tricks": [{"plays": plays} for plays in tricks],
        }
    )


def test_a_card_played_as_often_as_the_decks_hold_is_used_up_for_the_next_play():
    rec = record([[["N", "SA"], ["E", "SA"]]])  # two decks: both aces of spades are out
    assert used_up(rec, parse_cards("SA SK")) == parse_cards("SA")


def test_a_card_in_the_kitty_counts_as_used():
    rec = record([[["N", "HK"]]], kitty="HK")
    assert used_up(rec, parse_cards("HK")) == parse_cards("HK")
    assert used_up(rec, parse_cards("HQ")) == ()


def test_a_play_holding_more_copies_than_are_left_is_caught_and_each_card_named_once():
    rec = record([[["N", "D9"]]])
    assert used_up(rec, parse_cards("D9 D9")) == parse_cards("D9")
    assert used_up(record([]), parse_cards("D9 D9")) == ()  # two decks hold two


def test_with_one_deck_the_second_copy_is_already_used_up():
    one_deck = record([[["N", "C5"]]], ruleset={"preset": "standard", "decks": 1})
    assert one_deck.ruleset.decks == 1
    assert used_up(one_deck, parse_cards("C5")) == parse_cards("C5")
