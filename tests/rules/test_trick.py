"""Who wins a trick (RULES §7); the ruff examples of seed 002 《牌类游戏拖拉机》 and 003."""

import pytest

from rules.cards import parse_cards
from rules.order import trump_from_text
from rules.trick import winner_index

T10 = trump_from_text("10", "H")
T5 = trump_from_text("5", "H")


def winner(t, *plays):
    return winner_index([parse_cards(p) for p in plays], t)


def test_998872_ruffs_AK5544_but_not_AA5544():
    # 主牌 9988 72 可毙副牌 AK5544, 但不能毙副牌 AA5544 (level 10, ♥ trump)
    assert winner(T10, "SA SK S5 S5 S4 S4", "H9 H9 H8 H8 H7 H2") == 1
    assert winner(T10, "SA SA S5 S5 S4 S4", "H9 H9 H8 H8 H7 H2") == 0


def test_277889_ruffs_4455KA_not_4455AA_and_778899_ruffs_both():
    # seed 002 §5.2: 277889 毙 4455KA, not 4455AA; 778899 毙 445566 and 4455AA
    assert winner(T10, "S4 S4 S5 S5 SK SA", "H2 H7 H7 H8 H8 H9") == 1
    assert winner(T10, "S4 S4 S5 S5 SA SA", "H2 H7 H7 H8 H8 H9") == 0
    assert winner(T10, "S4 S4 S5 S5 S6 S6", "H7 H7 H8 H8 H9 H9") == 1
    assert winner(T10, "S4 S4 S5 S5 SA SA", "H7 H7 H8 H8 H9 H9") == 1


def test_977_on_544_then_884_overruffs():
    # 主牌 977 可毙副牌 544, 主牌 884 可盖毙
    assert winner(T10, "S5 S4 S4", "H9 H7 H7", "H8 H8 H4") == 2


def test_977_on_567_884_cannot_overruff():
    # 主牌 977 可毙副牌 567, 主牌 884 不能盖毙
    assert winner(T10, "S5 S6 S7", "H9 H7 H7", "H8 H8 H4") == 1


def test_QQ2_overruffs_10_10_K_on_544_but_not_on_543():
    # seed 002 (打5): 主牌10 10 K可毙副牌544，主牌QQ2可盖毙；可毙副牌543，主牌QQ2不可盖毙
    # at level 5 a ♠5 would be trump, so the plain "544" is played here as ♠6 ♠4 ♠4
    assert winner(T5, "S6 S4 S4", "HT HT HK", "HQ HQ H2") == 2
    assert winner(T5, "S6 S4 S3", "HT HT HK", "HQ HQ H2") == 1


def test_equal_cards_first_played_wins():
    # level cards of different plain suits are equal: the earlier play stays
    assert winner(T10, "SA", "ST", "DT", "CT") == 1
    assert winner(T10, "SA", "ST", "DT", "HT") == 3
    assert winner(T10, "S3", "S3", "S2", "S3") == 0  # identical cards


def test_higher_plain_follow_wins_and_a_discard_never_does():
    assert winner(T10, "SK", "SA", "DA", "S2") == 1
    assert winner(T10, "SK", "DA", "CA", "S2") == 0


def test_ruff_needs_the_leads_shape():
    assert winner(T10, "SA SA", "H3 H3") == 1
    assert winner(T10, "SA SA", "H3 H4") == 0  # two trump singles do not ruff a pair
    assert winner(T10, "SA SA", "S3 S3") == 0
    assert winner(T10, "S3 S3", "SA SA", "H2 H2", "H3 H3") == 3


def test_trump_lead_needs_higher_trump():
    assert winner(T10, "HA", "HK", "BJ", "LJ") == 2
    assert winner(T10, "H3 H3 H4 H4", "H6 H6 H8 H8", "H9 H9 HQ HQ") == 0
    assert winner(T10, "H3 H3 H4 H4", "H9 H9 HJ HJ") == 1  # 9-J is a tractor at level 10


@pytest.mark.parametrize("play, wins", [("H6 H6 H7 H7", True), ("H6 H6 H8 H8", False)])
def test_tractor_beats_tractor_only_with_a_tractor(play, wins):
    assert (winner(T10, "S3 S3 S4 S4", play) == 1) is wins
