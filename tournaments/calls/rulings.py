"""A table call resolved with what its ruling does to the deal: a penalty (``add_penalty``) or the deal reopened
(``reopen_deal``), both the scoring room's corrections, then the call closed (``services.resolve_call``).

A penalty on a deal already submitted first reopens it, with the ruling as the reason, as a penalty after submit
always does: the table submits it again and the person who confirms it sees what changed.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from rules.matchpoints import Fault
from tournaments.adjusted.artificial import give_artificial
from tournaments.calls import services as calls
from tournaments.models import PENALTY_CODES, SEAT_CHOICES, ArtificialScore, Deal, TableCall
from tournaments.scoring.corrections import add_penalty, reopen_deal
from tournaments.scoring.errors import RecordingError

ACTIONS = ("", TableCall.Action.PENALTY, TableCall.Action.REOPEN, TableCall.Action.FOULED)


def ruled_deal(call: TableCall) -> Deal:
    """The deal the ruling acts on: the one the table was on when it called, else the match's last."""
    deal = call.deal or calls.open_deal(call.match)
    if deal is None:
        raise calls.CallError(_("This table has no deal yet: the ruling cannot act on one."))
    return Deal.objects.get(pk=deal.pk)


def score_fouled(call: TableCall, user, ruling: str) -> ArtificialScore:
    """A fouled board (RULES §14.4, §14.6) scored apart at this table: its unsubmitted deal there, if play had
    begun, is withdrawn (its rows stay in the deal's history, with the ruling as the reason) and the board takes
    an artificial score, nobody at fault (60 % each) until the director says otherwise on the scores page."""
    if call.board is None:
        raise calls.CallError(_("This call names no board: score the table on the artificial scores page."))
    deal = Deal.objects.filter(match=call.match, board=call.board).first()
    if deal is not None:
        if deal.state != Deal.State.RECORDING:
            raise calls.CallError(
                _("This board was submitted at the table: reopen it before scoring it apart.")
            )
        deal._history_user = user  # type: ignore[attr-defined]
        deal._change_reason = ruling[:100]  # type: ignore[attr-defined]
        deal.delete()
    nobody = Fault.NONE.value
    return give_artificial(
        call.match, call.board, user, ns_fault=nobody, ew_fault=nobody, fouled=True, note=ruling[:200]
    )


@transaction.atomic
def resolve(
    call: TableCall, user, *, ruling: str, action: str = "", seat: str = "", code: str = ""
) -> TableCall:
    """Resolve the call with the director's ruling and, where it applies, a penalty or a reopened deal."""
    calls.require_director(user, call.match.round.tournament)
    ruling = calls.checked_ruling(ruling)
    if action not in ACTIONS:
        raise calls.CallError(_("Choose what the ruling does."))
    if call.state == TableCall.State.RESOLVED:
        raise calls.CallError(_("This call is resolved already."), 409)
    penalty = None
    try:
        if action == TableCall.Action.PENALTY:
            if seat not in dict(SEAT_CHOICES) or code not in dict(PENALTY_CODES):
                raise calls.CallError(_("Choose the seat at fault and the penalty."))
            deal = ruled_deal(call)
            if deal.state != Deal.State.RECORDING:
                deal = reopen_deal(deal, user, version=None, reason=ruling[:200])
            penalty = add_penalty(deal, user, seat=seat, code=code, version=None, note=ruling[:300])
        elif action == TableCall.Action.REOPEN:
            reopen_deal(ruled_deal(call), user, version=None, reason=ruling[:200])
        elif action == TableCall.Action.FOULED:
            score_fouled(call, user, ruling)
    except RecordingError as exc:
        raise calls.CallError(exc.message, exc.status) from exc
    return calls.resolve_call(call, user, ruling=ruling, action=action, penalty=penalty)
