"""What the trick-entry page adds for a duplicate board (RULES §14.6): the board's number and fingerprint, whether
the banker's buried cards are still to enter, and what each seat still holds, so the picker offers the seat to
play only its own cards (a card it does not hold has no button; typed, it is refused by the engine, named).

Each seat's holding is sent with the state: a page that keeps plays on the device while the network is down
redraws the picker for the next seat from it (``static/js/overlay.js``), as the server would.
"""

from __future__ import annotations

from collections import Counter

from django.utils.translation import gettext as _

from referee.table.screens.cards import held_rows
from rules.cards import CARD_TEXT
from rules.seats import SEATS
from tournaments.scoring.board_hands import banker_pickup, board_of, start_hands
from tournaments.scoring.snapshot import Snapshot

ALL_COPIES = Counter({text: 1 for text in CARD_TEXT})  # every card once: the picker's whole layout


def holdings(snap: Snapshot) -> dict[str, Counter]:
    """What each seat holds now, by card text: the hands as play began less what the seat played. Before the
    buried cards are entered, the banker holds the hand with the kitty (the cards to bury from), the others
    their hands."""
    deal = snap.deal
    hands = start_hands(deal)
    if hands is None:
        board = board_of(deal)
        assert board is not None
        held: dict[str, Counter] = {seat: Counter() for seat in SEATS}
        held[deal.banker] = Counter(CARD_TEXT[c] for c in banker_pickup(board))
        return held
    held = {seat: Counter(CARD_TEXT[c] for c in hands[seat]) for seat in SEATS}
    for plays in snap.plays:
        for p in plays:
            held[p.seat].subtract(p.cards.split())
    return held


def board_state(snap: Snapshot, due: str | None) -> dict | None:
    """The board's part of the page's state, and the picker for ``due`` (or for the banker's bury); None for a
    deal dealt at the table."""
    board = board_of(snap.deal)
    if board is None:
        return None
    held = holdings(snap)
    needs_kitty = not snap.deal.kitty
    seat = snap.deal.banker if needs_kitty else due
    picker = held_rows(snap.deal, held[seat], snap.rs.permanent_twos) if seat else []
    return {
        "number": board.number,
        "title": _("Board %(n)s") % {"n": board.number},
        "fingerprint": board.short_fingerprint,
        "needs_kitty": needs_kitty,
        "kitty_size": snap.rs.kitty_size,
        "held": {s: {c: n for c, n in held[s].items() if n > 0} for s in SEATS},
        "layout": held_rows(
            snap.deal, ALL_COPIES, snap.rs.permanent_twos
        ),  # every card's row, for the overlay
        "picker": picker,
    }
