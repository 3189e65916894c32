"""The director's artificial scores on a duplicate board (RULES §14.4): a board a table did not play, or played
fouled, is left out of that board's comparison and each side gets 60 / 50 / 40 % of the top by its share of
fault. Giving one and taking it back both fold the table's round again (``recompute_match``): a round whose
last board is scored by the director is finished like one whose last board was played.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from rules.matchpoints import Fault
from tournaments.adjusted.awarding import require_director
from tournaments.competition.free_text import text_problem
from tournaments.duplicate.movement import DuplicateError, boards_of
from tournaments.models import ArtificialScore, Board, Deal, Match
from tournaments.scoring.entries import lock_for_entry
from tournaments.scoring.errors import RecordingError
from tournaments.scoring.fold import recompute_match

NOTE_LENGTH = ArtificialScore._meta.get_field("note").max_length


@transaction.atomic
def give_artificial(
    match: Match, board: Board, user, *, ns_fault: str, ew_fault: str, fouled: bool = False, note: str = ""
) -> ArtificialScore:
    """Score ``board`` at this table artificially (a second one replaces the first). Refused for a board the
    table does not play, or one with a result recorded there (reopen the deal or void it first)."""
    require_director(user, match.round.tournament)
    match = lock_for_entry(match)
    try:
        if board.pk not in {b.pk for b in boards_of(match)}:
            raise RecordingError(
                _("This table does not play board %(n)s in this round.") % {"n": board.number}
            )
    except DuplicateError as exc:
        raise RecordingError(exc.message) from exc
    if Deal.objects.filter(match=match, board=board).exists():
        raise RecordingError(
            _("Board %(n)s has a deal at this table: reopen or void it first.") % {"n": board.number}
        )
    if not {ns_fault, ew_fault} <= {f.value for f in Fault}:
        raise RecordingError(_("Choose each side's share of the fault."))
    if problem := text_problem(note, NOTE_LENGTH):
        raise RecordingError(problem)
    score, _created = ArtificialScore.objects.update_or_create(
        match=match,
        board=board,
        defaults={
            "ns_fault": ns_fault,
            "ew_fault": ew_fault,
            "fouled": fouled,
            "note": note,
            "made_by": user,
        },
    )
    recompute_match(match)
    return score


@transaction.atomic
def take_back_artificial(score: ArtificialScore, user) -> None:
    """The director takes an artificial score back: the table plays (or scores) the board again."""
    require_director(user, score.match.round.tournament)
    match = lock_for_entry(score.match)
    score.delete()
    recompute_match(match)
