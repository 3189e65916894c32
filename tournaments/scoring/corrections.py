"""A deal's corrections: a penalty added or taken off, a submitted or confirmed deal reopened.

The judge's page writes them (``referee.table.actions``) and so does the director's ruling on a table's call
(``tournaments.calls.rulings``), so they live on the desk's side, next to the match fold a reopening recomputes.
Every write names the deal's version the writer saw (``versions.lock_deal``).
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from rules.scoring import PENALTY_CODES
from rules.seats import SEATS
from tournaments.competition.free_text import text_problem
from tournaments.models import Deal, Penalty
from tournaments.scoring.entries import lock_for_entry, may_reopen, require_open, require_record
from tournaments.scoring.errors import PermissionRefused, RecordingError
from tournaments.scoring.fold import recompute_match, refresh_start_levels
from tournaments.scoring.versions import lock_deal, touch


@transaction.atomic
def add_penalty(
    deal: Deal, user, *, seat: str, code: str, version: int | None, trick: int | None = None, note: str = ""
) -> Penalty:
    """A penalty the judge called (misplay, signal, renege, revoke, wrong card count)."""
    require_record(user, deal.match)
    deal = lock_deal(deal, version)
    require_open(deal)
    if seat not in SEATS:
        raise RecordingError(_("Choose the seat at fault."))
    if code not in PENALTY_CODES:
        raise RecordingError(_("Unknown penalty %(code)s.") % {"code": code})
    penalty = Penalty(deal=deal, seat=seat, code=code, trick=trick, note=note.strip()[:300], recorded_by=user)
    penalty._history_user = user
    penalty.save()
    touch(deal, user)
    return penalty


@transaction.atomic
def remove_penalty(deal: Deal, user, *, penalty_id: int, version: int | None) -> None:
    require_record(user, deal.match)
    deal = lock_deal(deal, version)
    require_open(deal)
    penalty = deal.penalties.filter(pk=penalty_id).first()
    if penalty is None:
        raise RecordingError(_("That penalty is no longer there."))
    penalty._history_user = user
    penalty.delete()
    touch(deal, user)


REASON_LENGTH = Deal._meta.get_field("reopen_reason").max_length


def reopen_reason(reason: str) -> str:
    """Why a deal is reopened: required, one short line (kept with the deal and in its history)."""
    reason = " ".join(reason.split())
    if not reason:
        raise RecordingError(_("Say why the deal is reopened: the reason is kept in its history."))
    if problem := text_problem(reason, REASON_LENGTH):
        raise RecordingError(_("%(field)s: %(problem)s") % {"field": _("reason"), "problem": problem})
    return reason


@transaction.atomic
def reopen_deal(deal: Deal, user, *, version: int | None, reason: str = "") -> Deal:
    """Reopen a submitted deal (its judge or the TD) or a confirmed one (the TD), with a reason: a submitted
    deal is frozen (``access.require_open``), so every change after submit starts here. Who, when and why stay
    on the deal (the queue marks it) and in its history, from which the confirmer's page shows what changed."""
    lock_for_entry(deal.match)  # the match's lock first, as a finish takes it: a finished tournament refuses
    deal = lock_deal(deal, version)
    if deal.state == Deal.State.RECORDING:
        raise RecordingError(_("This deal is open already."))
    if not may_reopen(user, deal):
        raise PermissionRefused(_("Only the tournament director can reopen a deal."))
    reason = reopen_reason(reason)
    was_confirmed = deal.state == Deal.State.CONFIRMED
    deal.state = Deal.State.RECORDING
    deal.confirmed_by = deal.confirmed_at = deal.confirmed_by_pair = None
    deal.submitted_by = deal.submitted_at = None
    deal.reopened_by, deal.reopened_at, deal.reopen_reason = user, timezone.now(), reason
    deal._change_reason = reason[:100]
    touch(deal, user)
    if was_confirmed:
        recompute_match(deal.match)
    else:
        refresh_start_levels(deal.match)  # no longer played: the deals after it start without it
    return deal
