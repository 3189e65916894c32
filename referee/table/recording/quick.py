"""Quick entry: a deal entered as totals only (tables that do not record tricks), then submitted at once.

The deal goes through the same writes as a recorded one (``deal_entry``: start, penalties, submit); its verdict
is scored from the totals (``quick_totals``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from referee.table.recording.deal_entry import start_deal, submit_deal
from tournaments.models import Deal, Match
from tournaments.scoring.corrections import add_penalty
from tournaments.scoring.entries import require_record
from tournaments.scoring.errors import PermissionRefused
from tournaments.scoring.quick_totals import check_quick_totals
from tournaments.scoring.rulesets import ruleset_for
from tournaments.scoring.versions import touch


def require_quick_entry(user, match: Match) -> None:
    """Quick entry needs the record permission and the tournament's consent."""
    require_record(user, match)
    if not match.round.tournament.quick_entry_allowed:
        raise PermissionRefused(_("Quick entry is not allowed in this tournament."))


@transaction.atomic
def quick_entry(
    match: Match,
    user,
    *,
    trump: str,
    points: int,
    kitty_points: int,
    last_lead: str,
    attackers_won_last: bool,
    declarer: str | None = None,
    penalties: Sequence[Mapping[str, Any]] = (),
    next_deal: int | None = None,
) -> Deal:
    """A deal entered as totals only, checked, started, given its penalties and submitted.

    ``next_deal``: the deal number the form was shown for (``deal_entry.start_deal`` refuses a stale form).
    """
    require_quick_entry(user, match)
    check_quick_totals(ruleset_for(match), points, kitty_points, last_lead)
    deal = start_deal(match, user, trump=trump, declarer=declarer, next_deal=next_deal)
    deal.mode = Deal.Mode.QUICK
    deal.quick_points, deal.quick_kitty_points = points, kitty_points
    deal.quick_last_lead, deal.quick_attackers_last = last_lead, attackers_won_last
    touch(deal, user)
    for p in penalties:
        add_penalty(
            deal,
            user,
            seat=p["seat"],
            code=p["code"],
            trick=p.get("trick"),
            note=p.get("note", ""),
            version=None,
        )
    deal.refresh_from_db()
    return submit_deal(deal, user, version=deal.version)
