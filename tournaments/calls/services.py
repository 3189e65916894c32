"""The table's calls on the database: raised at the table, answered at the desk, resolved with a ruling.

The ruling's penalty or reopened deal is written by the scoring room's corrections (``rulings``), which then
closes the call here with ``resolve_call``: one way to close a call.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.competition import access
from tournaments.competition.finishing import require_open
from tournaments.competition.free_text import text_problem
from tournaments.duplicate.movement import DuplicateError, is_duplicate_match, next_board
from tournaments.models import Board, Deal, Match, Penalty, TableCall, Tournament

NOTE_LENGTH = 200
RULING_LENGTH = 1000
KEY_LENGTH = 64


def clean_text(value: str, max_length: int) -> str:
    """Free text as stored: trimmed, refused (one sentence) with a NUL character or beyond ``max_length``."""
    value = (value or "").strip()
    problem = text_problem(value, max_length)
    if problem:
        raise CallError(problem)
    return value


def clean_key(key: str) -> str:
    """The device's key for a call: letters, digits and dashes only, else none (a fresh call)."""
    key = (key or "")[:KEY_LENGTH]
    return key if key.replace("-", "").replace("_", "").isalnum() and key.isascii() else ""


class CallError(Exception):
    """A call the service refuses: ``message`` in the user's language, ``status`` the page's HTTP code."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


def require_director(user, tournament) -> None:
    """Answering a call is for those who run the tournament: its directors and scorers."""
    if not access.scores(user, tournament):
        raise CallError(_("Only the tournament director can answer a call."), 403)


def open_deal(match: Match) -> Deal | None:
    """The deal the table is on when it calls: the one being recorded, else its last one."""
    deals = match.deals.order_by("-number")
    return deals.filter(state=Deal.State.RECORDING).first() or deals.first()


def fouled_board(match: Match) -> Board | None:
    """The board a table calls fouled (RULES §14.6): the one it is recording, else the round's next (checked
    before play); a table of another format plays no boards."""
    if not is_duplicate_match(match):
        raise CallError(_("This table plays no boards."))
    recording = match.deals.filter(state=Deal.State.RECORDING, board__isnull=False).first()
    if recording is not None:
        return recording.board
    try:
        return next_board(match)
    except DuplicateError as exc:
        raise CallError(exc.message, exc.status) from None


@transaction.atomic
def raise_call(match: Match, user, *, reason: str, note: str = "", key: str = "") -> TableCall:
    """The table calls the referee. Sent again under the same device key (the answer was lost, or the device
    was offline and sends it now), it is the call already made, never a second one."""
    if not access.can_record(user, match):
        raise CallError(_("Only this table's judge or device can call the referee for it."), 403)
    require_open(match.round.tournament)
    if reason not in TableCall.Reason.values:
        raise CallError(_("Choose why you call the referee."))
    key = clean_key(key)
    if key:
        known = TableCall.objects.filter(match=match, key=key).first()
        if known is not None:
            return known
    call = TableCall(
        match=match,
        deal=open_deal(match),
        board=fouled_board(match) if reason == TableCall.Reason.FOULED else None,
        reason=reason,
        note=clean_text(note, NOTE_LENGTH),
        key=key,
        called_by=user,
    )
    try:
        with transaction.atomic():
            call.save()
    except IntegrityError:  # the same key, sent twice at once: the first one stands
        return TableCall.objects.get(match=match, key=key)
    return call


def call_of(tournament: Tournament, call_id: int) -> TableCall:
    """A call of this tournament (404 for another's or none)."""
    if not 0 < call_id < 2**63:
        raise CallError(_("That call is not there."), 404)
    call = (
        TableCall.objects.of(tournament)
        .select_related("match__round", "match__pair_ns", "match__pair_ew", "deal", "penalty")
        .filter(pk=call_id)
        .first()
    )
    if call is None:
        raise CallError(_("That call is not there."), 404)
    return call


def lock_call(call: TableCall) -> TableCall:
    return get_object_or_404(TableCall.objects.select_for_update(), pk=call.pk)


@transaction.atomic
def mark_on_the_way(call: TableCall, user) -> TableCall:
    """The director goes to the table: the table's page says so, the queue shows who went."""
    require_director(user, call.match.round.tournament)
    call = lock_call(call)
    if call.state == TableCall.State.RESOLVED:
        raise CallError(_("This call is resolved already."), 409)
    if call.state == TableCall.State.OPEN:
        call.state = TableCall.State.ON_THE_WAY
        call.on_the_way_at, call.on_the_way_by = timezone.now(), user
        call.save(update_fields=["state", "on_the_way_at", "on_the_way_by"])
    return call


def checked_ruling(ruling: str) -> str:
    ruling = clean_text(ruling, RULING_LENGTH)
    if not ruling:
        raise CallError(_("Write the ruling."))
    return ruling


@transaction.atomic
def resolve_call(
    call: TableCall, user, *, ruling: str, action: str = "", penalty: Penalty | None = None
) -> TableCall:
    """Close the call with the director's ruling (and what it did: a penalty, a reopened deal)."""
    require_director(user, call.match.round.tournament)
    ruling = checked_ruling(ruling)
    call = lock_call(call)
    if call.state == TableCall.State.RESOLVED:
        raise CallError(_("This call is resolved already."), 409)
    call.state = TableCall.State.RESOLVED
    call.resolved_at, call.resolved_by = timezone.now(), user
    call.on_the_way_at = call.on_the_way_at or call.resolved_at
    call.on_the_way_by = call.on_the_way_by or user
    call.ruling, call.action, call.penalty = ruling, action, penalty
    call.save()
    return call


def waiting_calls(tournament: Tournament) -> list[TableCall]:
    """The calls not yet resolved, oldest first, with their tables' pairs (the board's strip and the queue)."""
    return list(
        TableCall.objects.of(tournament)
        .waiting()
        .select_related("match__round", "match__pair_ns", "match__pair_ew", "on_the_way_by")
    )


def resolved_calls(tournament: Tournament, limit: int = 50) -> list[TableCall]:
    """The latest resolved calls, newest first (the queue's record of the day)."""
    calls = TableCall.objects.of(tournament).filter(state=TableCall.State.RESOLVED)
    related = ("match__round", "match__pair_ns", "match__pair_ew", "resolved_by", "penalty")
    return list(calls.select_related(*related).order_by("-resolved_at", "-pk")[:limit])


def match_calls(match: Match) -> list[TableCall]:
    """Every call the match made, in order (the match page shows them)."""
    return list(match.calls.select_related("penalty").order_by("called_at", "pk"))


def waiting_minutes(call: TableCall, now=None) -> int:
    """How long the table has waited, in whole minutes (until the call was resolved)."""
    end = call.resolved_at or now or timezone.now()
    return max(0, int((end - call.called_at).total_seconds() // 60))
