"""Boards dealt from a seed, deck order, fingerprints and the boards file (RULES §14.1, DEAL-RECORD "Boards")."""

import hashlib
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.boards import Board, BoardError, deal_board, deal_boards, deck_text, new_seed
from rules.boards_file import BoardsFile, loads_boards, read_boards, verify_seed
from rules.cards import parse_cards
from rules.cli import main
from rules.judge import judge
from rules.ruleset import PRESETS
from rules.simulate import simulate_from_hands

SEED = "00" * 31 + "2a"
seeds = st.binary(min_size=32, max_size=32).map(bytes.hex)
FAST = settings(max_examples=20, deadline=None)

# ---- an independent reading of DEAL-RECORD's algorithm, written from its text with card names only ----
SUIT_ORDER, RANK_ORDER = "SHCD", "23456789TJQKA"
PACK = [s + r for s in SUIT_ORDER for r in RANK_ORDER] + ["LJ", "BJ"]


def spec_h(text):
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest(), "big")


def spec_deal(seed, k, decks, hand, ladder):
    deck = [card for _pack in range(decks) for card in PACK]
    for i in range(len(deck) - 1, 0, -1):
        j = spec_h(f"{seed}|{k}|{i}") % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    seats = {s: [] for s in "NWSE"}
    for p, card in enumerate(deck[: 4 * hand]):
        seats["NWSE"[p % 4]].append(card)
    kitty = deck[4 * hand :]
    banker = "NWSE"[(k - 1) % 4]
    level = ladder[spec_h(f"{seed}|{k}|level") % len(ladder)]
    trump = "SHCD"[spec_h(f"{seed}|{k}|trump") % 4]
    return seats, kitty, banker, level, trump


def spec_sorted(cards):
    return " ".join(sorted(cards, key=PACK.index))


def spec_fingerprint(k, ruleset, level, banker, trump, seats, kitty):
    text = f"tractor-board/1|{k}|{ruleset}|{level}|{banker}|{trump}|" + "|".join(
        f"{s} {spec_sorted(seats[s])}" for s in "NWSE"
    )
    return hashlib.sha256((text + f"|K {spec_sorted(kitty)}").encode("utf-8")).hexdigest()


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_a_dealt_board_is_the_deal_that_the_written_algorithm_gives(preset):
    rs = PRESETS[preset]
    for k in (1, 2, 7):
        board = deal_board(SEED, k, preset)
        seats, kitty, banker, level, trump = spec_deal(SEED, k, rs.decks, rs.hand_size, rs.ladder)
        assert {s: deck_text(board.hands[s]) for s in "NWSE"} == {s: spec_sorted(seats[s]) for s in "NWSE"}
        assert deck_text(board.kitty) == spec_sorted(kitty)
        assert (board.banker, board.level, board.trump) == (banker, level, trump)
        assert board.fingerprint == spec_fingerprint(k, preset, level, banker, trump, seats, kitty)


def test_the_bankers_go_north_west_south_east_board_by_board():
    assert [b.banker for b in deal_boards(SEED, 6)] == ["N", "W", "S", "E", "N", "W"]


def test_deck_order_puts_spades_hearts_clubs_diamonds_then_the_jokers():
    assert deck_text(parse_cards("BJ D2 LJ SA S2 HT CK ST")) == "S2 ST SA HT CK D2 LJ BJ"


def test_a_called_board_writes_called_and_its_fallback_in_the_fingerprint():
    board = deal_board(SEED, 3).marked("called")
    assert board.trump_text == f"called/{deal_board(SEED, 3).trump}"
    seats = {s: [t for t in deck_text(board.hands[s]).split()] for s in "NWSE"}
    kitty = deck_text(board.kitty).split()
    assert board.fingerprint == spec_fingerprint(
        3, "standard", board.level, board.banker, board.trump_text, seats, kitty
    )


def test_a_four_deck_board_has_no_kitty_and_its_fingerprint_ends_with_k_and_a_space():
    board = deal_board(SEED, 1, "four-deck")
    assert board.kitty == () and all(len(board.hands[s]) == 54 for s in "NWSE")
    text = f"tractor-board/1|1|four-deck|{board.level}|N|{board.trump}|" + "|".join(
        f"{s} {deck_text(board.hands[s])}" for s in "NWSE"
    )
    assert board.fingerprint == hashlib.sha256((text + "|K ").encode()).hexdigest()


@FAST
@given(seeds, st.integers(1, 40), st.sampled_from(sorted(PRESETS)))
def test_every_card_is_on_a_board_exactly_decks_times(seed, k, preset):
    board = deal_board(seed, k, preset)
    cards = [c for s in "NWSE" for c in board.hands[s]] + list(board.kitty)
    assert sorted(cards) == sorted(list(range(54)) * PRESETS[preset].decks)


@FAST
@given(seeds, st.integers(1, 40))
def test_dealing_again_from_the_seed_gives_the_same_fingerprint(seed, k):
    assert deal_board(seed, k).fingerprint == deal_board(seed, k).fingerprint
    assert deal_board(seed, k).fingerprint != deal_board(seed, k + 1).fingerprint


def test_a_fresh_seed_is_64_lowercase_hex_digits_and_never_the_same_twice():
    a, b = new_seed(), new_seed()
    assert len(a) == 64 and a == a.lower() and int(a, 16) >= 0 and a != b


def test_a_seed_that_is_not_64_hex_digits_is_refused():
    with pytest.raises(BoardError):
        deal_board("XYZ", 1)


def _file(seed=None, count=4):
    return BoardsFile("秋季复式赛 第1节", seed, deal_boards(SEED, count))


def test_a_boards_file_round_trips_through_its_text():
    original = _file()
    back = loads_boards(original.dumps())
    assert back == original
    assert json.loads(original.dumps())["boards"][0]["hands"]["N"] == deck_text(original.boards[0].hands["N"])


def test_a_boards_file_with_one_altered_card_is_refused_naming_the_board():
    doc = _file().as_dict()
    hand = doc["boards"][2]["hands"]["W"].split()
    kitty = doc["boards"][2]["kitty"].split()
    hand[0], kitty[0] = kitty[0], hand[0]  # a card moved from hand to kitty: still two decks
    doc["boards"][2]["hands"]["W"], doc["boards"][2]["kitty"] = " ".join(hand), " ".join(kitty)
    with pytest.raises(BoardError, match="board 3") as e:
        read_boards(doc)
    assert e.value.number == 3


def test_a_boards_file_with_a_card_that_is_there_three_times_is_refused_naming_the_board_and_card():
    doc = _file().as_dict()
    hand = doc["boards"][1]["hands"]["N"].split()
    other = doc["boards"][1]["hands"]["S"].split()[0]
    hand[0] = other
    doc["boards"][1]["hands"]["N"] = " ".join(hand)
    with pytest.raises(BoardError, match="board 2") as e:
        read_boards(doc)
    assert e.value.number == 2


def test_a_published_seed_must_deal_the_files_boards():
    doc = _file(seed=SEED).as_dict()
    assert read_boards(doc).seed == SEED
    doc["seed"] = "11" * 32
    with pytest.raises(BoardError, match="board 1"):
        read_boards(doc)


def test_a_directors_mark_keeps_the_board_checkable_against_its_seed():
    boards = [deal_board(SEED, 1).marked("NT"), deal_board(SEED, 2).marked("called"), deal_board(SEED, 3)]
    assert verify_seed(SEED, boards) == []
    assert read_boards(BoardsFile("", SEED, tuple(boards)).as_dict()).boards[1].trump == "called"
    assert verify_seed("11" * 32, boards) == [1, 2, 3]


@pytest.mark.parametrize(
    "change, words",
    [
        (lambda d: d.update(format="tractor-boards/2"), "format"),
        (lambda d: d.update(extra=1), "unknown field"),
        (lambda d: d["boards"][0].update(colour="red"), "board 1: unknown field"),
        (lambda d: d["boards"][0].update(ruleset={"preset": "standard"}), "board 1: unknown ruleset"),
        (lambda d: d["boards"][0].update(trump="called"), "board 1: a called board"),
        (lambda d: d["boards"][0]["hands"].update(N="S2 XX"), "board 1"),
        (lambda d: d.update(boards=[]), "boards must be"),
        (lambda d: d["boards"].append(dict(d["boards"][0])), "board 1 is there twice"),
    ],
)
def test_a_boards_file_that_is_not_one_is_refused_with_what_is_wrong(change, words):
    doc = _file().as_dict()
    change(doc)
    with pytest.raises(BoardError, match=words):
        read_boards(doc)


def test_a_boards_file_that_is_not_json_is_refused():
    with pytest.raises(BoardError, match="not JSON"):
        loads_boards("{")


def test_a_board_is_frozen():
    with pytest.raises(AttributeError):
        deal_board(SEED, 1).number = 2  # type: ignore[misc]
    assert isinstance(deal_board(SEED, 1), Board)


@settings(max_examples=5, deadline=None)
@given(seeds, st.integers(1, 8))
def test_a_board_played_out_from_its_hands_is_a_legal_deal_of_those_hands(seed, k):
    board = deal_board(seed, k)
    record = simulate_from_hands(
        "standard",
        board.hands,
        board.kitty,
        banker=board.banker,
        level=board.level,
        trump=board.trump,
        seed=k,
    )
    assert judge(record).ok
    for seat in "NWSE":
        if seat != board.banker:
            assert sorted(parse_cards(record["hands"][seat])) == list(board.hands[seat])
    held = sorted(parse_cards(record["hands"][board.banker]) + parse_cards(record["kitty"]))
    assert held == sorted(board.hands[board.banker] + board.kitty)


def test_the_command_line_deals_from_a_seed_and_checks_the_file_naming_an_altered_board(tmp_path, capsys):
    assert main(["boards", "deal", SEED, "3"]) == 0
    text = capsys.readouterr().out
    assert loads_boards(text).boards == deal_boards(SEED, 3)
    path = tmp_path / "boards.json"
    path.write_text(text, encoding="utf-8")
    assert main(["boards", "check", str(path)]) == 0
    assert capsys.readouterr().out.count("ok") == 3
    doc = json.loads(text)
    doc["boards"][1]["level"] = "A" if doc["boards"][1]["level"] != "A" else "K"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert main(["boards", "check", str(path)]) == 1
    assert "board 2" in capsys.readouterr().err
