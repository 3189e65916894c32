"""The director's day at the desk: the table board (and the rows its script fetches), the confirmation queue, and
the round's printables (table cards, paper score sheets). Each view reads the request and calls ``board``.

The queue lists the submitted deals and links to each deal's review on the table side (``review``, by URL name:
``tournaments`` does not import ``referee``), where the existing confirm action confirms it and, asked from the
queue, comes back here.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from tournaments.backup.notice import backup_state
from tournaments.board import state as board
from tournaments.competition.page_guards import scoring_page
from tournaments.models import SEAT_CHOICES, Round, Tournament

SEAT_NAMES = dict(SEAT_CHOICES)


def _board_context(request: HttpRequest, tournament: Tournament) -> dict:
    """What the board page and its refreshed rows show: the current round's tables, filtered by state."""
    state = request.GET.get("state", "")
    if state not in board.STATES:
        state = ""
    rnd = board.current_round(tournament)
    rows = board.table_board(tournament, rnd)
    counts = board.state_counts(rows)
    return {
        "tournament": tournament,
        "round": rnd,
        "rows": [r for r in rows if r.state == state] if state else rows,
        "total": len(rows),
        "filters": [(code, label, counts[code]) for code, label in board.STATES.items()],
        "state": state,
        "waiting": board.waiting_count(tournament),
        "backup": backup_state(),
    }


@scoring_page
@require_GET
def desk_board(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Every table of the current round; the page's script refreshes the rows from ``desk_board_rows``."""
    return render(request, "tournaments/board/board.html", _board_context(request, tournament))


@scoring_page
@require_GET
def desk_board_rows(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The board's live part alone (counts and rows), for the page's refresh without a reload."""
    return render(request, "tournaments/board/board_live.html", _board_context(request, tournament))


@scoring_page
@require_GET
def desk_queue(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The deals waiting for confirmation, oldest first, each a link to its review (where it is confirmed)."""
    return render(
        request,
        "tournaments/board/queue.html",
        {"tournament": tournament, "deals": board.confirmation_queue(tournament)},
    )


def table_sheet(match) -> dict:
    """One table's printable: who sits where in words (no seat letters), and the score sheet's deal numbers."""
    players = match.seat_players()
    return {
        "match": match,
        "seats": [(SEAT_NAMES[s], players[s]) for s in board.SEATS_IN_ORDER],
        "ns": [(SEAT_NAMES[s], players[s]) for s in ("N", "S")],
        "ew": [(SEAT_NAMES[s], players[s]) for s in ("E", "W")],
        "deal_numbers": range(1, board.SCORE_SHEET_ROWS + 1),
        "own_pairs": (match.pair_ns, match.pair_ew),  # each with its own page's QR code
    }


def _printable(request: HttpRequest, tournament: Tournament, number: int, template: str) -> HttpResponse:
    rnd = get_object_or_404(tournament.rounds.exclude(state=Round.State.DRAFT), number=number)
    table = request.GET.get("table", "")
    matches = board.printable_matches(
        rnd, int(table) if table.isascii() and table.isdigit() and len(table) < 5 else None
    )
    sheets = [table_sheet(m) for m in matches]
    return render(
        request,
        template,
        {
            "tournament": tournament,
            "round": rnd,
            "sheets": sheets,
            "time_limit": board.time_limit(tournament),
        },
    )


@scoring_page
@require_GET
def desk_table_cards(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    """A card per table of a published round (table, round, pairs, who sits where), one to a printed page."""
    return _printable(request, tournament, number, "tournaments/board/table_cards.html")


@scoring_page
@require_GET
def desk_score_sheets(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    """A paper score sheet per table of a published round, for tables that fall back to paper."""
    return _printable(request, tournament, number, "tournaments/board/score_sheets.html")
