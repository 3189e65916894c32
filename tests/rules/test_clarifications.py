"""The two-deck rules as RULES.md and DEAL-RECORD.md sharpened them (issue 13, "Clarifications")."""

import pytest

from rules.cards import parse_cards
from rules.follow import follow_problem, hand_counts
from rules.judge import judge
from rules.levels import LevelGain
from rules.order import trump_from_text
from rules.ruleset import PRESETS, Ruleset
from rules.scoring import penalty_consequence
from rules.throw import check_throw, forced_kind_from, shown_unit
from rules.trick import winner_index
from rules.units import decompose, shape_of_units

T10 = trump_from_text("10", "H")
T5 = trump_from_text("5", "H")
T2 = trump_from_text("2", "H")


def cards(text):
    return sorted(parse_cards(text))


def test_a_failed_throw_plays_the_beatable_unit_of_the_highest_kind():
    """§5: ♠AAKK + ♠665544 challenged by ♠998877 → 665544 (a longer tractor is a higher kind; AAKK cannot be
    beaten)."""
    units = decompose(parse_cards("SA SA SK SK S6 S6 S5 S5 S4 S4"), T10)
    r = check_throw(units, {"W": parse_cards("S9 S9 S8 S8 S7 S7"), "S": (), "E": ()}, T10)
    assert not r.stands and r.challenger == "W"
    assert sorted(r.forced.cards) == cards("S6 S6 S5 S5 S4 S4")
    shown = shown_unit(parse_cards("S9 S9 S8 S8 S7 S7"), T10)
    assert sorted(forced_kind_from(units, shown).cards) == cards("S6 S6 S5 S5 S4 S4")


def test_a_failed_throw_of_two_tractors_of_one_length_plays_the_lowest_beatable():
    units = decompose(parse_cards("SA SA SK SK S6 S6 S5 S5"), T10)
    r = check_throw(units, {"W": parse_cards("S9 S9 S8 S8"), "S": (), "E": ()}, T10)
    assert sorted(r.forced.cards) == cards("S6 S6 S5 S5")


def test_a_play_has_the_leads_shape_if_some_arrangement_of_its_cards_does():
    """§7: ♥AA ♠55 ♦55 ♥55 at level 5 (♥ trump) is ♥AA♠55 + ♦55♥55: it ruffs a lead of two tractors."""
    lead = "C3 C3 C4 C4 C7 C7 C8 C8"
    ruff = "HA HA S5 S5 D5 D5 H5 H5"
    plays = [parse_cards(p) for p in (lead, "D2 D3 D4 D6 D7 D8 D9 DT", ruff, "S2 S3 S4 S6 S7 S8 S9 ST")]
    assert winner_index(plays, T5) == 2


def test_a_follower_holding_two_tractors_through_shared_level_pairs_owes_them():
    """§6 read with §7's arrangements: ♥AA ♠55 ♦55 ♥55 covers both tractors of a trump lead."""
    lead = parse_cards("H3 H3 H4 H4 H7 H7 H8 H8")
    shape = shape_of_units(decompose(lead, T5))
    hand = hand_counts(parse_cards("HA HA S5 S5 D5 D5 H5 H5 H9 HK"))
    assert follow_problem(hand, parse_cards("HA HA S5 S5 D5 D5 H5 H5"), 4, shape, T5) is None
    bad = follow_problem(hand, parse_cards("HA HA S5 S5 D5 D5 H9 HK"), 4, shape, T5)
    assert bad is not None and bad.code == "revoke_tractor"


def test_the_longest_lead_tractor_decides_a_throw_of_tractors_of_different_lengths():
    """§7: ♣AAKKQQ + ♣8877 ruffed by ♥554433 + ♥KKQQ and by ♥JJTT99 + ♥7766: the 3-tractors decide."""
    plays = [
        parse_cards(p)
        for p in (
            "CA CA CK CK CQ CQ C8 C8 C7 C7",
            "H5 H5 H4 H4 H3 H3 HK HK HQ HQ",
            "HJ HJ HT HT H9 H9 H7 H7 H6 H6",
            "D3 D4 D6 D7 D8 D9 DT DJ DQ DK",
        )
    ]
    assert winner_index(plays, T2) == 2


def test_each_lead_tractor_is_set_against_one_follower_piece():
    """§6 (level 2): lead ♠44556677 against ♠9988 ♠QQJJ ♠33: one piece covers 2 pairs; 9988 + JJ + 33 is legal."""
    lead = parse_cards("S4 S4 S5 S5 S6 S6 S7 S7")
    shape = shape_of_units(decompose(lead, T2))
    hand = hand_counts(parse_cards("S9 S9 S8 S8 SQ SQ SJ SJ S3 S3 D2"))
    assert follow_problem(hand, parse_cards("S9 S9 S8 S8 SJ SJ S3 S3"), 0, shape, T2) is None
    assert follow_problem(hand, parse_cards("SQ SQ SJ SJ S9 S9 S3 S3"), 0, shape, T2) is None
    bad = follow_problem(hand, parse_cards("S9 S9 SQ SQ S3 S3 S8 SJ"), 0, shape, T2)
    assert bad is not None and bad.code == "revoke_tractor"


def test_the_j_rule_needs_the_jack_in_the_winning_play():
    """§10: an attacker's J in the last trick that does not win it does not send the bankers back (at level J
    every J is a trump: W's ♠J is overruffed by E's big joker)."""
    rec = {
        "format": "tractor-deal/1",
        "ruleset": "club-competition",
        "banker": "N",
        "level": "J",
        "trump": "H",
        "partial": True,
        "tricks": [{"plays": [["N", "S3"], ["W", "SJ"], ["S", "S4"], ["E", "BJ"]]}],
    }
    assert judge(rec).facts[0].winner_has_jack is False
    rec["tricks"][0]["plays"][3] = ["E", "HJ"]
    assert judge(rec).facts[0].winner_has_jack is True


@pytest.mark.parametrize("name", list(PRESETS))
def test_a_signal_costs_30_points_in_every_preset(name):
    assert PRESETS[name].signal_points == 30


@pytest.mark.parametrize("name", ["standard", "permanent-twos", "club-competition"])
def test_a_banker_side_wrong_count_hands_over_the_bank_with_no_levels(name):
    c = penalty_consequence(Ruleset.from_spec(name), "N", "S", "wrong_card_count")
    assert c.gain == LevelGain("attackers", 0) and not c.same_banker
