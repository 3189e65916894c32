"""A session's boards: dealt from a fresh secret seed, imported from a boards file, marked, exported.

Every way in goes through ``store_boards``: the desk's button, ``manage.py deal_boards`` and ``import_boards``.
The dealing is the engine's (``rules.boards.deal_boards``, DEAL-RECORD "Boards"), the file the engine's
(``rules.boards_file``); nothing here shuffles or fingerprints. Boards are fixed once a table has played one:
dealing again or importing would change a board some table already holds.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from rules.boards import Board as EngineBoard
from rules.boards import BoardError, deal_boards, deck_text, new_seed
from rules.boards_file import BoardsFile, loads_boards
from rules.seats import SEATS
from tournaments.competition.finishing import lock_open
from tournaments.duplicate.movement import DuplicateError, board_count, duplicate_event
from tournaments.duplicate.visibility import published_seed
from tournaments.models import Board, Deal, DuplicateEvent, Tournament

MAX_FILE_BYTES = 2_000_000


def require_event(tournament: Tournament) -> DuplicateEvent:
    """The tournament's duplicate settings, or a refusal naming why there are none."""
    event = duplicate_event(tournament)
    if event is None:
        raise DuplicateError(_("This tournament is not a duplicate."))
    return event


def require_unplayed(tournament: Tournament) -> None:
    """Refused once a table has played (or the director scored) any board: the boards are fixed then."""
    if Deal.objects.of(tournament).filter(board__isnull=False).exists() or (
        Board.objects.of(tournament).filter(artificial_scores__isnull=False).exists()
    ):
        raise DuplicateError(_("A table has played a board already: the boards can no longer change."), 409)


def store_boards(tournament: Tournament, boards: Sequence[EngineBoard]) -> list[Board]:
    """Replace the tournament's boards with ``boards`` (inside the caller's transaction)."""
    Board.objects.of(tournament).delete()
    rows = [
        Board(
            tournament=tournament,
            number=b.number,
            ruleset=b.ruleset,
            level=b.level,
            banker=b.banker,
            trump=b.trump,
            fallback=b.fallback or "",
            hands={seat: deck_text(b.hands[seat]) for seat in SEATS},
            kitty=deck_text(b.kitty),
            fingerprint=b.fingerprint,
        )
        for b in boards
    ]
    return Board.objects.bulk_create(rows)


@transaction.atomic
def deal_session(tournament: Tournament, user) -> DuplicateEvent:
    """Deal the session's boards (a set for every table) from a fresh secret seed; the seed is kept, unshown."""
    tournament = lock_open(tournament.pk)
    event = require_event(tournament)
    require_unplayed(tournament)
    event.seed = new_seed()
    store_boards(tournament, deal_boards(event.seed, board_count(tournament, event), tournament.preset_name))
    event.imported_from, event.dealt_at, event.dealt_by = "", timezone.now(), user
    event._history_user = user  # type: ignore[attr-defined]
    event.save()
    return event


@transaction.atomic
def import_session(tournament: Tournament, text: str, user) -> DuplicateEvent:
    """The session's boards from a ``tractor-boards/1`` file: every fingerprint and card count checked by the
    engine (a bad board refused with its number), the boards the session needs, of the tournament's preset."""
    tournament = lock_open(tournament.pk)
    event = require_event(tournament)
    require_unplayed(tournament)
    if len(text.encode("utf-8")) > MAX_FILE_BYTES:
        raise DuplicateError(_("The boards file is too large."))
    try:
        read = loads_boards(text)
    except BoardError as exc:
        if exc.number is None:
            raise DuplicateError(_("This is not a boards file the desk can read.")) from None
        raise DuplicateError(
            _("Board %(n)s of the file is refused: its cards or fingerprint are not the board's.")
            % {"n": exc.number}
        ) from None
    needed = board_count(tournament, event)
    numbers = sorted(b.number for b in read.boards)
    if numbers != list(range(1, needed + 1)):
        raise DuplicateError(_("The session needs boards 1 to %(n)s, each once.") % {"n": needed})
    wrong = next((b for b in read.boards if b.ruleset != tournament.preset_name), None)
    if wrong is not None:
        raise DuplicateError(
            _("Board %(n)s is for another ruleset than the tournament's.") % {"n": wrong.number}
        )
    store_boards(tournament, sorted(read.boards, key=lambda b: b.number))
    event.seed = read.seed or ""
    event.imported_from, event.dealt_at, event.dealt_by = read.event or "-", timezone.now(), user
    event._history_user = user  # type: ignore[attr-defined]
    event.save()
    return event


@transaction.atomic
def mark_board(board: Board, trump: str, user) -> Board:
    """The director's mark (RULES §14.1): ``NT``, ``called`` (the drawn suit its fallback) or the drawn suit
    back; the fingerprint follows, the hands and kitty stay the seed's."""
    tournament = lock_open(board.tournament_id)
    require_unplayed(tournament)
    try:
        marked = board.engine_board.marked(trump)
    except BoardError:
        raise DuplicateError(_("Choose no trump, called at the table, or a suit.")) from None
    board.trump, board.fallback, board.fingerprint = marked.trump, marked.fallback or "", marked.fingerprint
    board._history_user = user  # type: ignore[attr-defined]
    board.save(update_fields=["trump", "fallback", "fingerprint"])
    return board


def boards_file(tournament: Tournament) -> BoardsFile:
    """The session's boards as a boards file; its seed only once the session is over (``published_seed``)."""
    boards = tuple(b.engine_board for b in Board.objects.of(tournament).order_by("number"))
    if not boards:
        raise DuplicateError(_("The boards are not dealt yet."), 409)
    return BoardsFile(tournament.name[:200], published_seed(tournament), boards)
