"""Deal records (DEAL-RECORD): reading, every violation code, live/partial judging, the verdict JSON."""

import copy
import json

import pytest

from rules.judge import judge, judge_text
from rules.record import RecordError, parse_record
from rules.simulate import simulate_deal

EXAMPLE = {
    "format": "tractor-deal/1",
    "ruleset": "standard",
    "banker": "N",
    "level": "5",
    "trump": "H",
    "kitty": "S5 SK H9 D3 D3 C4 C7 CQ",
    "hands": None,
    "partial": False,
    "tricks": [
        {"plays": [["N", "SA SA"], ["W", "S3 S4"], ["S", "S8 S8"], ["E", "HJ HJ"]]},
        {
            "plays": [["E", "C9"], ["N", "CK"], ["W", "C2"], ["S", "CA"]],
            "throw": {"attempted": "C9 CJ CJ", "challenger": "N", "shown": "CT"},
        },
    ],
    "penalties": [{"seat": "W", "code": "signal", "trick": 7, "note": "tapped the table"}],
}


def rec(tricks, hands=None, **kw):
    """A partial record at level 5, ♥ trump, banker N."""
    r = {
        "format": "tractor-deal/1",
        "banker": "N",
        "level": "5",
        "trump": "H",
        "partial": True,
        "tricks": [{"plays": p} if isinstance(p, list) else p for p in tricks],
    }
    if hands is not None:
        r["hands"] = hands
    r.update(kw)
    return r


def codes(verdict):
    return [(v.trick, v.seat, v.code) for v in verdict.violations]


HANDS = {
    "N": "SA SA SQ SQ S9 D3",
    "W": "S3 S7 SK SK H2 D4",
    "S": "S8 S8 S6 S2 C5 D5",
    "E": "HJ HJ S4 C3 C6 D6",
}


def test_spec_example_stops_early_so_it_is_an_incomplete_deal():
    """DEAL-RECORD: a record not marked partial whose tricks stop early is ``incomplete_deal``, result null."""
    v = judge(EXAMPLE)
    assert [(x.trick, x.seat, x.code) for x in v.violations] == [(None, None, "incomplete_deal")]
    assert "incomplete" in v.violations[0].message and "部分记录" in v.violations[0].message_zh
    assert v.as_dict()["result"] is None


def test_spec_example_is_ok_and_live():
    v = judge(EXAMPLE, live=True)
    assert v.ok
    assert judge(dict(EXAMPLE, partial=True)).ok
    d = v.as_dict()
    assert d["tricks"] == [
        {"leader": "N", "winner": "E", "points": 0, "lead_shape": "pair"},
        {"leader": "E", "winner": "S", "points": 10, "lead_shape": "single"},
    ]
    assert d["result"] is None and d["attackers_points"] is None
    assert v.facts[1].failed_throw_seat == "E" and v.facts[1].cards_taken_back == 2


def test_a_card_not_in_the_hand_is_not_held():
    v = judge(rec([[["N", "SA SK"], ["W", "S3 S7"], ["S", "S8 S8"], ["E", "S4 C3"]]], HANDS))
    assert (0, "N", "not_held") in codes(v)


def test_empty_lead_is_play_size():
    v = judge(rec([[["N", ""], ["W", "S3"], ["S", "S8"], ["E", "S4"]]]))
    assert (0, "N", "play_size") in codes(v)


def test_a_lead_of_two_suits_is_mixed_lead():
    v = judge(rec([[["N", "SA HA"], ["W", "S3 S7"], ["S", "S8 S6"], ["E", "S4 C3"]]]))
    assert codes(v) == [(0, "N", "mixed_lead")]


def test_wrong_leader_and_wrong_order():
    v = judge(rec([[["W", "S3"], ["S", "S8"], ["E", "S4"], ["N", "SA"]]]))
    assert codes(v) == [(0, "W", "wrong_leader")]
    v = judge(rec([[["N", "SA"], ["S", "S8"], ["W", "S3"], ["E", "S4"]]]))
    assert codes(v) == [(0, "S", "wrong_order")]


def test_clockwise_ruleset_changes_the_order():
    v = judge(
        rec(
            [[["N", "SA"], ["E", "S4"], ["S", "S8"], ["W", "S3"]]],
            ruleset={"preset": "standard", "clockwise": True},
        )
    )
    assert v.ok


def test_a_follow_of_the_wrong_size_is_play_size():
    v = judge(rec([[["N", "SA SA"], ["W", "S3"], ["S", "S8 S8"], ["E", "S4 C3"]]]))
    assert codes(v) == [(0, "W", "play_size")]


def test_revoke_suit_with_hands():
    v = judge(rec([[["N", "S9"], ["W", "H2"], ["S", "S2"], ["E", "S4"]]], HANDS))
    assert codes(v) == [(0, "W", "revoke_suit")]


def test_revoke_after_showing_a_void_live():
    # W discards on a spade lead, then plays a spade later: a revoke, found without any hands
    v = judge(rec([[["N", "SA"], ["W", "D4"], ["S", "S2"], ["E", "S4"]], [["N", "D3"], ["W", "S3"]]]))
    assert codes(v) == [(0, "W", "revoke_suit")]
    assert v.as_dict()["result"] is None
    assert v.tricks[1].winner is None


def test_revoke_pair_names_the_held_pair_in_english_and_chinese():
    v = judge(
        rec(
            [[["N", "SA SA"], ["W", "S3 S7"], ["S", "S8 S8"], ["E", "S4 C3"]]],
            {**HANDS, "W": "S3 S7 SQ SQ H2 D4", "N": "SA SA SK SK S9 D3"},
        )
    )
    assert codes(v) == [(0, "W", "revoke_pair")]
    viol = v.as_dict()["violations"][0]
    assert viol["message"] == "W held ♠QQ but followed the pair lead with ♠7 ♠3"
    assert viol["message_zh"] == "西家持有 ♠QQ，却用 ♠7 ♠3 跟对子"


def test_a_tractor_lead_owes_a_tractor_else_two_pairs():
    hands = {"N": "S3 S3 S4 S4 D2", "W": "SJ SJ SQ SQ SA", "S": "S6 S7 S8 S9 C2", "E": "D6 D7 D8 D9 C3"}
    plays = [["N", "S3 S3 S4 S4"], ["W", "SJ SJ SQ SA"], ["S", "S6 S7 S8 S9"], ["E", "D6 D7 D8 D9"]]
    v = judge(rec([plays], hands))
    assert codes(v) == [(0, "W", "revoke_tractor")]
    assert v.violations[0].message_zh == "西家持有拖拉机 ♠QQ ♠JJ，却用 ♠A ♠Q ♠JJ 跟拖拉机"
    # no tractor in hand (JJ, KK are not adjacent): two pairs are owed instead
    hands["W"] = "SJ SJ SK SK SA SQ"
    plays[1] = ["W", "SJ SJ SA SQ"]
    assert codes(judge(rec([plays], hands))) == [(0, "W", "revoke_pair")]
    plays[1] = ["W", "SJ SJ SK SK"]
    assert judge(rec([plays], hands)).ok


def test_a_throw_another_hand_beats_should_fail():
    hands = {"N": "S9 S8 S8 S4 S4", "W": "SQ SQ S3 D2 D3", "S": "S2 C2 C3 C4 C5", "E": "D4 D5 D6 D7 D8"}
    v = judge(
        rec(
            [
                [
                    ["N", "S9 S8 S8 S4 S4"],
                    ["W", "SQ SQ S3 D2 D3"],
                    ["S", "S2 C2 C3 C4 C5"],
                    ["E", "D4 D5 D6 D7 D8"],
                ]
            ],
            hands,
        )
    )
    assert codes(v) == [(0, "N", "throw_should_fail")]
    assert "W" in v.violations[0].message and "♠QQ" in v.violations[0].message_zh


def test_throw_that_stands_is_ok():
    hands = {"N": "S9 S8 S8 S4 S4", "W": "S7 S3 S3 D2 D3", "S": "S2 C2 C3 C4 C5", "E": "D4 D5 D6 D7 D8"}
    v = judge(
        rec(
            [
                [
                    ["N", "S9 S8 S8 S4 S4"],
                    ["W", "S7 S3 S3 D2 D3"],
                    ["S", "S2 C2 C3 C4 C5"],
                    ["E", "D4 D5 D6 D7 D8"],
                ]
            ],
            hands,
        )
    )
    assert v.ok and v.tricks[0].lead_shape == "throw"


def _challenge_record(play, shown, challenger="W", w_hand="SJ D2 D3 D4 D5"):
    hands = {"N": "S9 S8 S8 S4 S4", "W": w_hand, "S": "C2 C3 C4 C5 C6", "E": "D6 D7 D8 D9 DJ"}
    lead_play = play
    w_play = "SJ" if len(play.split()) == 1 else "SJ D2"
    return rec(
        [
            {
                "plays": [
                    ["N", lead_play],
                    ["W", w_play],
                    ["S", " ".join("C2 C3".split()[: len(play.split())])],
                    ["E", " ".join("D6 D7".split()[: len(play.split())])],
                ],
                "throw": {"attempted": "S9 S8 S8 S4 S4", "challenger": challenger, "shown": shown},
            }
        ],
        hands,
    )


def test_seed_002_challenge_by_a_jack_forces_the_9():
    # seed 002: 98844 against a ♠J → the 9 is played
    v = judge(_challenge_record("S9", "SJ"))
    assert v.ok, codes(v)
    assert v.facts[0].cards_taken_back == 4 and v.facts[0].failed_throw_seat == "N"


def test_the_wrong_unit_after_a_challenge_is_wrong_forced_unit():
    v = judge(_challenge_record("S4 S4", "SJ"))
    assert (0, "N", "wrong_forced_unit") in codes(v)


def test_bad_challenge_not_beating_or_not_held():
    # the challenger is at fault for a challenge that does not hold
    v = judge(_challenge_record("S9", "S7", w_hand="SJ S7 D2 D3 D4"))
    assert (0, "W", "bad_challenge") in codes(v)
    v = judge(_challenge_record("S9", "SK"))
    assert (0, "W", "bad_challenge") in codes(v)
    assert v.facts[0].failed_throw_seat is None and v.facts[0].cards_taken_back == 0  # no penalty for it
    assert "SK" not in v.violations[0].message and "♠K" in v.violations[0].message


def test_trump_throw_forbidden_by_ruleset():
    hands = {"N": "HA HK", "W": "H2 H3", "S": "H4 H6", "E": "H7 H8"}
    plays = [["N", "HA HK"], ["W", "H2 H3"], ["S", "H4 H6"], ["E", "H7 H8"]]
    assert judge(rec([plays], hands)).ok
    v = judge(rec([plays], hands, ruleset={"preset": "standard", "trump_throws": False}))
    assert codes(v) == [(0, "N", "trump_throw")]


def test_simulated_complete_deal_is_ok_and_scored():
    deal = simulate_deal("standard", banker="E", level="7", trump="S", seed=11)
    v = judge(deal)
    assert v.ok and v.complete
    d = v.as_dict()
    assert len(d["tricks"]) == len(deal["tricks"])
    assert set(d["attackers_points"]) >= {
        "tricks",
        "kitty",
        "multiplier",
        "kitty_bonus",
        "penalties",
        "total",
    }
    assert d["result"]["outcome"] in ("banker_holds", "takeover", "match_won")
    assert sum(t["points"] for t in d["tricks"]) + d["attackers_points"]["kitty"] == 200


def test_levels_give_levels_after():
    deal = simulate_deal("standard", banker="N", level="7", trump="S", seed=3)
    deal["levels"] = {"NS": "7", "EW": "9"}
    assert "levels_after" in judge(deal).as_dict()["result"]


def test_a_card_seen_too_often_in_the_deal_is_deck_count():
    deal = simulate_deal("standard", banker="N", level="7", trump="S", seed=5)
    kitty = deal["kitty"].split()
    other = next(c for c in ("SA", "HA", "DA") if c not in kitty)
    kitty[0] = other
    deal["kitty"] = " ".join(kitty)
    v = judge(deal)
    assert {c for _t, _s, c in codes(v)} == {"deck_count"}
    assert all(t is None for t, _s, _c in codes(v))


def test_given_hands_of_the_wrong_size_are_card_count():
    deal = simulate_deal("standard", banker="N", level="7", trump="S", seed=6)
    hands = {s: [] for s in "NWSE"}
    for t in deal["tricks"]:
        for seat, cards in t["plays"]:
            hands[seat] += cards.split()
    hands["N"].append(hands["E"].pop())
    deal["hands"] = {s: " ".join(h) for s, h in hands.items()}
    v = judge(deal)
    got = codes(v)
    assert (None, "N", "card_count") in got and (None, "E", "card_count") in got


def test_reconstructed_hands_of_the_wrong_size_are_card_count():
    for seed in range(7, 40):
        deal = simulate_deal("standard", banker="N", level="7", trump="S", seed=seed)
        plays = dict((s, c) for s, c in deal["tricks"][-1]["plays"])
        if all(len(c.split()) == 1 for c in plays.values()):
            break
    else:
        pytest.fail("no simulated deal ends with a trick of singles")
    # E's last card is played by W instead: W 26 cards, E 24
    deal["tricks"][-1]["plays"] = [
        [s, c + " " + plays["E"] if s == "W" else "" if s == "E" else c]
        for s, c in deal["tricks"][-1]["plays"]
    ]
    v = judge(deal)
    got = codes(v)
    assert (None, "W", "card_count") in got and (None, "E", "card_count") in got
    assert not any(c == "deck_count" for _t, _s, c in got)


def test_incomplete_last_trick_is_judged_live():
    deal = simulate_deal("standard", banker="N", level="7", trump="S", seed=8)
    deal["tricks"] = deal["tricks"][:5]
    deal["tricks"][-1]["plays"] = deal["tricks"][-1]["plays"][:2]
    v = judge(deal, live=True)
    assert v.ok and not v.complete and v.as_dict()["result"] is None


# ---------------------------------------------------------------- reading


@pytest.mark.parametrize(
    "change, culprit",
    [
        ({"colour": "red"}, "colour"),
        ({"format": "tractor-deal/2"}, "tractor-deal/2"),
        ({"ruleset": "no-such"}, "no-such"),
        ({"ruleset": {"preset": "standard", "bogus": 1}}, "bogus"),
        ({"banker": "X"}, "X"),
        ({"level": "1"}, "1"),
        ({"trump": "Z"}, "Z"),
        ({"kitty": "S5 SZ"}, "SZ"),
        ({"tricks": [{"plays": [["N", "SA QQ"]]}]}, "QQ"),
        ({"tricks": [{"plays": [["Q", "SA"]]}]}, "Q"),
        ({"tricks": [{"plays": [["N", "SA"]], "extra": 1}]}, "extra"),
        ({"penalties": [{"seat": "N", "code": "dancing"}]}, "dancing"),
        ({"levels": {"NS": "2", "EW": "9"}}, "levels"),
        ({"partial": "yes"}, "partial"),
        ({"hands": {"N": "SA"}}, "W"),
    ],
)
def test_unreadable_records_name_the_culprit(change, culprit):
    r = copy.deepcopy(EXAMPLE)
    r.update(change)
    with pytest.raises(RecordError) as e:
        judge(r)
    assert culprit in str(e.value)


@pytest.mark.parametrize("field", ["format", "banker", "level", "trump", "tricks"])
def test_a_missing_required_field_is_named(field):
    r = copy.deepcopy(EXAMPLE)
    del r[field]
    with pytest.raises(RecordError, match=field):
        parse_record(r)


def test_complete_record_needs_kitty():
    r = copy.deepcopy(EXAMPLE)
    del r["kitty"]
    with pytest.raises(RecordError, match="kitty"):
        parse_record(r)
    r["partial"] = True
    assert parse_record(r).kitty == ()


def test_judge_text_reads_json_and_refuses_anything_else():
    assert judge_text(json.dumps(dict(EXAMPLE, partial=True))).ok
    with pytest.raises(RecordError, match="not JSON"):
        judge_text("{nope")
    with pytest.raises(RecordError):
        judge_text("[1, 2]")


def test_single_tricks_ruff_beats_a_later_higher_plain_card():
    # the four-singles fast path must agree with RULES §7: W's ruff stays above S's ♠A
    first = [["N", "SK"], ["W", "H3"], ["S", "SA"], ["E", "S2"]]
    v = judge(rec([first, [["W", "D3"], ["S", "D4"], ["E", "D5"], ["N", "D6"]]]))
    assert v.ok and v.tricks[0].winner == "W" and v.tricks[0].points == 10
    v = judge(rec([first, [["S", "D3"], ["E", "D4"], ["N", "D5"], ["W", "D6"]]]))
    assert codes(v) == [(1, "S", "wrong_leader")]
    # trump lead: the higher trump wins, equal level cards keep the first
    v = judge(rec([[["N", "S5"], ["W", "D5"], ["S", "H4"], ["E", "C5"]]]))
    assert v.tricks[0].winner == "N"


def test_trick_facts_lead_shape_for_the_kitty():
    from rules.facts import LeadShape

    plays = [["N", "S3 S3 S4 S4"], ["W", "S6 S7 S8 S9"], ["S", "D6 D7 D8 D9"], ["E", "C6 C7 C8 C9"]]
    v = judge(rec([plays]))
    assert v.facts[0].lead_shape == LeadShape("tractor", 2, False) and v.tricks[0].lead_shape == "tractor"
    hands = {"N": "S9 S8 S8 S4 S4", "W": "S7 S3 S3 D2 D3", "S": "S2 C2 C3 C4 C5", "E": "D4 D5 D6 D7 D8"}
    v = judge(
        rec(
            [
                [
                    ["N", "S9 S8 S8 S4 S4"],
                    ["W", "S7 S3 S3 D2 D3"],
                    ["S", "S2 C2 C3 C4 C5"],
                    ["E", "D4 D5 D6 D7 D8"],
                ]
            ],
            hands,
        )
    )
    assert v.facts[0].lead_shape == LeadShape("pair", 1, True)
    assert v.facts[0].winner == "N" and v.facts[0].points == 10


def test_winner_has_jack_for_the_j_rule():
    v = judge(rec([[["N", "S3"], ["W", "SJ"], ["S", "S4"], ["E", "S6"]]]))
    assert v.facts[0].winner == "W" and v.facts[0].winner_has_jack


def test_kitty_of_the_wrong_size_is_a_card_count():
    deal = simulate_deal("standard", banker="W", level="3", trump="D", seed=9)  # seed 9 ends on single cards
    last = deal["tricks"][-1]["plays"]
    assert all(len(c.split()) == 1 for _s, c in last), "seed 9 no longer ends on single cards: choose another"
    w_card = next(c for s, c in last if s == "W")
    deal["kitty"] += " " + w_card  # also played by W: kitty 9 cards, that card 3 times
    v = judge(deal)
    kitty = [x for x in v.violations if x.code == "card_count"]
    assert kitty and kitty[0].seat == "W" and "底牌 9 张，应为 8 张" == kitty[0].message_zh
    assert any(x.code == "deck_count" for x in v.violations)


def test_an_incomplete_trick_before_the_last_is_reported():
    v = judge(rec([[["N", "SA"], ["W", "S3"]], [["N", "SK"], ["W", "S4"], ["S", "S5"], ["E", "S6"]]]))
    assert (0, None, "incomplete_trick") in codes(v)


def test_live_record_reports_a_card_seen_too_often():
    r = rec(
        [[["N", "SA"], ["W", "SA"], ["S", "SA"], ["E", "S4"]]], partial=False, kitty="D2 D3 D4 D5 D6 D7 D8 D9"
    )
    v = judge(r)
    assert not v.complete and [(t, c) for t, _s, c in codes(v)] == [
        (None, "deck_count"),
        (None, "incomplete_deal"),
    ]
    assert "♠A" in v.violations[0].message_zh
    r["partial"] = (
        True  # a fragment: hand and kitty sizes are not checked, but a card seen too often is (§13.6)
    )
    assert [(t, c) for t, _s, c in codes(judge(r))] == [(None, "deck_count")]
    r["tricks"][0]["plays"][2][1] = "SK"
    assert judge(r).ok
