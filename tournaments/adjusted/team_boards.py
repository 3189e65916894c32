"""The director's ruling on a board of a duplicate team match not played, or fouled, at either table (RULES
§14.5): the board scores 0, or 2 scale points to the side not at fault. ``duplicate.team_scale`` reads it.

A ruling is one row a board of a team match (``BoardRuling``), changed in place with its history. The write names
the version it saw (0: none yet): a stale one is refused with who changed it, and the same ruling sent twice (a
double tap, a retried post) is taken once. A ruling is refused on a board both tables have a result on: the
tables' scores decide it.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.adjusted.awarding import require_director
from tournaments.competition.accounts import display_name
from tournaments.competition.finishing import lock_open
from tournaments.competition.free_text import text_problem
from tournaments.duplicate.movement import DuplicateError, boards_of
from tournaments.duplicate.team_scale import duplicate_team_result
from tournaments.models import Board, BoardRuling, TeamMatch, Tournament
from tournaments.scoring.errors import RecordingError, StaleEdit

NOTE_LENGTH = BoardRuling._meta.get_field("note").max_length


class RulingConflict(RecordingError):
    """The ruling does not fit the match as it stands now (not seated, a result at both tables, taken back)."""

    code = "conflict"
    status = 409


def team_match_boards(team_match: TeamMatch) -> list[Board]:
    """The boards the match plays (both tables play the round's set)."""
    first = team_match.tables.select_related("match__round__tournament").filter(number=1).first()
    if first is None:
        raise RulingConflict(_("The team match is not seated yet."))
    try:
        return boards_of(first.match)
    except DuplicateError as exc:
        raise RecordingError(exc.message) from exc


def stale(current: BoardRuling) -> StaleEdit:
    who = display_name(current.made_by) if current.made_by else _("someone")
    when = timezone.localtime(current.made_at).strftime("%H:%M:%S")
    return StaleEdit(
        _("This board's ruling was changed by %(who)s at %(when)s; check it and rule again.")
        % {"who": who, "when": when},
        version=current.version,
    )


@transaction.atomic
def rule_team_board(
    team_match: TeamMatch, board: Board, user, *, award: str, version: int | None, note: str = ""
) -> BoardRuling:
    """Rule ``board`` of the team match: ``award`` is ``none`` (0), ``home`` or ``away`` (2 to that team)."""
    require_director(user, team_match.round.tournament)
    tournament = lock_open(team_match.round.tournament_id)
    if tournament.format != Tournament.Format.DUPLICATE_TEAMS:
        raise RecordingError(_("Only a duplicate team match's boards are ruled here."))
    if award not in BoardRuling.Award.values:
        raise RecordingError(_("Choose the ruling: 0, or 2 to the side not at fault."))
    note = " ".join((note or "").split())
    if problem := text_problem(note, NOTE_LENGTH):
        raise RecordingError(problem)
    if board.pk not in {b.pk for b in team_match_boards(team_match)}:
        raise RecordingError(_("This team match does not play board %(n)s.") % {"n": board.number})
    current = BoardRuling.objects.select_for_update().filter(team_match=team_match, board=board).first()
    if current is not None and (current.award, current.note) == (award, note):
        return current  # the same ruling again: taken once
    if version is not None and version != (current.version if current else 0):
        if current is None:
            raise RulingConflict(_("This board's ruling was taken back; check it and rule again."))
        raise stale(current)
    swing = next(s for s in duplicate_team_result(team_match).boards if s.board == board.number)
    if swing.difference is not None:
        raise RulingConflict(
            _("Board %(n)s has a result at both tables: its scale points are the tables'.")
            % {"n": board.number}
        )
    ruling = current or BoardRuling(team_match=team_match, board=board, version=0)
    ruling.award, ruling.note, ruling.made_by = award, note, user
    ruling.version += 1
    ruling._history_user = user  # type: ignore[attr-defined]
    ruling.save()
    return ruling
