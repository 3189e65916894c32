"""The trump context of one deal (RULES §3–4): effective suits, strength and the tractor chain.

``Trump`` precomputes, for each of the 54 cards, its effective suit (0–3 plain, ``TRUMP`` = 4) and its
*position*: a dense rank inside the effective suit, higher is stronger. Equal cards (identical cards, or level
cards — and, with permanent twos, 2s — of different plain suits) share a position, so they never beat each
other, and since a tractor needs pairs at consecutive positions, two pairs of equal cards never make one.
The position is therefore both the strength order and the tractor chain:
``… T-A, [other 2, T-2 with permanent twos], other L, T-L, LJ, BJ``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache

from .cards import BJ, LJ, SUIT_SYMBOLS, SUITS, Card
from .ranks import RANK_INDEX, parse_rank

TRUMP = 4


@dataclass(frozen=True, slots=True)
class Trump:
    """Level rank index, trump suit (0–3, or None for no-trump) and whether 2s are permanent trumps.

    ``max_set`` is the largest set the decks allow (1 with one deck, 2 with two, 3, 4: RULES §13.1) and
    ``chain_skips_level`` whether chains skip the level rank and run through the level cards (§4; four-deck: no).
    ``link`` is each card's place in a chain: consecutive links chain. It is ``pos`` unless chains keep to truly
    consecutive ranks; then the level cards and permanent 2s stand alone and only jokers chain with each other.
    """

    level: int
    trump: int | None
    permanent_twos: bool = False
    max_set: int = 2
    chain_skips_level: bool = True
    eff: tuple[int, ...] = field(init=False, repr=False, compare=False)
    pos: tuple[int, ...] = field(init=False, repr=False, compare=False)
    link: tuple[int, ...] = field(init=False, repr=False, compare=False)
    sort_key: tuple[int, ...] = field(init=False, repr=False, compare=False)
    members: tuple[tuple[Card, ...], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        eff = [0] * 54
        pos = [0] * 54
        lvl, ts = self.level, self.trump
        twos = self.permanent_twos and lvl != 0  # at level 2 the 2s are level cards already
        # plain ranks in the chain (skipping the level, and 2 where permanent)
        plain_ranks = [r for r in range(13) if r != lvl and not (twos and r == 0)]
        rank_pos = {r: i for i, r in enumerate(plain_ranks)}
        n = len(plain_ranks)
        top = n if ts is not None else 0  # first trump position above the trump suit's plain cards
        if twos:
            other_two, trump_two = top, top + 1 if ts is not None else top
            top = trump_two + 1
        other_level = top
        trump_level = top + 1 if ts is not None else top
        lj_pos = trump_level + 1
        for c in range(52):
            s, r = c // 13, c % 13
            if r == lvl:
                eff[c] = TRUMP
                pos[c] = trump_level if s == ts else other_level
            elif twos and r == 0:
                eff[c] = TRUMP
                pos[c] = trump_two if s == ts else other_two
            elif s == ts:
                eff[c] = TRUMP
                pos[c] = rank_pos[r]
            else:
                eff[c] = s
                pos[c] = rank_pos[r]
        eff[LJ] = eff[BJ] = TRUMP
        pos[LJ], pos[BJ] = lj_pos, lj_pos + 1
        # display order, high to low: trumps, then ♠ ♥ ♣ ♦; ties broken by suit
        key = [0] * 54
        for c in range(54):
            group = 10 if eff[c] == TRUMP else 3 - eff[c]
            key[c] = group * 10000 + pos[c] * 10 + (0 if c >= 52 else 3 - c // 13)
        object.__setattr__(self, "eff", tuple(eff))
        object.__setattr__(self, "pos", tuple(pos))
        object.__setattr__(self, "sort_key", tuple(key))
        object.__setattr__(self, "link", self.pos if self.chain_skips_level else _strict_links(lvl, twos))
        object.__setattr__(
            self, "members", tuple(tuple(c for c in range(54) if eff[c] == s) for s in range(5))
        )

    def suit_of(self, card: Card) -> int:
        """Effective suit: 0–3, or ``TRUMP``."""
        return self.eff[card]

    def sort(self, cards: Iterable[Card]) -> list[Card]:
        """High to low in the current order (trumps first)."""
        k = self.sort_key
        return sorted(cards, key=k.__getitem__, reverse=True)

    @property
    def trump_text(self) -> str:
        return "NT" if self.trump is None else SUITS[self.trump]


def _strict_links(lvl: int, twos: bool) -> tuple[int, ...]:
    """Chain links when chains keep to consecutive ranks of one suit (seed 001: 点数相连，中间不能因是主牌而隔断):
    a suit's ranks in order with the level rank a gap; level cards and permanent 2s each alone; LJ, BJ adjacent."""
    link = [0] * 54
    for c in range(52):
        s, r = c // 13, c % 13
        if r == lvl or (twos and r == 0):
            link[c] = 1000 + 10 * c  # never next to anything
        else:
            link[c] = 100 * s + r
    link[LJ], link[BJ] = 5000, 5001
    return tuple(link)


@lru_cache(maxsize=512)
def make_trump(
    level: int,
    trump: int | None,
    permanent_twos: bool = False,
    max_set: int = 2,
    chain_skips_level: bool = True,
) -> Trump:
    """A cached ``Trump`` (one per level, suit, twos setting, set size and chain rule)."""
    return Trump(level, trump, permanent_twos, max_set, chain_skips_level)


def trump_from_text(
    level: str, trump: str, permanent_twos: bool = False, max_set: int = 2, chain_skips_level: bool = True
) -> Trump:
    """From record text: level ``"5"``/``"10"``/``"T"``, trump ``S``/``H``/``C``/``D``/``NT`` (symbols too)."""
    lv = RANK_INDEX[parse_rank(level)]
    t = str(trump).strip().upper()
    if t in ("NT", "无主"):
        suit = None
    elif t in SUITS:
        suit = SUITS.index(t)
    elif t in SUIT_SYMBOLS:
        suit = SUIT_SYMBOLS.index(t)
    else:
        raise ValueError(f"unknown trump {trump!r}")
    return make_trump(lv, suit, permanent_twos, max_set, chain_skips_level)
