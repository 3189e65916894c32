"""A duplicate session's public pages: the boards with their fingerprints, each board's hand record and
traveller (its standings are the standings page's, ``views.duplicate_standings``).

What a page may show is ``tournaments.duplicate.visibility``'s, for the visitor (the director sees every board
at once; these pages are cached only for visitors not signed in, so a director's page is never served to them).
Before a board is complete the page shows its number and fingerprint only: no hands, no result. A duplicate-teams
board's traveller (``team_travellers``) lists each team match's two tables with the board's scale points in the
match where a pairs' traveller has matchpoints.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from tournaments.duplicate.display import figure, frequencies, hand_lines, outcome_words
from tournaments.duplicate.movement import DUPLICATE_FORMATS
from tournaments.duplicate.overall import overall
from tournaments.duplicate.results import board_top, travellers
from tournaments.duplicate.team_travellers import team_travellers
from tournaments.duplicate.visibility import published_seed, visible_board_ids
from tournaments.models import Board, Tournament
from tournaments.public.caching import public_cache
from tournaments.public.views import links_for, public_tournament

COMPASS = ("N", "W", "E", "S")


def duplicate_tournament(request: HttpRequest, slug: str) -> Tournament:
    tournament = public_tournament(request, slug, "public_results")
    if tournament.format not in DUPLICATE_FORMATS:
        raise Http404
    return tournament


@public_cache
def boards_page(request: HttpRequest, slug: str) -> HttpResponse:
    """Every board's number and fingerprint (shown before play, so a table can check its board), a link to
    each complete board's hand record, and the seed once the session is over."""
    tournament = duplicate_tournament(request, slug)
    visible = visible_board_ids(tournament, request.user)
    boards = [
        {"board": b, "complete": b.pk in visible} for b in Board.objects.of(tournament).order_by("number")
    ]
    return render(
        request,
        "tournaments/public/boards.html",
        {
            "tournament": tournament,
            "boards": boards,
            "seed": published_seed(tournament),
            "count": len(boards),
            **links_for(request, tournament),
        },
    )


def across_venues(request: HttpRequest, tournament: Tournament, board: Board) -> list[dict]:
    """The board's traveller across venues (a simultaneous session's, issue 40 item 8): every venue's tables
    with their matchpoints among all of them; empty when no other venue's results are imported."""
    if not tournament.venue_results.exists():
        return []
    return [
        {
            "line": x,
            "outcome": outcome_words(x.outcome),
            "ns_mp": figure(x.ns_matchpoints),
            "ew_mp": figure(x.ew_matchpoints),
        }
        for x in overall(tournament, request.user, [board.pk]).lines
    ]


@public_cache
def board_page(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """One board's hand record: the hands as a compass, banker, level and trump, the traveller with every
    table's NS score and matchpoints (a team board's: scale points), how often each outcome happened, and the seed with how to check it."""
    tournament = duplicate_tournament(request, slug)
    board = get_object_or_404(Board.objects.of(tournament), number=number)
    complete = board.pk in visible_board_ids(tournament, request.user)
    if tournament.format == Tournament.Format.DUPLICATE_TEAMS:
        context = team_board_context(request, tournament, board, complete)
        return render(request, "tournaments/public/board.html", context)
    rows = travellers(tournament, [board.pk]).get(board.number, []) if complete else []
    context = {
        "rows": [
            {
                "row": r,
                "outcome": outcome_words(r.outcome),
                "ns_mp": figure(r.ns_matchpoints),
                "ew_mp": figure(r.ew_matchpoints),
            }
            for r in rows
        ],
        "frequencies": frequencies(rows),
        "across": across_venues(request, tournament, board) if complete else [],
        "top": board_top(tournament),
        **common_context(request, tournament, board, complete),
    }
    return render(request, "tournaments/public/board.html", context)


def common_context(request: HttpRequest, tournament: Tournament, board: Board, complete: bool) -> dict:
    """What every board page shows: the board, its hands once complete, the seed, the nav links."""
    return {
        "tournament": tournament,
        "board": board,
        "complete": complete,
        "hands": {seat: hand_lines(board.hands[seat]) for seat in COMPASS} if complete else {},
        "kitty": hand_lines(board.kitty) if complete else [],
        "seed": published_seed(tournament),
        "count": Board.objects.of(tournament).count(),
        **links_for(request, tournament),
    }


def team_board_context(request: HttpRequest, tournament: Tournament, board: Board, complete: bool) -> dict:
    """A duplicate-teams board: each team match's two tables with the board's scale points in the match."""
    rows = team_travellers(tournament, [board.pk]).get(board.number, []) if complete else []
    return {
        "teams": True,
        "rows": [{"row": r, "outcome": outcome_words(r.outcome)} for r in rows],
        "frequencies": frequencies(rows),
        **common_context(request, tournament, board, complete),
    }
