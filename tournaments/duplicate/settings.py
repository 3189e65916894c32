"""A duplicate tournament's own settings: the movement and the boards a round (the setup form and
``manage.py create_tournament`` both save them here)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from tournaments.duplicate.movement import DUPLICATE_FORMATS, DuplicateError
from tournaments.models import MAX_BOARDS_PER_ROUND, MIN_BOARDS_PER_ROUND, DuplicateEvent, Tournament


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
    return event
