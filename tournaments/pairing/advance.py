"""The bracket advances by itself: when the last match of a bracket round is finished (and no level match waits
for the director's decision), the next bracket round is paired and published, by the desk's own services.

It runs after the finishing write commits (``after_bracket_match``: ``transaction.on_commit``), in a transaction
of its own under the tournament's lock: two tables finishing at once each commit first, so whichever advance
takes the lock second sees both results, and sees the round the first one paired, and does nothing. The first
bracket round after a stage is never made here (its draft is the director's review of the seeding), nor a round
past the final. Who did it is the history's: the request's user (the judge who confirmed the last deal, the
director who decided a level match), or nobody (the system) outside a request.
"""

from __future__ import annotations

import logging
from functools import partial

from django.db import transaction

from tournaments.competition.finishing import lock_open
from tournaments.models import Match, Round
from tournaments.pairing import knockout
from tournaments.pairing.services import pair_round, publish_pairing, why_not_pair

log = logging.getLogger(__name__)


def after_bracket_match(match: Match) -> None:
    """Ask for the advance once the write that finished (or decided) ``match`` commits."""
    if match.state == Match.State.FINISHED:
        transaction.on_commit(partial(advance_bracket, match.round_id), robust=True)


@transaction.atomic
def advance_bracket(round_id: int) -> Round | None:
    """Pair and publish the bracket round after round ``round_id`` when it can be; the new round, or None."""
    rnd = Round.objects.filter(pk=round_id).select_related("tournament").first()
    if rnd is None or rnd.tournament.is_finished or not knockout.is_bracket_round(rnd.tournament, rnd.number):
        return None
    tournament = lock_open(rnd.tournament_id)
    number = rnd.number + 1
    rnd.refresh_from_db()
    rnd.refresh_state()  # read under the lock: a table that finished in another transaction counts now
    if rnd.state != Round.State.FINISHED or why_not_pair(tournament, number) is not None:
        return None
    following = pair_round(tournament, number)
    publish_pairing(following)  # a round the knockout pairs has no absences (``checkin.forfeits``)
    log.info("%s: round %s paired and published by itself", tournament.slug, number)
    return following
