"""A table's round of a duplicate session as the recording service sees it: its state from its boards, and a
whole record checked against the board it plays.

A duplicate match has no levels to climb and no banker to pass on (RULES §14.1): its state is the next board's
banker and level for both sides, and it is over once every board of its round has a deal (in the states asked)
or an artificial score. ``tournaments.scoring.fold`` asks ``board_state`` instead of the match fold for such a
match, so the table page, the recording service and ``recompute_match`` all read it the one way.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from django.utils.translation import gettext as _

from rules.cards import CARD_TEXT
from rules.match import MatchEnd, MatchState
from rules.record import Record
from rules.ruleset import Ruleset
from rules.seats import SEATS
from tournaments.competition.display import card_face
from tournaments.duplicate.movement import DuplicateError, boards_of
from tournaments.models import SEAT_CHOICES, Board, Match

SEAT_NAMES = dict(SEAT_CHOICES)
BOARDS_END = "boards"  # Match.EndedBy.BOARDS: every board of the round played or scored


def done_board_ids(match: Match, states: Iterable[str]) -> set[int]:
    """The boards of this table's round with a deal in ``states`` or an artificial score."""
    played = set(
        match.deals.filter(state__in=list(states), board__isnull=False).values_list("board_id", flat=True)
    )
    return played | set(match.artificial_scores.values_list("board_id", flat=True))


def board_state(match: Match, rs: Ruleset, states: Iterable[str]) -> MatchState:
    """The match state of a duplicate table: the next board's banker and level, over when all are done."""
    try:
        boards = boards_of(match)
    except DuplicateError:  # not dealt yet: nothing can be played, nothing is over
        return MatchState(ruleset=rs, levels={"NS": "2", "EW": "2"})
    done = done_board_ids(match, states)
    left = [b for b in boards if b.pk not in done]
    level = (left[0] if left else boards[-1]).level
    levels = {"NS": level, "EW": level}
    end = None if left else MatchEnd(how=BOARDS_END, winner=None, levels=levels, deals=len(done))
    return MatchState(
        ruleset=rs, levels=levels, banker=left[0].banker if left else None, deals=len(done), end=end
    )


def board_place(match: Match, board: Board) -> int:
    """The board's place in this table's round (1 … boards a round): the deal number it is recorded under."""
    return [b.pk for b in boards_of(match)].index(board.pk) + 1


def seat_cards(record: Record) -> dict[str, Counter]:
    """The cards each seat played over the record's tricks, as multisets."""
    played: dict[str, Counter] = {seat: Counter() for seat in SEATS}
    for trick in record.tricks:
        for seat, cards in trick.plays:
            played[seat].update(cards)
    return played


def check_board_record(board: Board, record: Record) -> None:
    """A whole record is this board's play: its banker, level and trump, every seat playing exactly the board's
    hand (the banker: hand and dealt kitty less the buried kitty). Refused with ``DuplicateError`` naming the
    board, the seat and a card."""
    engine = board.engine_board
    where = {"n": board.number}
    if record.banker != board.banker or record.level != board.level:
        raise DuplicateError(_("Board %(n)s: the banker and level are the board's.") % where)
    if board.trump != "called" and record.trump.trump_text != board.trump:
        raise DuplicateError(_("Board %(n)s: the trump is the board's.") % where)
    played = seat_cards(record)
    for seat in SEATS:
        held = Counter(engine.hands[seat])
        if seat == board.banker:
            held = held + Counter(engine.kitty) - Counter(record.kitty)
        if played[seat] != held:
            wrong = sorted((played[seat] - held) or (held - played[seat]))
            raise DuplicateError(
                _("Board %(n)s: %(seat)s did not play the board's hand (%(card)s).")
                % {**where, "seat": SEAT_NAMES[seat], "card": card_face(CARD_TEXT[wrong[0]])}
            )
