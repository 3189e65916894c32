"""A duplicate board at the table (RULES §14.2, §14.6): the board checked, its trump called when it is marked
``called``, then played as a deal of the table's match whose hands are the board's.

The board to play is the round's current one (``tournaments.duplicate.movement.next_board``): a table plays its
round's boards in order, one at a time. Starting it makes the match's next ``Deal`` with the board's banker, level
and trump (the called one), both sides at the board's level, and the round of shows kept on it. The banker then
buries: the cards buried must be cards the banker held with the kitty, and no play is taken before they are
entered, since until then the banker's hand is not known (``tournaments.scoring.board_hands``).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from referee.table.recording.deal_entry import begin, next_deal_number
from referee.table.recording.words import parse_card_text, seat_name
from rules.boards import BoardError, check_cards
from rules.calling import CallError, call_trump, read_show
from rules.cards import CARD_TEXT, parse_cards
from rules.messages import show
from rules.ranks import rank_text
from rules.ruleset import PRESETS, Ruleset
from rules.seats import play_order
from tournaments.duplicate.movement import DuplicateError, is_duplicate_match, next_board
from tournaments.models import Board, Deal, Match
from tournaments.scoring.board_hands import dealt_hands, not_in
from tournaments.scoring.entries import lock_for_entry, require_record
from tournaments.scoring.errors import RecordingError, StaleEdit
from tournaments.scoring.fold import has_open_deal


def current_board(match: Match) -> Board | None:
    """The board this table plays now: the one being recorded, else the round's next; None when all are done."""
    open_deal = match.deals.filter(state=Deal.State.RECORDING, board__isnull=False).first()
    if open_deal is not None:
        return open_deal.board
    try:
        return next_board(match)
    except DuplicateError:
        return None


def board_problem(board: Board) -> str:
    """Why the stored board is not a whole deal (each hand the hand size, each card ``decks`` times), '' if it
    is. A board the desk stored is whole; a damaged one is said, never played."""
    try:
        check_cards(board.engine_board)
    except (BoardError, KeyError, ValueError):
        return _("Board %(n)s is not a whole deal: tell the director.") % {"n": board.number}
    return ""


def calling_order(board: Board) -> tuple[str, ...]:
    """Who shows, in turn: once round the table in play order from the banker."""
    return play_order(board.banker, ruleset_for_board(board).clockwise)


def ruleset_for_board(board: Board) -> Ruleset:
    """The board's preset (its decks, hand size and direction of play)."""
    return PRESETS[board.ruleset]


def called_trump(board: Board, shows: Sequence[tuple[str, str]]) -> tuple[str, list[list[str]]]:
    """The trump the round of shows fixes (RULES §14.2) and the round as kept on the deal. Each show is checked
    against the seat's dealt hand; a show that is not one is refused in one sentence naming the seat."""
    rs = ruleset_for_board(board)
    hands = dealt_hands(board)
    order = calling_order(board)
    if tuple(seat for seat, _cards in shows) != order:
        raise RecordingError(_("Record every player's show or pass, in turn from the banker."))
    kept: list[list[str]] = []
    read: list[tuple[str, tuple[int, ...]]] = []
    for seat, text in shows:
        cards = parse_cards(parse_card_text(text, seat_name(seat))) if text.strip() else ()
        if missing := not_in(cards, hands[seat]):
            raise RecordingError(
                _("%(seat)s does not hold %(cards)s.")
                % {"seat": seat_name(seat), "cards": show(parse_cards(" ".join(missing)))}
            )
        try:
            read_show(seat, cards, board.level, rs.decks)
        except CallError:
            raise RecordingError(
                _(
                    "%(seat)s showed %(cards)s: a show is 1 to %(decks)s identical level cards (%(level)s) "
                    "or two or more identical jokers."
                )
                % {
                    "seat": seat_name(seat),
                    "cards": show(cards),
                    "decks": rs.decks,
                    "level": rank_text(board.level),
                }
            ) from None
        read.append((seat, cards))
        kept.append([seat, " ".join(CARD_TEXT[c] for c in cards)])
    calling = call_trump(board.banker, board.level, rs.decks, board.fallback, read, clockwise=rs.clockwise)
    return calling.trump, kept


@transaction.atomic
def start_board(
    match: Match, user, *, board_number: int | None, checked: bool, shows: Sequence[tuple[str, str]] = ()
) -> Deal:
    """Begin the table's current board: the judge confirmed the check (RULES §14.6), and for a ``called`` board
    gave the round of shows. ``board_number`` is the board the judge's page showed: a page shown before another
    board began is refused, so one form never starts two boards."""
    require_record(user, match)
    match = lock_for_entry(match)
    if not is_duplicate_match(match):
        raise RecordingError(_("This match plays no boards."))
    if has_open_deal(match):
        raise RecordingError(_("Finish and submit the board in progress first."))
    try:
        board = next_board(match)
    except DuplicateError as exc:
        raise RecordingError(exc.message) from None
    if board is None:
        raise RecordingError(_("Every board of this round is played."))
    if board_number is not None and board_number != board.number:
        raise StaleEdit(_("Board %(n)s is the board to play now: check it first.") % {"n": board.number})
    if problem := board_problem(board):
        raise RecordingError(problem)
    if not checked:
        raise RecordingError(
            _("Check the board first: count each hand and the kitty, then tick that they are right.")
        )
    trump, calls = (board.trump, []) if board.trump != Board.Trump.CALLED else called_trump(board, shows)
    now = timezone.now()
    deal = Deal(
        match=match,
        number=next_deal_number(match),
        board=board,
        banker=board.banker,
        declarer="",
        level=board.level,
        trump=trump,
        kitty="",
        started_at=now,
        changed_by=user,
        start_levels={"NS": board.level, "EW": board.level},  # a board: both sides play its level
        trump_calls=calls,
    )
    return begin(match, deal, user)
