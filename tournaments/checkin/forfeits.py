"""A round published: its pairing made public (``pairing.services.publish_pairing``) and, for the pairs absent at
check-in that the director chose to pair and forfeit, each of their matches' forfeit (an adjusted result with its
reason, ``awarding.award``), in the same transaction; both pairs absent, both lose.

The desk's publish button and ``manage.py pair_round --publish`` both come here. A bracket round the knockout
pairs by itself (``pairing.advance``) publishes with ``publish_pairing`` alone: check-in pairs only the round the
director pairs, so that round has no absences (nor a backup of its own: serve's timer takes it within minutes).
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from tournaments.adjusted import awarding
from tournaments.backup.services import backup_after_round
from tournaments.models import Absence, Adjustment, Round
from tournaments.pairing.services import publish_pairing


@transaction.atomic
def publish_round(rnd: Round) -> None:
    """Publish the round, record the forfeits of its pairs absent at check-in, and (once committed, in the
    background, ``make serve``) take the round's backup."""
    publish_pairing(rnd)
    forfeit_absent_pairs(rnd)
    backup_after_round(rnd)


def forfeit_absent_pairs(round: Round) -> None:
    absent = {a.pair_id: a for a in round.absences.filter(treated=Absence.Treated.FORFEIT)}
    if not absent:
        return
    matches = round.matches.filter(Q(pair_ns_id__in=absent) | Q(pair_ew_id__in=absent))
    for match in matches.select_related("round__tournament", "pair_ns", "pair_ew"):
        ns_away, ew_away = match.pair_ns_id in absent, match.pair_ew_id in absent
        by = absent[match.pair_ns_id if ns_away else match.pair_ew_id].by
        reason = _("Absent at check-in")
        if ns_away and ew_away:
            awarding.award(match, by, kind=Adjustment.Kind.BOTH_LOSE, reason=reason)
        else:
            awarding.award(
                match, by, kind=Adjustment.Kind.FORFEIT, side="EW" if ns_away else "NS", reason=reason
            )
