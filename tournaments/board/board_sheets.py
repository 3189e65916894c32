"""Printed boards of a duplicate session (issue 40 item 2), print-ready from the browser: a dealing sheet a board
for whoever prepares the boards (the number, the four hands in canonical order in large type, the kitty, the
fingerprint's first 8 digits), a label a board for its wallet, and each table's movement card (round by round:
the table, who sits in each direction, the boards, the opponents, where they go next).

The sheets and labels show every hand: until the session is over they are the director's alone (whoever scores
the tournament); after it, anyone who may read the tournament may print them, as the hand records are public
then. The movement cards show no card, but are printed with the rest at the desk.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from rules.cards import CARD_BY_TEXT
from rules.ranks import rank_text
from rules.seats import SEATS
from tournaments.competition import access
from tournaments.competition.display import card_face
from tournaments.competition.page_guards import tournament_page
from tournaments.duplicate.movement import DuplicateError, duplicate_event, roster, seatings
from tournaments.duplicate.visibility import session_over
from tournaments.models import SEAT_CHOICES, Board, Tournament

SUIT_ROWS = (("S", "♠"), ("H", "♥"), ("C", "♣"), ("D", "♦"))


def may_print(user, tournament: Tournament) -> bool:
    """The director (whoever scores the tournament) at any time; after the session anyone who may read it."""
    if access.scores(user, tournament):
        return True
    return access.can_read_tournament(user, tournament) and session_over(tournament)


def require_printable(request: HttpRequest, tournament: Tournament) -> None:
    if duplicate_event(tournament) is None:
        raise Http404
    if not may_print(request.user, tournament):
        raise PermissionDenied(_("The boards are the director's until the session is over."))


def hand_rows(cards: str) -> list[dict]:
    """A hand in canonical (deck) order, a line a suit (♠ 3 8 J Q Q A), then its jokers."""
    texts = cards.split()
    rows = []
    for suit, symbol in SUIT_ROWS:
        ranks = [card_face(t)[1:] for t in texts if t[0] == suit and t in CARD_BY_TEXT]
        rows.append({"suit": suit, "symbol": symbol, "ranks": ranks})
    jokers = [card_face(t) for t in texts if t in ("LJ", "BJ")]
    return rows + ([{"suit": "J", "symbol": "", "ranks": jokers}] if jokers else [])


def board_sheet(board: Board) -> dict:
    seats = dict(SEAT_CHOICES)
    return {
        "board": board,
        "banker": seats[board.banker],
        "level": rank_text(board.level),
        "trump": board.get_trump_display(),
        "fallback": dict(Board.Trump.choices).get(board.fallback, ""),
        "hands": [{"seat": seats[s], "rows": hand_rows(board.hands[s])} for s in SEATS],
        "kitty": [card_face(t) for t in board.kitty.split()],
    }


def movement_cards(tournament: Tournament) -> list[dict]:
    """Each table's card: round by round, its NS pair (they stay), its EW pair, the boards, and where the EW pair
    and the boards go after the round."""
    event = duplicate_event(tournament)
    assert event is not None
    pairs = roster(tournament)
    rounds = seatings(tournament, event)
    t = len(pairs) // 2
    cards: dict[int, list[dict]] = {}
    for i, row in enumerate(rounds):
        after = rounds[i + 1] if i + 1 < len(rounds) else None
        for s in row:
            ew_next = next((n.table for n in after if n.ew == s.ew), None) if after else None
            boards_next = (
                next((n.table for n in after if n.board_set == s.board_set), None) if after else None
            )
            cards.setdefault(s.table, []).append(
                {
                    "round": s.round,
                    "ns": pairs[s.ns - 1],
                    "ew": pairs[t + s.ew - 1],
                    "boards": s.boards,
                    "ew_next": ew_next,
                    "boards_next": boards_next,
                }
            )
    return [{"table": table, "rounds": rows} for table, rows in sorted(cards.items())]


def board_pages(request: HttpRequest, tournament: Tournament, template: str) -> HttpResponse:
    """A page of the boards' sheets (dealing sheets or labels), for whoever may print them."""
    require_printable(request, tournament)
    sheets = [board_sheet(b) for b in Board.objects.of(tournament).order_by("number")]
    return render(request, template, {"tournament": tournament, "sheets": sheets})


@tournament_page
@require_GET
def dealing_sheets(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """One printed page a board: what the person preparing the boards puts in each pocket."""
    return board_pages(request, tournament, "tournaments/board/dealing_sheets.html")


@tournament_page
@require_GET
def board_labels(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """A label a board for its wallet: the number, banker, level, trump and the fingerprint's first 8 digits."""
    return board_pages(request, tournament, "tournaments/board/board_labels.html")


@tournament_page
@require_GET
def table_movement_cards(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Each table's movement card, one to a printed page."""
    require_printable(request, tournament)
    try:
        cards = movement_cards(tournament)
    except DuplicateError as exc:
        return render(
            request, "error.html", {"title": _("Movement"), "message": exc.message}, status=exc.status
        )
    context = {"tournament": tournament, "cards": cards}
    return render(request, "tournaments/board/movement_cards.html", context)
