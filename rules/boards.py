"""Boards (RULES §14.1, DEAL-RECORD "Boards"): deals fixed before play, dealt from a seed, fingerprinted.

A board's hands and kitty are written in **deck order** (♠2 … ♠A, ♥ …, ♣ …, ♦ …, LJ, BJ), which is the order
of the engine's card ints, so sorting a hand's ints is its canonical order. The dealing algorithm is the one
DEAL-RECORD.md writes out step by step, so anyone holding the published seed can deal every board again and
compare fingerprints; nothing here may change without changing that text.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from .cards import CARD_TEXT, Card, CardError, card_counts, make_deck, parse_cards
from .ranks import parse_rank
from .ruleset import PRESETS, Ruleset
from .seats import SEATS

TRUMP_SUITS: tuple[str, ...] = ("S", "H", "C", "D")
MARKS: tuple[str, ...] = (*TRUMP_SUITS, "NT", "called")
SEED_RE = re.compile(r"[0-9a-f]{64}")
FINGERPRINT_RE = re.compile(r"[0-9a-f]{64}")


class BoardError(ValueError):
    """A board that is not one: ``number`` names the board (None: the file or the seed as a whole)."""

    def __init__(self, message: str, number: int | None = None) -> None:
        super().__init__(message)
        self.number = number


def deck_text(cards: Iterable[Card]) -> str:
    """Cards in deck order, canonical tokens, single spaces (DEAL-RECORD "Deck order of cards")."""
    return " ".join(CARD_TEXT[c] for c in sorted(cards))


def seed_hash(text: str) -> int:
    """``H(text)``: the SHA-256 of the UTF-8 text read as a big-endian integer."""
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest(), "big")


def new_seed() -> str:
    """A fresh secret seed: 32 random bytes as 64 lower-case hex digits."""
    return secrets.token_hex(32)


def check_seed(seed: str) -> str:
    """The seed itself when it is 64 lower-case hex digits; BoardError otherwise."""
    if not isinstance(seed, str) or not SEED_RE.fullmatch(seed):
        raise BoardError("a seed is 64 lower-case hex digits")
    return seed


@dataclass(frozen=True, slots=True)
class Board:
    """One deal fixed before play. ``trump`` is a suit letter, ``NT`` or ``called`` (then ``fallback`` is the
    suit it falls back to); ``hands`` maps each seat to its cards and ``kitty`` is the dealt kitty, all kept as
    sorted tuples (deck order)."""

    number: int
    ruleset: str
    level: str
    banker: str
    trump: str
    hands: Mapping[str, tuple[Card, ...]]
    kitty: tuple[Card, ...]
    fallback: str | None = None

    @property
    def rules(self) -> Ruleset:
        return PRESETS[self.ruleset]

    @property
    def trump_text(self) -> str:
        """The trump as the fingerprint writes it: ``called/H`` for a called board."""
        return f"called/{self.fallback}" if self.trump == "called" else self.trump

    @property
    def fingerprint(self) -> str:
        return fingerprint(self)

    def marked(self, trump: str) -> Board:
        """The board with the director's mark (RULES §14.1): ``NT``, ``called`` (keeping the drawn suit as its
        fallback) or a suit. A called board's fallback is the suit it was drawn with."""
        if trump not in MARKS:
            raise BoardError(f"unknown trump mark {trump!r}", self.number)
        drawn = self.fallback if self.trump == "called" else self.trump
        if trump == "called":
            if drawn not in TRUMP_SUITS:
                raise BoardError("a called board needs a suit to fall back to", self.number)
            return replace(self, trump="called", fallback=drawn)
        return replace(self, trump=trump, fallback=None)

    def as_dict(self) -> dict[str, object]:
        """The board as the boards file writes it."""
        d: dict[str, object] = {
            "number": self.number,
            "ruleset": self.ruleset,
            "level": self.level,
            "banker": self.banker,
            "trump": self.trump,
        }
        if self.trump == "called":
            d["fallback"] = self.fallback
        d["hands"] = {seat: deck_text(self.hands[seat]) for seat in SEATS}
        d["kitty"] = deck_text(self.kitty)
        d["fingerprint"] = self.fingerprint
        return d


def fingerprint(board: Board) -> str:
    """SHA-256 hex of ``tractor-board/1|number|ruleset|level|banker|trump|N …|W …|S …|E …|K …``."""
    hands = "|".join(f"{seat} {deck_text(board.hands[seat])}" for seat in SEATS)
    text = (
        f"tractor-board/1|{board.number}|{board.ruleset}|{board.level}|{board.banker}|{board.trump_text}"
        f"|{hands}|K {deck_text(board.kitty)}"
    )
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def deal_board(seed: str, number: int, preset: str = "standard") -> Board:
    """Board ``number`` dealt from ``seed`` by DEAL-RECORD's four steps (deck list, Fisher–Yates by ``H``,
    positions to seats, banker/level/trump)."""
    check_seed(seed)
    if preset not in PRESETS:
        raise BoardError(f"unknown preset {preset!r}", number)
    if number < 1:
        raise BoardError("board numbers start at 1", number)
    rs = PRESETS[preset]
    deck = list(make_deck(rs.decks))
    for i in range(len(deck) - 1, 0, -1):
        j = seed_hash(f"{seed}|{number}|{i}") % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    dealt = 4 * rs.hand_size
    hands = {seat: tuple(sorted(deck[p] for p in range(dealt) if p % 4 == k)) for k, seat in enumerate(SEATS)}
    level = rs.ladder[seed_hash(f"{seed}|{number}|level") % len(rs.ladder)]
    trump = TRUMP_SUITS[seed_hash(f"{seed}|{number}|trump") % 4]
    return Board(
        number=number,
        ruleset=preset,
        level=level,
        banker=SEATS[(number - 1) % 4],
        trump=trump,
        hands=hands,
        kitty=tuple(sorted(deck[dealt:])),
    )


def deal_boards(seed: str, count: int, preset: str = "standard") -> tuple[Board, ...]:
    """Boards 1 … ``count`` of a session."""
    return tuple(deal_board(seed, k, preset) for k in range(1, count + 1))


def check_cards(board: Board) -> None:
    """Each seat holds the preset's hand size and every card is there exactly ``decks`` times (RULES §14.1)."""
    rs = board.rules
    for seat in SEATS:
        if len(board.hands[seat]) != rs.hand_size:
            raise BoardError(
                f"board {board.number}: {seat} holds {len(board.hands[seat])} cards, not {rs.hand_size}",
                board.number,
            )
    if len(board.kitty) != rs.kitty_size:
        raise BoardError(
            f"board {board.number}: the kitty has {len(board.kitty)} cards, not {rs.kitty_size}", board.number
        )
    counts = card_counts(c for seat in SEATS for c in board.hands[seat])
    for c in board.kitty:
        counts[c] = counts.get(c, 0) + 1
    for c in range(54):
        if counts.get(c, 0) != rs.decks:
            raise BoardError(
                f"board {board.number}: {CARD_TEXT[c]} is there {counts.get(c, 0)} times, not {rs.decks}",
                board.number,
            )


def same_deal(board: Board, dealt: Board) -> bool:
    """The board holds the seed's deal: number, preset, level, banker, hands, kitty, and a trump that is the
    drawn suit or a director's mark on it (RULES §14.1: marks are checked against the file, not the seed)."""
    drawn_ok = board.trump in ("NT", "called") or board.trump == dealt.trump
    fallback_ok = board.trump != "called" or board.fallback == dealt.trump
    return (
        board.number == dealt.number
        and board.ruleset == dealt.ruleset
        and board.level == dealt.level
        and board.banker == dealt.banker
        and dict(board.hands) == dict(dealt.hands)
        and board.kitty == dealt.kitty
        and drawn_ok
        and fallback_ok
    )


def parse_board(obj: object, where: str = "board") -> Board:
    """A board from its boards-file object (fingerprint not checked here: ``read_boards`` does)."""
    if not isinstance(obj, Mapping):
        raise BoardError(f"{where} is not an object")
    number = obj.get("number")
    if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number <= 9999:
        raise BoardError(f"{where}: number must be a whole number from 1 to 9999")
    where = f"board {number}"
    allowed = {"number", "ruleset", "level", "banker", "trump", "fallback", "hands", "kitty", "fingerprint"}
    unknown = sorted(set(obj) - allowed)
    if unknown:
        raise BoardError(f"{where}: unknown field {unknown[0]!r}", number)
    missing = sorted({"ruleset", "level", "banker", "trump", "hands", "kitty", "fingerprint"} - set(obj))
    if missing:
        raise BoardError(f"{where}: missing field {missing[0]!r}", number)
    ruleset, banker, trump = obj["ruleset"], obj["banker"], obj["trump"]
    if not isinstance(ruleset, str) or ruleset not in PRESETS:
        raise BoardError(f"{where}: unknown ruleset {ruleset!r}", number)
    if banker not in SEATS:
        raise BoardError(f"{where}: banker must be N, W, S or E", number)
    if trump not in MARKS:
        raise BoardError(f"{where}: trump must be S, H, C, D, NT or called", number)
    fallback = obj.get("fallback")
    if (trump == "called") != ("fallback" in obj) or (trump == "called" and fallback not in TRUMP_SUITS):
        raise BoardError(f"{where}: a called board, and only one, has a fallback suit", number)
    try:
        level = parse_rank(str(obj["level"]))
    except ValueError:
        raise BoardError(f"{where}: unknown level {obj['level']!r}", number) from None
    if level not in PRESETS[ruleset].ladder:
        raise BoardError(f"{where}: level {level} is not on the {ruleset} ladder", number)
    hands_obj = obj["hands"]
    if not isinstance(hands_obj, Mapping) or set(hands_obj) != set(SEATS):
        raise BoardError(f"{where}: hands need exactly N, W, S and E", number)
    try:
        hands = {seat: tuple(sorted(_cards(hands_obj[seat]))) for seat in SEATS}
        kitty = tuple(sorted(_cards(obj["kitty"])))
    except CardError as e:
        raise BoardError(f"{where}: {e}", number) from None
    board = Board(number, ruleset, level, banker, trump, hands, kitty, fallback)
    check_cards(board)
    return board


def _cards(value: object) -> tuple[Card, ...]:
    if not isinstance(value, str) or len(value) > 2000:
        raise CardError("cards must be text")
    return parse_cards(value)
