"""Plain facts passed from judging tricks to scoring a deal.

The trick side (``judge``) produces these; ``scoring`` consumes them. Keeping them here lets the two
halves of the engine meet without importing each other's internals.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class LeadShape:
    """The largest unit of a lead after any failed-throw reduction (decides the kitty multiplier, RULES §9).

    ``kind`` is ``"single"``, ``"pair"`` or ``"tractor"`` (three or four decks also ``"triple"``, ``"titanic"``,
    ``"quad"``, ``"bulldozer"``); ``pairs`` is the unit's length in sets (1 for a pair or triple, 0 for a single); ``is_throw`` is true when the lead that stood held more than one unit.
    """

    kind: str
    pairs: int = 0
    is_throw: bool = False
    # Cards in each set of the unit (RULES §13.1): 2 for a pair or tractor, 3 for a triple or 泰坦尼克, 4 quads.
    sets: int = 2

    @property
    def cards(self) -> int:
        """Cards in the largest unit: 1, or sets × length (2, 2 × pairs, 3 for a triple …)."""
        return 1 if self.kind == "single" else self.sets * self.pairs


@dataclass(frozen=True, slots=True)
class TrickFacts:
    """What scoring needs to know of one completed trick."""

    leader: str
    winner: str
    points: int
    lead_shape: LeadShape
    # A challenged throw: the thrower's seat and how many cards went back to the hand (0 when none).
    failed_throw_seat: str | None = None
    cards_taken_back: int = 0
    # True when the winning play holds a card of rank J (for the J rule, RULES §10).
    winner_has_jack: bool = False


@dataclass(frozen=True, slots=True)
class PenaltyCall:
    """A penalty the judge called (DEAL-RECORD ``penalties``): misplay, signal, renege, revoke, wrong_card_count."""

    seat: str
    code: str
    trick: int | None = None
    note: str = ""
