"""A duplicate board's hands as a deal at the table plays them (RULES §14.1, §14.6): the holdings when play
began, which the engine judges every play against, so a card a seat does not hold is refused as entered and a
revoke is proven at the play that commits it.

The board gives the four hands and the dealt kitty; the banker takes the kitty and buries as many cards (the
deal's ``kitty``), so the banker starts play with the hand, plus the dealt kitty, less the buried cards. Before the
buried cards are entered the banker's holding is not known: no hands then (``start_hands`` is None) and no play
is taken (``referee.table.recording.play.require_buried``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from django.utils.translation import gettext as _

from rules.cards import CARD_TEXT, Card, parse_cards
from rules.messages import show
from rules.seats import SEATS
from tournaments.models import SEAT_CHOICES, Board, Deal
from tournaments.scoring.errors import RecordingError

SEAT_NAMES = dict(SEAT_CHOICES)


def board_of(deal: Deal) -> Board | None:
    """The board the deal plays (one query the first time, kept on the deal), or None for a dealt-at-table deal."""
    if not deal.board_id:
        return None
    return deal.board


def dealt_hands(board: Board) -> dict[str, tuple[Card, ...]]:
    """The board's four hands as dealt, before the kitty."""
    return {seat: tuple(sorted(parse_cards(board.hands[seat]))) for seat in SEATS}


def banker_pickup(board: Board) -> tuple[Card, ...]:
    """What the banker holds after taking the kitty: the banker's hand and the dealt kitty (the cards to bury
    from)."""
    return tuple(sorted(parse_cards(board.hands[board.banker]) + parse_cards(board.kitty)))


def not_in(cards: tuple[Card, ...], held: tuple[Card, ...]) -> list[str]:
    """The cards of ``cards`` beyond what ``held`` holds (each copy counted), as canonical text."""
    short = Counter(cards) - Counter(held)
    return [CARD_TEXT[c] for c in sorted(short.elements())]


def start_hands(deal: Deal) -> Mapping[str, tuple[Card, ...]] | None:
    """The four holdings when play began, for a deal of a board whose buried cards are entered; else None."""
    board = board_of(deal)
    if board is None or not deal.kitty:
        return None
    hands = dealt_hands(board)
    buried = Counter(parse_cards(deal.kitty))
    hands[board.banker] = tuple(sorted((Counter(banker_pickup(board)) - buried).elements()))
    return hands


def require_buried_held(deal: Deal, kitty: str) -> None:
    """The cards the banker buried are cards the banker held with the kitty: one not held is refused, named."""
    board = board_of(deal)
    if board is None or not kitty:
        return
    if missing := not_in(parse_cards(kitty), banker_pickup(board)):
        raise RecordingError(
            _("%(seat)s did not hold %(cards)s with the kitty: it cannot be buried.")
            % {"seat": str(SEAT_NAMES[deal.banker]), "cards": show(parse_cards(" ".join(missing)))}
        )
