"""Units and tractors (RULES §4): the worked examples of docs/rules.md and seeds 002 (levels 5, 6, 10) and 001."""

import pytest

from rules.cards import parse_cards
from rules.order import trump_from_text
from rules.units import PAIR, SINGLE, TRACTOR, cover, decompose, shape_name, shape_of_units


def units_of(level, trump, text, twos=False):
    t = trump_from_text(level, trump, twos)
    return decompose(parse_cards(text), t)


def is_tractor(level, trump, text, twos=False):
    units = units_of(level, trump, text, twos)
    return len(units) == 1 and units[0].kind == TRACTOR


@pytest.mark.parametrize(
    "level, trump, text, twos",
    [
        # RULES §4 (level 5, ♥ trump)
        ("5", "H", "C4 C4 C6 C6", False),
        ("5", "H", "HA HA S5 S5", False),
        ("5", "H", "S5 S5 H5 H5", False),
        ("5", "H", "H5 H5 LJ LJ", False),
        ("5", "H", "LJ LJ BJ BJ", False),
        ("5", "H", "HA HA D5 D5 H5 H5 LJ LJ", False),
        # seed 002, 打5: 3344, 4466, 副5主5, 大王小王, AA副5, 主5小王
        ("5", "H", "S3 S3 S4 S4", False),
        ("5", "H", "D4 D4 D6 D6", False),
        # seed 002, 打6: 4455, 5577, 副6主6, AA副6, 主6小王
        ("6", "S", "H4 H4 H5 H5", False),
        ("6", "S", "H5 H5 H7 H7", False),
        ("6", "S", "H6 H6 S6 S6", False),
        ("6", "S", "SA SA D6 D6", False),
        ("6", "S", "S6 S6 LJ LJ", False),
        # seed 002, 打10: KKQQ, JJ99, 554433, 一对小王带一对主10, 一对主10带一对副10,
        # 一对副10带一对主牌A, 一对主10带一对副10及一对主牌A
        ("10", "H", "SK SK SQ SQ", False),
        ("10", "H", "SJ SJ S9 S9", False),
        ("10", "H", "C5 C5 C4 C4 C3 C3", False),
        ("10", "H", "LJ LJ HT HT", False),
        ("10", "H", "HT HT ST ST", False),
        ("10", "H", "DT DT HA HA", False),
        ("10", "H", "HT HT CT CT HA HA", False),
        # permanent twos (seed 001/004 order): … T-A, other 2, T-2, other L, T-L
        ("10", "H", "HA HA S2 S2", True),
        ("10", "H", "S2 S2 H2 H2", True),
        ("10", "H", "H2 H2 ST ST", True),
    ],
)
def test_worked_tractor_examples_are_tractors(level, trump, text, twos):
    assert is_tractor(level, trump, text, twos)


@pytest.mark.parametrize(
    "level, trump, text, twos",
    [
        ("5", "H", "S5 S5 D5 D5", False),  # two pairs of other-suit level cards are equal
        ("5", "H", "H5 H5 H6 H6", False),  # 5566 at level 5: 5 is trump, 6 is plain
        ("5", "NT", "S5 S5 D5 D5", False),  # NT: 5555 of two suits
        ("5", "H", "SA SA S2 S2", False),  # AA22
        ("6", "S", "H6 H6 H7 H7", False),  # seed 002 打6: 6677 not
        ("6", "NT", "H6 H6 C6 C6", False),  # 打无主 6666 not
        ("10", "H", "ST ST DT DT", False),  # 两对副10
        ("10", "H", "HJ HJ HT HT", False),  # JJ1010
        ("10", "H", "S5 S5 S3 S3", False),  # 5533
        ("10", "H", "S2 S2 D2 D2", True),  # two other-suit 2s are equal
    ],
)
def test_worked_non_tractor_examples_are_not_tractors(level, trump, text, twos):
    assert not is_tractor(level, trump, text, twos)


@pytest.mark.parametrize("text", ["S5 S5 S4", "S5 S4 S4", "SJ SJ SQ"])  # seed 002: 554, 544, JJQ
def test_pair_with_a_single_reads_as_pair_then_single(text):
    units = units_of("10", "H", text)
    assert [u.kind for u in units] == [PAIR, SINGLE]


def test_decompose_throw_98844():
    units = units_of("10", "H", "S9 S8 S8 S4 S4")
    assert [(u.kind, len(u.cards)) for u in units] == [(PAIR, 2), (PAIR, 2), (SINGLE, 1)]
    assert shape_name(units) == "throw"


def test_decompose_longest_tractor_first():
    # AQQJJ at level 10: QQJJ tractor + A
    units = units_of("10", "H", "SA SQ SQ SJ SJ")
    assert [u.kind for u in units] == [TRACTOR, SINGLE]
    # 554433 + 99: tractor of three, pair, nothing else
    units = units_of("10", "H", "C5 C5 C4 C4 C3 C3 C9 C9")
    assert [(u.kind, u.length) for u in units] == [(TRACTOR, 3), (PAIR, 1)]


def test_shape_counts_tractors_pairs_and_cards():
    t = trump_from_text("10", "H")
    s = shape_of_units(decompose(parse_cards("SA SK S5 S5 S4 S4"), t))
    assert s.tractors == (2,) and s.pairs == 2 and s.size == 6


@pytest.mark.parametrize(
    "lead, runs, expected",
    [
        ((2, 2), (4,), 4),
        ((3,), (2,), 2),
        ((2,), (3,), 2),
        ((3, 2), (5,), 5),
        ((2, 2), (3,), 2),
        ((2,), (), 0),
        ((4,), (2, 2), 2),
    ],
)
def test_cover_counts_lead_tractor_pairs_covered_by_follower_runs(lead, runs, expected):
    assert cover(lead, runs) == expected
