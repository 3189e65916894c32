"""Plain facts passed from judging tricks to scoring a deal.

The trick side (``judge``) produces these; ``scoring`` consumes them. Keeping them here lets the two
halves of the engine meet without importing each other's internals.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class LeadShape:
    """The largest unit of a lead after any failed-throw reduction (decides the kitty multiplier, RULES §9).

    ``kind`` is ``"single"``, ``"pair"`` or ``"tractor"``; ``pairs`` is the tractor's length in pairs (1 for a
    pair, 0 for a single); ``is_throw`` is true when the lead that stood held more than one unit.
    """

    kind: str
    pairs: int = 0
    is_throw: bool = False

    @property
    def cards(self) -> int:
        """Cards in the largest unit: 1, 2 or 2 × pairs."""
        return 1 if self.kind == "single" else 2 * self.pairs


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
