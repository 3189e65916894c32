"""Throws (RULES §5) — seed 002 《牌类游戏拖拉机》: 98844 at level 10 and 99844 at level 5."""

import pytest

from rules.cards import parse_cards
from rules.order import trump_from_text
from rules.throw import beating_unit, check_throw, forced_kind_from, shown_unit
from rules.units import decompose

T10 = trump_from_text("10", "H")
T5 = trump_from_text("5", "H")


def check(t, throw, **holdings):
    units = decompose(parse_cards(throw), t)
    suit = t.eff[parse_cards(throw)[0]]
    others = {s: [c for c in parse_cards(h) if t.eff[c] == suit] for s, h in holdings.items()}
    return check_throw(units, others, t)


def cards_of(unit):
    return sorted(unit.cards)


@pytest.mark.parametrize("holding", ["SQ SQ", "S5 S5", "S6 S6 S2"])
def test_98844_fails_to_44_against_a_higher_pair(holding):
    r = check(T10, "S9 S8 S8 S4 S4", W=holding, S="D3", E="C3")
    assert not r.stands
    assert cards_of(r.forced) == sorted(parse_cards("S4 S4"))
    assert r.challenger == "W"


def test_98844_fails_to_9_against_a_jack():
    r = check(T10, "S9 S8 S8 S4 S4", W="D2", S="SJ S3", E="C3")
    assert not r.stands and cards_of(r.forced) == sorted(parse_cards("S9"))
    assert r.challenger == "S"


def test_98844_stands_when_nothing_beats_it():
    # lower cards, and trumps (being able to ruff never blocks a throw)
    r = check(T10, "S9 S8 S8 S4 S4", W="S7 S3 S3", S="HA HA BJ", E="S2 S6")
    assert r.stands and r.forced is None


def test_99844_pair_first_then_single():
    # seed 002 (打5): 99844 — 66 beats 44 → play 44; else a ♠10 beats 8 → play 8
    r = check(T5, "S9 S9 S8 S4 S4", W="S6 S6")
    assert cards_of(r.forced) == sorted(parse_cards("S4 S4"))
    r = check(T5, "S9 S9 S8 S4 S4", W="ST S2")
    assert cards_of(r.forced) == sorted(parse_cards("S8"))


def test_tractor_beaten_by_longer_or_higher_tractor():
    # JJ99 (level 10) + A: a QQKK tractor beats the tractor → the tractor is played
    r = check(T10, "SJ SJ S9 S9 SA", E="SQ SQ SK SK")
    assert cards_of(r.forced) == sorted(parse_cards("SJ SJ S9 S9"))
    # 7766 below JJ99 → no
    r = check(T10, "SJ SJ S9 S9 SA", E="S7 S7 S6 S6")
    assert r.stands


def test_only_a_unit_of_the_same_kind_beats_a_throws_unit():
    t = T10
    pair = decompose(parse_cards("S8 S8"), t)[0]
    assert beating_unit(pair, parse_cards("SQ SK"), t) is None  # singles do not beat a pair
    nines = decompose(parse_cards("S9 S9"), t)[0]
    assert beating_unit(pair, parse_cards("S9 S9"), t) == nines


def test_a_shown_unit_forces_the_unit_it_beats_and_two_singles_show_nothing():
    t = T10
    units = decompose(parse_cards("S9 S8 S8 S4 S4"), t)
    shown = shown_unit(parse_cards("SJ"), t)
    assert sorted(forced_kind_from(units, shown).cards) == sorted(parse_cards("S9"))
    assert forced_kind_from(units, shown_unit(parse_cards("S7"), t)) is None
    assert shown_unit(parse_cards("SJ SQ"), t) is None  # two singles are not one unit
