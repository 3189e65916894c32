"""A duplicate tournament's own settings: the movement and the boards a round, and for duplicate teams the team
event of two tables a match (the setup form and ``manage.py create_tournament`` both save them here, through
``setup.services.save_settings``)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from tournaments.duplicate.movement import DUPLICATE_FORMATS, DuplicateError
from tournaments.models import (
    MAX_BOARDS_PER_ROUND,
    MIN_BOARDS_PER_ROUND,
    DuplicateEvent,
    TeamEvent,
    TeamTable,
    Tournament,
)

TEAM_TABLES = 2  # a duplicate team match: team A NS at table 1, EW at table 2 (RULES §14.5)


def save_duplicate_settings(
    tournament: Tournament, *, movement: str, boards_per_round: int, user
) -> DuplicateEvent | None:
    """Create or change the tournament's duplicate settings (None: not a duplicate, nothing to keep). Refused
    once the boards are dealt for another number of boards a round."""
    if tournament.format not in DUPLICATE_FORMATS:
        return None
    if movement not in DuplicateEvent.Movement.values:
        raise DuplicateError(_("Choose a movement."))
    if not MIN_BOARDS_PER_ROUND <= boards_per_round <= MAX_BOARDS_PER_ROUND:
        raise DuplicateError(
            _("A round has %(a)s to %(b)s boards.") % {"a": MIN_BOARDS_PER_ROUND, "b": MAX_BOARDS_PER_ROUND}
        )
    event = DuplicateEvent.objects.filter(tournament=tournament).first() or DuplicateEvent(
        tournament=tournament
    )
    if event.pk and event.boards_per_round != boards_per_round and tournament.boards.exists():
        raise DuplicateError(_("The boards are dealt: the boards a round can no longer change."), 409)
    event.movement, event.boards_per_round = movement, boards_per_round
    event._history_user = user  # type: ignore[attr-defined]
    event.save()
    if tournament.format == Tournament.Format.DUPLICATE_TEAMS:
        save_team_tables(tournament, user)
    return event


def save_team_tables(tournament: Tournament, user) -> TeamEvent:
    """Duplicate teams: the team event (a team Swiss unless the director makes it a league on the teams page)
    with two tables a team match; refused once a team match is seated at another number of tables."""
    team = TeamEvent.objects.filter(tournament=tournament).first()
    if team is None:
        team = TeamEvent(tournament=tournament, kind=TeamEvent.Kind.SWISS, tables=TEAM_TABLES)
    elif team.tables == TEAM_TABLES:
        return team
    elif TeamTable.objects.filter(team_match__round__tournament=tournament).exists():
        raise DuplicateError(
            _("A duplicate team match has two tables: these team matches are seated at more."), 409
        )
    team.tables = TEAM_TABLES
    team._history_user = user  # type: ignore[attr-defined]
    team.save()
    return team
