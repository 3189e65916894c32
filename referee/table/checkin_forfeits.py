"""A round published with pairs absent at check-in that the director chose to pair and forfeit: each of their
matches gets its forfeit (an adjusted result with its reason, ``adjusting.award``), inside the publish's
transaction (``tournaments.pairing.services.round_published``); both pairs absent, both lose."""

from __future__ import annotations

from django.db.models import Q
from django.dispatch import receiver
from django.utils.translation import gettext as _

from referee.table import adjusting
from tournaments.models import Absence, Adjustment, Round
from tournaments.pairing.services import round_published


@receiver(round_published, dispatch_uid="check-in-forfeits")
def forfeit_absent_pairs(sender, round: Round, **kwargs) -> None:
    absent = {a.pair_id: a for a in round.absences.filter(treated=Absence.Treated.FORFEIT)}
    if not absent:
        return
    matches = round.matches.filter(Q(pair_ns_id__in=absent) | Q(pair_ew_id__in=absent))
    for match in matches.select_related("round__tournament", "pair_ns", "pair_ew"):
        ns_away, ew_away = match.pair_ns_id in absent, match.pair_ew_id in absent
        by = absent[match.pair_ns_id if ns_away else match.pair_ew_id].by
        reason = _("Absent at check-in")
        if ns_away and ew_away:
            adjusting.award(match, by, kind=Adjustment.Kind.BOTH_LOSE, reason=reason)
        else:
            adjusting.award(
                match, by, kind=Adjustment.Kind.FORFEIT, side="EW" if ns_away else "NS", reason=reason
            )
