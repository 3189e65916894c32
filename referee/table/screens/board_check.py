"""The board page at the table (RULES §14.2, §14.6): the round's boards and the current one to check, what the
check counts (each hand, the kitty, two decks), and for a board marked ``called`` each player's possible shows,
one tap each, in turn from the banker."""

from __future__ import annotations

from collections import Counter

from django.utils.translation import gettext as _

from referee.table.recording.boards import board_problem, calling_order, current_board, ruleset_for_board
from referee.table.recording.words import seat_name
from rules.cards import BJ, CARD_TEXT, LJ, SUITS
from rules.messages import show
from rules.ranks import RANK_INDEX, rank_text
from tournaments.duplicate.movement import DuplicateError, boards_of
from tournaments.models import Board, Deal, Match
from tournaments.scoring.board_hands import dealt_hands
from tournaments.scoring.entries import require_record


def possible_shows(board: Board, seat: str) -> list[tuple[str, str]]:
    """What ``seat`` may show from its dealt hand (value: cards as text, label: faces): 1 to ``decks`` level
    cards of a suit held, 2 or more identical jokers held."""
    rs = ruleset_for_board(board)
    held = Counter(dealt_hands(board)[seat])
    level = RANK_INDEX[board.level]
    out = []
    for suit in range(len(SUITS)):
        card = suit * 13 + level
        for m in range(1, min(held[card], rs.decks) + 1):
            out.append((" ".join([CARD_TEXT[card]] * m), show((card,) * m)))
    for joker in (LJ, BJ):
        for m in range(2, held[joker] + 1):
            out.append((" ".join([CARD_TEXT[joker]] * m), show((joker,) * m)))
    return out


def round_boards(match: Match) -> list[dict]:
    """The round's boards at this table, in order, each with how it stands here (played, being played, scored
    apart, to play)."""
    try:
        boards = boards_of(match)
    except DuplicateError:
        return []
    deals = {d.board_id: d for d in match.deals.filter(board__isnull=False)}
    apart = set(match.artificial_scores.values_list("board_id", flat=True))
    rows = []
    for board in boards:
        deal = deals.get(board.pk)
        if board.pk in apart:
            status = _("scored apart by the director")
        elif deal is None:
            status = _("to play")
        elif deal.state == Deal.State.RECORDING:
            status = _("being played")
        else:
            status = _("played")
        rows.append({"board": board, "deal": deal, "status": status})
    return rows


def board_screen(match: Match, user) -> dict:
    """The board page: the round's boards, the current one with what to check, and a called board's shows."""
    require_record(user, match)
    board = current_board(match)
    recording = match.deals.filter(state=Deal.State.RECORDING, board__isnull=False).first()
    context: dict = {"match": match, "rows": round_boards(match), "board": board, "open_deal": recording}
    if board is None or recording is not None:
        return context
    rs = ruleset_for_board(board)
    context.update(
        {
            "problem": board_problem(board),
            "hand_size": rs.hand_size,
            "kitty_size": rs.kitty_size,
            "decks": rs.decks,
            "level": rank_text(board.level),
            "banker": seat_name(board.banker),
            "called": board.trump == Board.Trump.CALLED,
            "fallback": dict(Board.Trump.choices).get(board.fallback, ""),
            "trump_label": board.get_trump_display(),
            "callers": [
                {"seat": seat, "name": seat_name(seat), "shows": possible_shows(board, seat)}
                for seat in calling_order(board)
            ]
            if board.trump == Board.Trump.CALLED
            else [],
        }
    )
    return context
