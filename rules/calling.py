"""Calling the trump at the table on a board marked ``called`` (RULES §14.2).

Once round the table in play order from the banker, each player shows ``m`` identical level cards of one suit
(1 ≤ m ≤ decks), or ``m ≥ 2`` identical jokers (no-trump), or passes. A show stands only if it outranks the
standing one: more cards; at an equal count jokers over level cards and big jokers over small. Equal shows (level
cards of two suits, the same jokers) never overturn. The last standing show fixes the trump; with none, the
board's fallback suit. The banker stays the banker whoever showed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .cards import BJ, CARD_TEXT, LJ, SUITS, Card
from .ranks import RANK_INDEX
from .seats import SEATS, play_order


class CallError(ValueError):
    """A show that is not one, or shows out of turn; the message names the seat and the cards."""


@dataclass(frozen=True, slots=True)
class Show:
    """A valid show: ``seat`` showed ``count`` copies of ``card`` (a level card or a joker)."""

    seat: str
    card: Card
    count: int

    @property
    def trump(self) -> str:
        """The trump it fixes: the level card's suit, or ``NT`` for jokers."""
        return "NT" if self.card >= LJ else SUITS[self.card // 13]

    @property
    def strength(self) -> tuple[int, int]:
        """More cards first; at an equal count big jokers, then small jokers, then level cards (all equal)."""
        return (self.count, 2 if self.card == BJ else 1 if self.card == LJ else 0)


def read_show(seat: str, cards: Sequence[Card], level: str, decks: int) -> Show | None:
    """The show ``cards`` make for ``seat`` at ``level`` with ``decks`` packs; None for a pass (no cards)."""
    if not cards:
        return None
    shown = " ".join(CARD_TEXT[c] for c in cards)
    first = cards[0]
    if any(c != first for c in cards) or len(cards) > decks:
        raise CallError(f"{seat} showed {shown}: a show is 1 to {decks} identical level cards or jokers")
    if first >= LJ:
        if len(cards) < 2:
            raise CallError(f"{seat} showed {shown}: jokers are shown two or more at a time")
    elif first % 13 != RANK_INDEX[level]:
        raise CallError(f"{seat} showed {shown}: only level cards ({level}) or jokers may be shown")
    return Show(seat, first, len(cards))


@dataclass(frozen=True, slots=True)
class Calling:
    """The round of shows: the trump it fixed and the show that stands (None: the fallback suit)."""

    trump: str
    standing: Show | None


def call_trump(
    banker: str,
    level: str,
    decks: int,
    fallback: str,
    shows: Sequence[tuple[str, Sequence[Card]]],
    *,
    clockwise: bool = False,
) -> Calling:
    """The trump fixed by one round of ``shows`` (seat, cards; no cards for a pass), starting with the banker."""
    if fallback not in SUITS:
        raise CallError(f"the fallback must be a suit, not {fallback!r}")
    order = play_order(banker, clockwise) if banker in SEATS else ()
    if len(shows) > 4 or tuple(seat for seat, _c in shows) != order[: len(shows)]:
        raise CallError("shows go once round the table in play order, starting with the banker")
    standing: Show | None = None
    for seat, cards in shows:
        show = read_show(seat, tuple(cards), level, decks)
        if show is not None and (standing is None or show.strength > standing.strength):
            standing = show
    return Calling(standing.trump if standing else fallback, standing)
