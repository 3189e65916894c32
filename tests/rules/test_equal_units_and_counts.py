"""Three readings of the rules, worked by hand from RULES §3, §5, §8 and §13.6 (docs/rules.md, "Settled points"):
a failed throw may be played as any unit equal to its forced one; the given hands are counted together for
``deck_count``; a complete deal with a kitty of the wrong size is the banker's ``card_count``."""

import pytest

from rules.judge import judge
from rules.simulate import simulate_deal

# Level 5, ♥ trump. The trump chain runs … ♥K ♥A, other-suit 5s (all equal, §3), ♥5, LJ, BJ (§4).
# The throw ♥AA ♠55 ♦55 is a tractor (♥AA and one of the equal pairs ♠55 / ♦55) and a pair (the other one).


def challenged(lead, shown, *, ruleset="standard", hands=None):
    """A fragment whose first trick is N's challenged throw ♥AA ♠55 ♦55, played as ``lead``; W shows ``shown``."""
    n = len(lead.split())
    record = {
        "format": "tractor-deal/1",
        "ruleset": ruleset,
        "banker": "N",
        "level": "5",
        "trump": "H",
        "partial": True,
        "tricks": [
            {
                "plays": [
                    ["N", lead],
                    ["W", shown],
                    ["S", " ".join("H2 H3 H4 H6".split()[:n])],
                    ["E", " ".join("H7 H8 H9 HT".split()[:n])],
                ],
                "throw": {"attempted": "HA HA S5 S5 D5 D5", "challenger": "W", "shown": shown},
            }
        ],
    }
    if hands is not None:
        record["hands"] = hands
    return record


def forced_codes(record):
    return [v.code for v in judge(record).violations if v.code in ("wrong_forced_unit", "bad_challenge")]


@pytest.mark.parametrize("ruleset", ["standard", "three-deck"])
@pytest.mark.parametrize("lead", ["HA HA S5 S5", "HA HA D5 D5"])
def test_a_failed_throw_may_be_played_as_either_of_two_equal_tractors(lead, ruleset):
    # LJ LJ BJ BJ beats the tractor (its lowest pair LJ is above ♥A); ♥AA♠55 and ♥AA♦55 are equal (§3), so
    # either is "the lowest" tractor the challenge beats (§5).
    assert forced_codes(challenged(lead, "LJ LJ BJ BJ", ruleset=ruleset)) == []


@pytest.mark.parametrize("ruleset", ["standard", "three-deck"])
@pytest.mark.parametrize("lead", ["S5 S5", "D5 D5"])
def test_a_failed_throw_may_be_played_as_either_of_two_equal_pairs(lead, ruleset):
    # ♥55 beats a pair of other-suit 5s but no tractor: the pair is forced, and ♠55 and ♦55 are equal, whichever
    # of them the reading put into the tractor.
    assert forced_codes(challenged(lead, "H5 H5", ruleset=ruleset)) == []


@pytest.mark.parametrize("lead", ["S5 S5", "D5 D5"])
def test_equal_pairs_are_accepted_when_every_holding_is_known(lead):
    hands = {"N": "HA HA S5 S5 D5 D5", "W": "H5 H5 C2 C3", "S": "H2 H3 C4 C6", "E": "H7 H8 C7 C8"}
    assert forced_codes(challenged(lead, "H5 H5", hands=hands)) == []


def test_a_unit_not_equal_to_the_forced_one_is_still_a_wrong_forced_unit():
    # The tractor is forced: a pair of it, or a tractor the throw did not hold, is not the forced unit.
    assert forced_codes(challenged("S5 S5", "LJ LJ BJ BJ")) == ["wrong_forced_unit"]
    assert forced_codes(challenged("HA HA C5 C5", "LJ LJ BJ BJ")) == ["wrong_forced_unit"]


# ---------------------------------------------------------------- deck_count counts the hands together (§13.6)


def hands_of(deal):
    """The holdings when play began, as the plays of a complete deal give them (RULES §8)."""
    hands = {s: [] for s in "NWSE"}
    for trick in deal["tricks"]:
        for seat, cards in trick["plays"]:
            hands[seat] += cards.split()
    return hands


def deck_counts(verdict):
    return sorted(v.message for v in verdict.violations if v.code == "deck_count")


def test_a_fragment_whose_hands_together_hold_a_card_too_often_is_a_deck_count():
    # Two decks hold ♠A twice; N's hand has two and W's a third: no hand alone is over, the deal is.
    record = {
        "format": "tractor-deal/1",
        "banker": "N",
        "level": "5",
        "trump": "H",
        "partial": True,
        "hands": {"N": "SA SA S3", "W": "SA S4 S6", "S": "S7 S8 S9", "E": "D2 D3 D4"},
        "tricks": [{"plays": [["N", "S3"], ["W", "S4"], ["S", "S7"], ["E", "D2"]]}],
    }
    verdict = judge(record)
    assert [(v.code, v.seat) for v in verdict.violations] == [("deck_count", None)]
    assert "♠A" in verdict.violations[0].message and "3" in verdict.violations[0].message
    record["hands"]["W"] = "SK S4 S6"
    assert judge(record).ok


def test_a_complete_deal_whose_given_hands_hold_a_card_too_often_is_a_deck_count():
    deal = simulate_deal("standard", banker="N", level="7", trump="S", seed=5)
    hands = hands_of(deal)
    twice = next(c for c in hands["N"] if hands["N"].count(c) == 2)
    # E's hand is given with a third copy of that card in place of one E plays: E's play is then not held.
    replaced = next(c for c in hands["E"] if c != twice)
    hands["E"][hands["E"].index(replaced)] = twice
    deal["hands"] = {s: " ".join(h) for s, h in hands.items()}
    verdict = judge(deal)
    assert "deck_count" in {v.code for v in verdict.violations}
    assert "not_held" in {v.code for v in verdict.violations}


def test_a_live_record_whose_given_hands_hold_a_card_too_often_is_a_deck_count():
    deal = simulate_deal("standard", banker="N", level="7", trump="S", seed=5)
    hands = hands_of(deal)
    twice = next(c for c in hands["N"] if hands["N"].count(c) == 2)
    replaced = next(c for c in hands["E"] if c != twice)
    hands["E"][hands["E"].index(replaced)] = twice
    deal["hands"] = {s: " ".join(h) for s, h in hands.items()}
    deal["tricks"] = deal["tricks"][:1]
    verdict = judge(deal, live=True)
    assert [v.code for v in verdict.violations if v.code == "deck_count"] == ["deck_count"]


# ---------------------------------------------------------------- a whole deal with a kitty of the wrong size (§8)


def test_a_complete_deal_with_a_short_kitty_is_the_bankers_card_count_not_incomplete():
    # Every seat played its 25 cards: the deal is over. The kitty lists 7 cards, not 8: the banker's miscount
    # (§8: every card count is checked), and the card left out is seen once, not twice (deck_count).
    deal = simulate_deal("standard", banker="W", level="3", trump="D", seed=9)
    kitty = deal["kitty"].split()
    deal["kitty"] = " ".join(kitty[1:])
    verdict = judge(deal)
    got = [(v.code, v.seat) for v in verdict.violations]
    assert ("card_count", "W") in got and "incomplete_deal" not in {c for c, _s in got}
    count = next(v for v in verdict.violations if v.code == "card_count")
    assert count.message_zh == "底牌 7 张，应为 8 张"
    assert verdict.complete and verdict.result is not None


def test_a_complete_deal_with_an_empty_kitty_is_the_bankers_card_count():
    deal = simulate_deal("standard", banker="N", level="2", trump="H", seed=3)
    deal["kitty"] = ""
    verdict = judge(deal)
    assert [(v.code, v.seat) for v in verdict.violations if v.code != "deck_count"] == [("card_count", "N")]


def test_a_deal_that_stops_early_with_a_short_kitty_is_still_incomplete():
    deal = simulate_deal("standard", banker="W", level="3", trump="D", seed=9)
    deal["kitty"] = " ".join(deal["kitty"].split()[1:])
    deal["tricks"] = deal["tricks"][:-1]
    assert "incomplete_deal" in {v.code for v in judge(deal).violations}


def test_a_deal_still_being_recorded_waits_for_its_kitty_after_the_last_trick():
    # The site enters the kitty after the last trick: until then the live check finds nothing to fault.
    deal = simulate_deal("standard", banker="W", level="3", trump="D", seed=9)
    deal["kitty"] = ""
    verdict = judge(deal, live=True)
    assert verdict.ok and not verdict.complete
