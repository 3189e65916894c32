"""One, three and four decks (RULES §13): reading, the seeds' follow orders line by line, throws, bombs, kitty.

Seed 002 【三副牌规则】 (泰坦尼克 at level 5, 出牌规则 tables), seed 001 四副牌竞赛规则 （三）出牌顺序 and
（四）牌张大小, seed 003 (kitty 2^cards, at most 64), seed 000 (三对 ×6).
"""

import pytest

from rules.cards import parse_cards
from rules.facts import LeadShape
from rules.follow import follow_problem, hand_counts
from rules.judge import judge
from rules.messages import kind_name
from rules.order import TRUMP
from rules.ruleset import PRESETS, Ruleset
from rules.scoring import kitty_multiplier
from rules.sets import lead_shape
from rules.throw import check_throw
from rules.trick import winner_index
from rules.units import decompose

THREE = PRESETS["three-deck"]
FOUR = PRESETS["four-deck"]
T3_5 = THREE.trump("5", "H")  # seed 002's examples: level 5, ♥ trump
T3_10 = THREE.trump("10", "H")
T4 = FOUR.trump("3", "H")  # four decks start at 3; 2s are permanent trumps


def kinds(text, t):
    return [(u.rank_key, sorted(u.cards)) for u in decompose(parse_cards(text), t)]


# ---------------------------------------------------------------- reading (§13.1)


@pytest.mark.parametrize(
    "text",
    [
        "S3 S3 S3 S4 S4 S4",
        "S4 S4 S4 S6 S6 S6",
        "S5 S5 S5 H5 H5 H5",
        "LJ LJ LJ BJ BJ BJ",
        "HA HA HA S5 S5 S5",
        "H5 H5 H5 LJ LJ LJ",
    ],
)
def test_seed_002s_titanic_examples_at_level_5_are_chains_of_two_triples(text):
    units = decompose(parse_cards(text), T3_5)
    assert len(units) == 1 and units[0].rank_key == (3, 2)


def test_seed_002s_non_titanic_examples():
    """555666 at level 5 is not one suit (5 is trump, 6 plain); ♠555♥555 in NT are two equal triples."""
    t = T3_5
    assert t.eff[parse_cards("S5")[0]] == TRUMP and t.eff[parse_cards("S6")[0]] != TRUMP
    nt = THREE.trump("5", "NT")
    assert [u.rank_key for u in decompose(parse_cards("S5 S5 S5 H5 H5 H5"), nt)] == [(3, 1), (3, 1)]


def test_reading_takes_the_largest_sets_first_then_chains_of_pairs_then_singles():
    units = decompose(parse_cards("S3 S3 S3 S4 S4 S4 S7 S7 S8 S8 S9 SJ SJ SJ SK SK"), T3_10)
    assert [u.rank_key for u in units] == [(3, 2), (3, 1), (2, 2), (2, 1), (1, 1)]


def test_four_decks_chain_only_truly_consecutive_ranks():
    """Seed 001: 点数相连，中间不能因是主牌而隔断 — at level 5 ♣4444 ♣6666 are two quads, not a 推土机."""
    t = FOUR.trump("5", "H")
    assert [u.rank_key for u in decompose(parse_cards("C4 C4 C4 C4 C6 C6 C6 C6"), t)] == [(4, 1), (4, 1)]
    assert [u.rank_key for u in decompose(parse_cards("C3 C3 C3 C3 C4 C4 C4 C4"), t)] == [(4, 2)]
    assert [u.rank_key for u in decompose(parse_cards("LJ LJ LJ BJ BJ BJ"), t)] == [(3, 2)]
    assert [u.rank_key for u in decompose(parse_cards("H4 H4 H4 H5 H5 H5"), t)] == [(3, 1), (3, 1)]
    assert [u.rank_key for u in decompose(parse_cards("H2 H2 H2 H2 H3 H3 H3 H3"), t)] == [(4, 1), (4, 1)]


def test_one_deck_has_only_singles():
    t = PRESETS["one-deck"].trump("2", "S")
    assert {u.rank_key for u in decompose(parse_cards("HA HK HQ"), t)} == {(1, 1)}


def test_kinds_rank_by_set_size_then_length():
    order = sorted([(2, 1), (2, 5), (3, 1), (3, 2), (4, 1), (1, 1)])
    assert order == [(1, 1), (2, 1), (2, 5), (3, 1), (3, 2), (4, 1)]


# ---------------------------------------------------------------- following by the tables (§13.3)


def follow(rs, t, lead, held, play):
    units = decompose(parse_cards(lead), t)
    shape = lead_shape(units, rs, t)
    suit = t.eff[parse_cards(lead)[0]]
    return follow_problem(hand_counts(parse_cards(held)), parse_cards(play), suit, shape, t)


def legal(rs, t, lead, held, play):
    return follow(rs, t, lead, held, play) is None


TITANIC = "S3 S3 S3 S4 S4 S4"
# seed 002 【出牌规则】 泰坦尼克: each line with a hand whose first formable line it is, a play holding it, one not.
THREE_TITANIC_LINES = [
    ("泰坦尼克", "S7 S7 S7 S8 S8 S8 S9 S9", "S7 S7 S7 S8 S8 S8", "S7 S7 S8 S8 S9 S9"),
    ("拖拉机 + 任意两张", "S7 S7 S8 S8 SJ SJ SJ SK SK SK", "S7 S7 S8 S8 SJ SK", "SJ SJ SJ SK SK SK"),
    ("两副三同张", "SJ SJ SJ SK SK SK S6 S8", "SJ SJ SJ SK SK SK", "SJ SJ SJ SK S6 S8"),
    ("三同张 + 对子 + 单张", "SJ SJ SJ S6 S6 S9 S2", "SJ SJ SJ S6 S6 S2", "SJ SJ SJ S9 S2 S6"),
    ("三同张 + 三单张", "SJ SJ SJ S9 S7 S6 S2", "SJ SJ SJ S9 S7 S2", "SJ SJ S9 S7 S6 S2"),
    ("两副对子 + 两单张", "SJ SJ S6 S6 S9 S7 S2", "SJ SJ S6 S6 S9 S2", "SJ SJ S6 S9 S7 S2"),
    ("对子 + 四单张", "SJ SJ S9 S7 S6 S2 S3", "SJ SJ S9 S7 S6 S3", "SJ S9 S7 S6 S2 S3"),
    ("六单张", "SJ S9 S7 S6 S2 S3 SK", "SJ S9 S7 S6 S2 SK", None),
]


@pytest.mark.parametrize(
    "line, held, good, bad", THREE_TITANIC_LINES, ids=[x[0] for x in THREE_TITANIC_LINES]
)
def test_three_deck_titanic_follow_order_line_by_line(line, held, good, bad):
    assert legal(THREE, T3_10, TITANIC, held, good)
    if bad is not None:
        assert follow(THREE, T3_10, TITANIC, held, bad).code in ("revoke_tractor", "revoke_pair")


THREE_TRIPLE_LINES = [
    ("三同张", "SJ SJ SJ S9", "SJ SJ SJ", "SJ SJ S9"),
    ("对子 + 单张", "SJ SJ S9 S7", "SJ SJ S7", "SJ S9 S7"),
    ("三单张", "SJ S9 S7 S6", "SJ S9 S6", None),
]


@pytest.mark.parametrize("line, held, good, bad", THREE_TRIPLE_LINES, ids=[x[0] for x in THREE_TRIPLE_LINES])
def test_three_deck_triple_follow_order_line_by_line(line, held, good, bad):
    assert legal(THREE, T3_10, "S3 S3 S3", held, good)
    if bad is not None:
        assert follow(THREE, T3_10, "S3 S3 S3", held, bad).code == "revoke_pair"


# seed 001 （三）出牌顺序, level 3 (♥ trump): lead, line, hand, a legal play, an illegal one.
FOUR_LINES = [
    ("S4 S4 S4 S4", "四张", "S9 S9 S9 S9 ST ST SJ SJ", "S9 S9 S9 S9", "ST ST SJ SJ"),
    ("S4 S4 S4 S4", "拖拉机", "ST ST SJ SJ SK SK SK S5", "ST ST SJ SJ", "SK SK SK S5"),
    ("S4 S4 S4 S4", "对子 (两对)", "ST ST SK SK S5 S7 S8", "ST ST SK SK", "ST ST S5 S7"),
    ("S4 S4 S4 S4", "对子 (一对)", "ST ST S5 S7 S9 SQ", "ST ST S5 S7", "S5 S7 S9 SQ"),
    (
        "S4 S4 S4 S4",
        "三张 (holds a pair: the pair line comes first)",
        "SK SK SK S5 S7",
        "SK SK SK S5",
        None,
    ),
    ("S4 S4 S4 S4", "散张", "S5 S7 S9 SJ SQ", "S5 S7 S9 SJ", None),
    ("S4 S4 S4", "三张", "SK SK SK S5", "SK SK SK", "SK SK S5"),
    ("S4 S4 S4", "对子", "SK SK S5 S7", "SK SK S5", "SK S5 S7"),
    ("S4 S4 S4", "散张", "SK S5 S7 S9", "SK S5 S7", None),
    (
        "S4 S4 S4 S4 S5 S5 S5 S5",
        "推土机",
        "S9 S9 S9 S9 ST ST ST ST S6",
        "S9 S9 S9 S9 ST ST ST ST",
        "S9 S9 S9 ST ST ST S9 S6",
    ),
    (
        "S4 S4 S4 S4 S5 S5 S5 S5",
        "三张推土机 + 对子",
        "S9 S9 S9 ST ST ST SK SK S6 S7",
        "S9 S9 S9 ST ST ST SK SK",
        "S9 S9 S9 ST ST ST S6 S7",
    ),
    (
        "S4 S4 S4 S4 S5 S5 S5 S5",
        "拖拉机",
        "S9 S9 ST ST SJ SJ S6 S7 SA",
        "S9 S9 ST ST SJ SJ S6 S7",
        "S9 S9 ST ST S6 S7 SA SJ",
    ),
    (
        "S4 S4 S4 S4 S5 S5 S5 S5",
        "三张 + 对子",
        "SK SK SK S7 S7 S6 S9 SJ SA",
        "SK SK SK S7 S7 S6 S9 SJ",
        "SK SK S7 S7 S6 S9 SJ SA",
    ),
    (
        "S4 S4 S4 S4 S5 S5 S5 S5",
        "对子",
        "SK SK S7 S7 S6 S9 SJ SA S4",
        "SK SK S7 S7 S6 S9 SJ SA",
        "SK SK S7 S6 S9 SJ SA S4",
    ),
    ("S4 S4 S4 S5 S5 S5", "推土机", "S9 S9 S9 ST ST ST S6", "S9 S9 S9 ST ST ST", "S9 S9 ST ST S6 S9"),
    ("S4 S4 S4 S5 S5 S5", "拖拉机", "S9 S9 ST ST SK SA S6", "S9 S9 ST ST SK SA", "S9 S9 SK SA S6 ST"),
    ("S4 S4 S4 S5 S5 S5", "三张 + 对子", "SK SK SK S7 S7 S6 S9", "SK SK SK S7 S7 S6", "SK SK S7 S7 S6 S9"),
    ("S4 S4 S4 S5 S5 S5", "对子", "SK SK S7 S7 S6 S9 SJ", "SK SK S7 S7 S6 S9", "SK SK S7 S6 S9 SJ"),
    ("S4 S4 S5 S5", "拖拉机", "S9 S9 ST ST SK SA", "S9 S9 ST ST", "S9 S9 SK SA"),
    ("S4 S4 S5 S5", "对子", "S9 S9 SJ SJ SK SA", "S9 S9 SJ SJ", "S9 S9 SK SA"),
    ("S4 S4 S5 S5", "散张", "S9 SJ SK SA S6", "S9 SJ SK SA", None),
]


@pytest.mark.parametrize(
    "lead, line, held, good, bad", FOUR_LINES, ids=[f"{x[0]}:{x[1]}" for x in FOUR_LINES]
)
def test_four_deck_follow_orders_line_by_line(lead, line, held, good, bad):
    assert legal(FOUR, T4, lead, held, good)
    if bad is not None:
        chain = "拖拉机" in line or "推土机" in line
        assert follow(FOUR, T4, lead, held, bad).code == ("revoke_tractor" if chain else "revoke_pair")


def test_a_quad_lead_takes_two_pairs_from_a_triple_and_a_pair():
    """§13.6: a triple gives a pair; the pair line asks for as many pairs as the lead's card count allows."""
    assert legal(FOUR, T4, "S4 S4 S4 S4", "SK SK SK S7 S7 S9", "SK SK S7 S7")
    assert not legal(FOUR, T4, "S4 S4 S4 S4", "SK SK SK S7 S7 S9", "SK SK SK S9")


def test_without_a_table_the_general_rule_asks_for_sets_then_one_smaller():
    """A three-deck throw of a triple and a pair: the follower owes a triple and a pair where it has them."""
    lead = "S3 S3 S3 S7 S7"
    assert legal(THREE, T3_10, lead, "SK SK SK S9 S9 S6", "SK SK SK S9 S9")
    assert follow(THREE, T3_10, lead, "SK SK SK S9 S9 S6", "SK SK S9 S9 S6").code == "revoke_pair"
    # no triple: a pair stands in for it (one smaller), so two pairs are owed
    assert follow(THREE, T3_10, lead, "SK SK S9 S9 S6 S2", "SK SK S9 S6 S2").code == "revoke_pair"


# ---------------------------------------------------------------- throws (§13.2)


def test_a_triple_can_be_formed_from_cards_to_block_a_thrown_pair():
    """§13.6: ♠AAA blocks a thrown ♠KK."""
    units = decompose(parse_cards("SK SK SQ"), T3_10)
    r = check_throw(units, {"W": parse_cards("SA SA SA"), "S": (), "E": ()}, T3_10)
    assert not r.stands and sorted(r.forced.cards) == sorted(parse_cards("SK SK"))


def test_a_failed_throw_plays_the_beatable_triple_before_a_tractor():
    units = decompose(parse_cards("S7 S7 S7 SQ SQ SJ SJ"), T3_10)
    r = check_throw(units, {"W": parse_cards("S8 S8 S8 SK SK SA SA"), "S": (), "E": ()}, T3_10)
    assert sorted(r.forced.cards) == sorted(parse_cards("S7 S7 S7"))


# ---------------------------------------------------------------- winning and bombs (§13.4)


def win(rs, t, *plays):
    lead = parse_cards(plays[0])
    shape = lead_shape(decompose(lead, t), rs, t)
    return winner_index([parse_cards(p) for p in plays], t, shape)


def test_a_titanic_is_ruffed_only_by_a_titanic():
    lead = "S3 S3 S3 S4 S4 S4"
    assert win(THREE, T3_10, lead, "H7 H7 H7 H8 H8 H8", "D2 D3 D4 D6 D7 D8", "C2 C3 C4 C6 C7 C8") == 1
    assert win(THREE, T3_10, lead, "H7 H7 H8 H8 H9 H9", "D2 D3 D4 D6 D7 D8", "C2 C3 C4 C6 C7 C8") == 0


def test_a_quad_bomb_beats_a_tractor():
    """Seed 001 （四）: 四张（炸弹）胜拖拉机."""
    plays = ("S4 S4 S5 S5", "ST ST SJ SJ", "S9 S9 S9 S9", "S6 S7 S8 SK")
    assert win(FOUR, T4, *plays) == 2
    assert win(Ruleset.from_spec({"preset": "four-deck", "bombs": False}), T4, *plays) == 1


def test_a_bulldozer_beats_a_tractor_of_as_many_cards():
    """Seed 001 （四）: 推土机胜拖拉机."""
    plays = ("S4 S4 S5 S5 S6 S6", "SQ SQ SK SK SA SA", "S9 S9 S9 ST ST ST", "S7 S8 S8 SJ SJ S4")
    assert win(FOUR, T4, *plays) == 2


def test_a_trump_tractor_beats_a_plain_bomb_and_bombs_rank_among_themselves():
    assert win(FOUR, T4, "S4 S4 S5 S5", "S9 S9 S9 S9", "H6 H6 H7 H7", "S6 S7 S8 SK") == 2
    assert win(FOUR, T4, "S4 S4 S5 S5", "S9 S9 S9 S9", "SK SK SK SK", "S6 S7 S8 SQ") == 2


# ---------------------------------------------------------------- kitty (§13.5)


@pytest.mark.parametrize(
    "shape, mult",
    [
        (LeadShape("titanic", 2, False, 3), 64),  # seed 003: 444555 ×64
        (LeadShape("tractor", 3, False, 2), 64),  # 445566 ×64
        (LeadShape("tractor", 2, False, 2), 16),  # 4455 ×16
        (LeadShape("triple", 1, False, 3), 8),  # 555 ×8
        (LeadShape("bulldozer", 2, False, 4), 64),  # capped at 64
    ],
)
def test_seed_003s_card_power_kitty_examples(shape, mult):
    rs = Ruleset.from_spec({"preset": "three-deck", "kitty_scheme": "card_power"})
    assert kitty_multiplier(rs, shape) == mult


@pytest.mark.parametrize(
    "shape, mult",
    [
        (LeadShape("single"), 2),
        (LeadShape("pair", 1), 4),
        (LeadShape("triple", 1, False, 3), 6),  # seed 000: 三对 ×6
        (LeadShape("tractor", 2), 8),
        (LeadShape("titanic", 2, False, 3), 18),  # 2·3^len
        (LeadShape("titanic", 3, False, 3), 54),
    ],
)
def test_unit_power_is_two_times_n_to_the_length(shape, mult):
    assert kitty_multiplier(THREE, shape) == mult


def test_the_judge_reads_a_titanic_lead_for_the_kitty_and_names_it():
    rec = {
        "format": "tractor-deal/1",
        "ruleset": "three-deck",
        "banker": "N",
        "level": "10",
        "trump": "H",
        "partial": True,
        "tricks": [
            {
                "plays": [
                    ["N", "S4 S4 S4 S5 S5 S5"],
                    ["W", "S7 S7 S8 S8 S9 SJ"],
                    ["S", "D2 D3 D4 D6 D7 D8"],
                    ["E", "C2 C3 C4 C6 C7 C8"],
                ]
            }
        ],
    }
    v = judge(rec)
    assert v.ok, v.violations
    assert v.tricks[0].lead_shape == "titanic"
    assert v.facts[0].lead_shape == LeadShape("titanic", 2, False, 3)
    rec["tricks"][0]["plays"][1] = ["W", "S7 S7 S7 S8 S9 SJ"]
    rec["hands"] = {
        "N": "S4 S4 S4 S5 S5 S5",
        "W": "S7 S7 S7 S8 S8 S8 S9 SJ",
        "S": "D2 D3 D4 D6 D7 D8",
        "E": "C2 C3 C4 C6 C7 C8",
    }
    v = judge(rec)
    (bad,) = v.violations
    assert bad.code == "revoke_tractor" and "泰坦尼克" in bad.message_zh and "Titanic" in bad.message


def test_a_four_deck_record_has_no_kitty():
    rec = {
        "format": "tractor-deal/1",
        "ruleset": "four-deck",
        "banker": "N",
        "level": "3",
        "trump": "H",
        "kitty": "S4",
        "tricks": [{"plays": [["N", "S5"], ["W", "S6"], ["S", "S7"], ["E", "S8"]]}],
    }
    codes = {v.code for v in judge(rec).violations}
    assert "card_count" in codes


def test_a_fragment_holding_a_card_more_often_than_the_decks_is_a_deck_count():
    """§13.6: in any record, partial or not, more than ``decks`` copies of a card is ``deck_count``."""
    rec = {
        "format": "tractor-deal/1",
        "ruleset": "three-deck",
        "banker": "N",
        "level": "10",
        "trump": "H",
        "partial": True,
        "tricks": [{"plays": [["N", "S4 S4"], ["W", "S4 S4"], ["S", "D2 D3"], ["E", "C2 C3"]]}],
    }
    assert [(v.code, v.trick) for v in judge(rec).violations] == [("deck_count", None)]
    rec["tricks"][0]["plays"][1] = ["W", "S4 S5"]
    assert judge(rec).ok


@pytest.mark.parametrize(
    "kind, zh",
    [
        ("triple", "三张"),
        ("quad", "四张"),
        ("titanic", "泰坦尼克"),
        ("bulldozer", "推土机"),
        ("bomb", "炸弹"),
    ],
)
def test_the_new_kinds_have_english_and_chinese_names(kind, zh):
    en, name_zh = kind_name(kind)
    assert name_zh == zh and en.isascii() and en


def test_a_larger_set_stands_for_a_smaller_one_when_ruffing():
    """§13.4: a play can win with the lead's units kind by kind; a triple stands for a pair."""
    assert win(THREE, T3_10, "SA SA SK", "H7 H7 H7", "D2 D3 D4", "C2 C3 C4") == 1
    assert win(THREE, T3_10, "SA SA SK", "H7 H8 H9", "D2 D3 D4", "C2 C3 C4") == 0


def test_a_complete_four_deck_deal_is_every_card_played_with_or_without_an_empty_kitty():
    from rules.simulate import simulate_deal

    deal = simulate_deal("four-deck", banker="S", level="3", seed=11)
    assert deal["kitty"] == "" and sum(len(p.split()) for t in deal["tricks"] for _s, p in t["plays"]) == 216
    v = judge(deal)
    assert v.ok and v.complete and v.as_dict()["attackers_points"]["kitty_bonus"] == 0
    del deal["kitty"]
    assert judge(deal).as_dict() == v.as_dict()
    deal["tricks"] = deal["tricks"][:-1]
    assert [x.code for x in judge(deal).violations] == ["incomplete_deal"]
