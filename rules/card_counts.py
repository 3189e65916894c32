"""The card counts of a whole deal (RULES §8, §13.6): each seat's cards, the kitty and every card's copies against
the decks — exact for a complete deal, only what is certain for one in progress.

``CardCounts`` is a part of the judge (``rules.judge``): it reads the record and adds violations the same way;
``used_up`` is the same count asked of one play before it is judged (the recording service's entry check).
"""

from __future__ import annotations

import operator
from collections.abc import Iterable
from itertools import chain
from typing import TYPE_CHECKING, Any

from .cards import CARD_SYMBOL
from .messages import message
from .seats import SEATS
from .verdict import Violation

if TYPE_CHECKING:
    from .cards import Card
    from .record import Record


def used_up(rec: Record, cards: Iterable[Card]) -> tuple[Card, ...]:
    """The cards of a new play of which ``rec`` already holds every copy the decks have, played or in the kitty
    (§8, §13.6): no hand can still hold them. Each card once, in card order."""
    cards = tuple(cards)
    seen = [0] * 54
    for c in chain(rec.kitty, cards):
        seen[c] += 1
    for trick in rec.tricks:
        for _seat, played in trick.plays:
            for c in played:
                seen[c] += 1
    decks = rec.ruleset.decks
    return tuple(sorted({c for c in cards if seen[c] > decks}))


class CardCounts:
    """The whole-deal checks of card counts; the judge supplies ``rec``, ``add``, ``viol`` and ``_played``."""

    rec: Record
    viol: list[Violation]
    _played: tuple[list[int], dict[str, int]] | None

    def add(self, trick: int | None, seat: str | None, code: str, at: str | None = None, **kw: Any) -> None:
        raise NotImplementedError  # the judge's: a violation worded and kept

    def _seen(self) -> tuple[list[int], dict[str, int]]:
        """How often each card was played, and how many cards each seat played."""
        if self._played is not None:
            return self._played
        per_card = [0] * 54
        per_seat = dict.fromkeys(SEATS, 0)
        for tr in self.rec.tricks:
            for s, cards in tr.plays:
                per_seat[s] += len(cards)
                for c in cards:
                    per_card[c] += 1
        return per_card, per_seat

    def _check_counts(self, complete: bool) -> None:
        """Card counts (§8): a complete deal must account for every card exactly (hands, seats, kitty, deck);
        a deal in progress is faulted only for what is already certain — more than a hand, a kitty or the
        deck holds."""
        rec, rs = self.rec, self.rec.ruleset
        wrong = operator.ne if complete else operator.gt
        per_card, per_seat = self._seen()
        if complete and rec.hands is not None:
            for s in SEATS:
                if len(rec.hands[s]) != rs.hand_size:
                    self.add(None, s, "card_count", n=len(rec.hands[s]), expected=rs.hand_size)
        for s in SEATS:
            if wrong(per_seat[s], rs.hand_size):
                self.add(None, s, "card_count", n=per_seat[s], expected=rs.hand_size)
        if wrong(len(rec.kitty), rs.kitty_size):  # the banker's fault, told as the kitty's count
            en, zh = message("kitty_count", n=len(rec.kitty), expected=rs.kitty_size)
            self.viol.append(Violation(None, rec.banker, "card_count", en, zh))
        per_card = per_card[:]
        for c in rec.kitty:
            per_card[c] += 1
        decks = rs.decks
        dealt = self._dealt()
        off = per_card != [decks] * 54 if complete else max(per_card) > decks
        if off or max(dealt) > decks:  # the whole deck at once first
            for c in range(54):
                n = dealt[c] if dealt[c] > max(decks, per_card[c]) else per_card[c]
                if wrong(n, decks) or n > decks:
                    self.add(None, None, "deck_count", card=CARD_SYMBOL[c], n=n, decks=decks)

    def _dealt(self) -> list[int]:
        """How often each card is in the given hands together with the kitty: the deal when play began (§13.6);
        all zero without ``hands``."""
        dealt = [0] * 54
        if self.rec.hands is not None:
            for cards in chain(self.rec.hands.values(), (self.rec.kitty,)):
                for c in cards:
                    dealt[c] += 1
        return dealt

    def _check_copies(self) -> None:
        """A fragment still may not hold a card more than ``decks`` times (RULES §13.6): in what it plays and
        buries, or in the given hands together with the kitty (the deal when play began)."""
        decks = self.rec.ruleset.decks
        per_card = self._seen()[0][:]
        for c in self.rec.kitty:
            per_card[c] += 1
        per_card = list(map(max, per_card, self._dealt()))
        if max(per_card) > decks:
            for c in range(54):
                if per_card[c] > decks:
                    self.add(None, None, "deck_count", card=CARD_SYMBOL[c], n=per_card[c], decks=decks)
