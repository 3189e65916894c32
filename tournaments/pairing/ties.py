"""The director's decision of a knockout match that ended level (time called on equal levels, both sides out on
strikes): which pair goes through and why, kept in the match's history with who and when. The decision of a
round's last level match lets the next bracket round pair itself (``tournaments.pairing.advance``), whoever calls
it: the desk's page, a command or the shell.
"""

from __future__ import annotations

from django.db import transaction
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.competition.finishing import lock_open
from tournaments.models import Match, Pair
from tournaments.pairing.advance import after_bracket_match
from tournaments.pairing.knockout import is_bracket_round


class TieError(Exception):
    """A tie decision refused; the message is for the director."""

    def __init__(self, message: str, status: int = 409) -> None:
        super().__init__(message)
        self.message, self.status = message, status


@transaction.atomic
def decide_tie(match: Match, pair_id: int, reason: str, user) -> Match:
    """The director's decision of a bracket match that ended level: ``pair_id`` goes through, for ``reason``.
    Refused once the next round is paired (its tables were drawn from the decision)."""
    lock_open(match.round.tournament_id)
    match = get_object_or_404(
        Match.objects.select_for_update().select_related("round__tournament"), pk=match.pk
    )
    tournament = match.round.tournament
    if not is_bracket_round(tournament, match.round.number):
        raise TieError(_("Only a knockout match that ended level is decided at the desk."))
    if match.state != Match.State.FINISHED or match.winner_id is not None:
        raise TieError(_("Only a knockout match that ended level is decided at the desk."))
    if pair_id not in (match.pair_ns_id, match.pair_ew_id):
        raise TieError(_("Choose one of the match's two pairs."), 400)
    reason = (reason or "").strip()
    if not reason:
        raise TieError(_("Say why this pair goes through."), 400)
    if tournament.rounds.filter(number=match.round.number + 1).exists():
        raise TieError(_("The next round is paired already: discard its draft first."))
    match.tie_winner = Pair.objects.get(pk=pair_id)
    match.tie_reason = reason[:200]
    match.tie_decided_by = user
    match.tie_decided_at = timezone.now()
    match._history_user = user
    match.save(update_fields=["tie_winner", "tie_reason", "tie_decided_by", "tie_decided_at"])
    after_bracket_match(match)  # the round's last level match decided: the next round pairs itself on commit
    return match
