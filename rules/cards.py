"""Cards as plain ints, the tolerant notation of RULES §2, decks and point values.

A card is an ``int`` 0–53: ``suit * 13 + rank`` for the four suits (S, H, C, D; rank 0 = ``2`` … 12 = ``A``),
52 = LJ (小王), 53 = BJ (大王). Ints keep the judge fast (it runs on every trick) and hash/compare for free;
``Card`` is the type alias. A play or hand is a tuple of cards (a multiset: with two decks a card can repeat).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from .ranks import RANKS

Card = int

SUITS: str = "SHCD"
SUIT_SYMBOLS: str = "♠♥♣♦"
LJ: Card = 52
BJ: Card = 53


class CardError(ValueError):
    """A token the notation cannot read; the message names it."""


def make_card(suit: int, rank: int) -> Card:
    return suit * 13 + rank


def _text(card: Card) -> str:
    if card == LJ:
        return "LJ"
    if card == BJ:
        return "BJ"
    return SUITS[card // 13] + RANKS[card % 13]


CARD_TEXT: tuple[str, ...] = tuple(_text(c) for c in range(54))
CARD_BY_TEXT: dict[str, Card] = {text: c for c, text in enumerate(CARD_TEXT)}  # canonical text only
ALL_CARDS: tuple[Card, ...] = tuple(range(54))
_POINTS = {3: 5, 8: 10, 11: 10}  # rank index of 5, T, K
POINTS: tuple[int, ...] = tuple(0 if c >= 52 else _POINTS.get(c % 13, 0) for c in range(54))


def _symbol(card: Card) -> str:
    if card >= 52:
        return "小王" if card == LJ else "大王"
    return SUIT_SYMBOLS[card // 13] + ("10" if card % 13 == 8 else RANKS[card % 13])


CARD_SYMBOL: tuple[str, ...] = tuple(_symbol(c) for c in range(54))


def card_counts(cards: Iterable[Card]) -> dict[Card, int]:
    """Card → copies, in first-seen order (a plain dict: cheaper than ``Counter`` for the handful of a play)."""
    counts: dict[Card, int] = {}
    for c in cards:
        counts[c] = counts.get(c, 0) + 1
    return counts


def make_deck(decks: int = 2) -> tuple[Card, ...]:
    """``decks`` standard packs of 54 cards."""
    return tuple(c for _ in range(decks) for c in ALL_CARDS)


# ---------------------------------------------------------------- parsing

# Fast path: canonical tokens (and common variants) looked up directly.
_SIMPLE: dict[str, tuple[Card, ...]] = {}
for _c in range(52):
    _s, _r = SUITS[_c // 13], RANKS[_c % 13]
    for _st in (_s, SUIT_SYMBOLS[_c // 13]):
        for _rt in (_r, "10") if _r == "T" else (_r,):
            _SIMPLE[_st + _rt] = (_c,)
            _SIMPLE[(_st + _rt).lower()] = (_c,)
for _t, _c in (("LJ", LJ), ("BJ", BJ), ("小王", LJ), ("大王", BJ), ("lj", LJ), ("bj", BJ)):
    _SIMPLE[_t] = (_c,)

_SUIT_CHARS = {ch: i for i, ch in enumerate(SUITS)} | {ch: i for i, ch in enumerate(SUIT_SYMBOLS)}
_RANK_CHARS = {r: i for i, r in enumerate(RANKS)}
_SPLIT = re.compile(r"[\s,，、;]+")
# A suit said in words before its ranks (黑桃A, 红桃55): read as the suit's letter.
SUIT_WORDS: dict[str, str] = {"黑桃": "S", "红桃": "H", "梅花": "C", "方块": "D"}


def _plain(text: str) -> str:
    """Typed text as the notation reads it: full-width letters and digits as ASCII (NFKC: ``ＳＪ`` is ``SJ``), and
    the suit words as suit letters. ASCII text (the usual case) is returned as it is."""
    if text.isascii():
        return text
    text = unicodedata.normalize("NFKC", text)
    for word, letter in SUIT_WORDS.items():
        text = text.replace(word, letter)
    return text


def _parse_token(token: str) -> tuple[Card, ...]:
    """A token: a card, a joker, or a group (a suit then several ranks, the suit may change: ``SAAK``)."""
    found = _SIMPLE.get(token)
    if found is not None:
        return found
    t = token.upper()
    out: list[Card] = []
    suit: int | None = None
    i = 0
    n = len(t)
    while i < n:
        ch = t[i]
        if t.startswith(("LJ", "BJ"), i) or t.startswith(("小王", "大王"), i):
            if i > 0 and t[i - 1] in _SUIT_CHARS:
                raise CardError(f"cannot read card {token!r}: a suit without a rank")
            out.append(LJ if t[i] in "L小" else BJ)
            suit = None
            i += 2
        elif ch in _SUIT_CHARS:
            if suit is not None and i > 0 and t[i - 1] in _SUIT_CHARS:
                raise CardError(f"cannot read card {token!r}: a suit without a rank")
            suit = _SUIT_CHARS[ch]
            i += 1
        elif suit is not None and (ch in _RANK_CHARS or t.startswith("10", i)):
            if t.startswith("10", i):
                out.append(make_card(suit, 8))
                i += 2
            else:
                out.append(make_card(suit, _RANK_CHARS[ch]))
                i += 1
        else:
            raise CardError(f"cannot read card {token!r}")
    if not out or (suit is not None and t[-1] in _SUIT_CHARS):
        raise CardError(f"cannot read card {token!r}")
    return tuple(out)


def parse_cards(text: str | Iterable[str] | None) -> tuple[Card, ...]:
    """Cards from tolerant text (RULES §2): ``"SAAK H55 S1010 BJ"`` → SA SA SK H5 H5 ST ST BJ; full-width
    ``ＳＡ`` and the suit words (``黑桃A``) read too.

    A list of tokens is accepted too. An unreadable token raises ``CardError`` naming it; nothing is guessed.
    """
    if text is None:
        return ()
    if isinstance(text, str):
        try:  # fast path: canonical text
            return tuple(map(CARD_BY_TEXT.__getitem__, text.split()))
        except KeyError:
            pass
        text = _plain(text)
        tokens: list[str] = (
            text.split() if text.isascii() and "," not in text and ";" not in text else _SPLIT.split(text)
        )
    else:
        tokens = []
        for part in text:
            if not isinstance(part, str):
                raise CardError(f"cannot read card {part!r}")
            tokens.extend(_SPLIT.split(_plain(part)))
    out: list[Card] = []
    simple = _SIMPLE
    for tok in tokens:
        if not tok:
            continue
        found = simple.get(tok)
        out.extend(found if found is not None else _parse_token(tok))
    return tuple(out)


def format_cards(cards: Iterable[Card], order: object | None = None) -> str:
    """Canonical text separated by spaces, sorted high to low by ``order`` (a ``Trump``) when given."""
    cs = list(cards)
    if order is not None:
        cs = order.sort(cs)  # type: ignore[attr-defined]
    else:
        cs.sort(reverse=True)
    return " ".join(CARD_TEXT[c] for c in cs)
