"""Finishing a tournament: the director closes the day and its results are final; reopening it for a late
correction.

A tournament is finished once every round is published and every published match is finished, with no deal
waiting for confirmation (``why_not_finish`` names the first thing still open). While it is finished, every write
that could change a result is refused with ``TournamentFinished`` (409), in one place per layer: the desk's
services (pairing, byes, pairs, the import, the scoring settings) re-read the tournament under its row lock with
``lock_open`` before anything else, and the table side's writes go through
``tournaments.scoring.entries.require_entries``. ``finish_tournament`` takes the same row lock and then every
match's, so a desk write, a table's write that takes its match's lock, and the finish never cross. Reopening lifts
it; the tournament's history keeps who finished and reopened it, and when (``finishing_log``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.models import Deal, Match, Round, Tournament

# The history's change reasons (English, for the admin's history pages; the desk words them itself).
FINISHED = "finished by the director"
REOPENED = "reopened by the director"


def refusal() -> str:
    """The one sentence every refused write of a finished tournament answers."""
    return _("The tournament is finished: its results are final and can no longer be changed.")


class FinishError(Exception):
    """The tournament cannot be finished (something is still open) or reopened (it is not finished); ``message``
    is for the director (translated)."""

    status = 409

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class TournamentFinished(FinishError):
    """A write refused because the tournament is finished (always the same sentence, ``refusal``)."""

    code = "finished"

    def __init__(self) -> None:
        super().__init__(refusal())


def require_open(tournament: Tournament) -> None:
    """Refuse (``TournamentFinished``) when the tournament, as read, is finished."""
    if tournament.is_finished:
        raise TournamentFinished()


def lock_open(tournament_id: int) -> Tournament:
    """The tournament re-read under its row lock, refused when finished: what every desk write that may change a
    result asks first, inside its transaction (``finish_tournament`` holds the same lock)."""
    tournament = get_object_or_404(Tournament.objects.select_for_update(), pk=tournament_id)
    require_open(tournament)
    return tournament


def why_not_finish(tournament: Tournament) -> str | None:
    """Why the tournament cannot be finished now, in one sentence naming the first thing still open (a draft
    round, a table not finished, a deal waiting for confirmation); None when it can."""
    if tournament.is_finished:
        return _("The tournament is finished already.")
    rounds = tournament.rounds.order_by("number")
    if not rounds.exists():
        return _("No round is paired yet.")
    draft = rounds.filter(state=Round.State.DRAFT).first()
    if draft is not None:
        return _("Round %(n)s is still a draft.") % {"n": draft.number}
    matches = Match.objects.of(tournament).order_by("round__number", "table")
    playing = matches.exclude(state=Match.State.FINISHED).select_related("round").first()
    if playing is not None:
        return _("Round %(n)s, table %(t)s is not finished yet.") % {
            "n": playing.round.number,
            "t": playing.table,
        }
    start = tournament.bracket_start
    level = (
        None
        if start is None
        else matches.filter(round__number__gte=start, winner__isnull=True, tie_winner__isnull=True)
        .select_related("round")
        .first()
    )
    if level is not None:  # a knockout match must have a pair that goes through (the director decides)
        return _("Table %(t)s of round %(n)s ended level: decide who goes through on the round's page.") % {
            "t": level.table,
            "n": level.round.number,
        }
    waiting = (
        Deal.objects.of(tournament)
        .submitted()
        .select_related("match__round")
        .order_by("match__round__number", "match__table", "number")
        .first()
    )
    if waiting is not None:
        return _("Deal %(d)s of round %(n)s, table %(t)s is waiting for confirmation.") % {
            "d": waiting.number,
            "n": waiting.match.round.number,
            "t": waiting.match.table,
        }
    return None


def why_not_reopen(tournament: Tournament) -> str | None:
    """Why the tournament cannot be reopened (it is not finished), or None."""
    return None if tournament.is_finished else _("The tournament is not finished.")


@transaction.atomic
def finish_tournament(tournament: Tournament, by) -> Tournament:
    """Finish the tournament: its results are final from now on. Refused (``FinishError``) with what is still
    open. The tournament's row and every match's are locked first, so a table's write in flight is either seen
    here or refused after."""
    tournament = get_object_or_404(Tournament.objects.select_for_update(), pk=tournament.pk)
    list(Match.objects.of(tournament).select_for_update(of=("self",)).values_list("pk"))
    refused = why_not_finish(tournament)
    if refused is not None:
        raise FinishError(refused)
    tournament.finished_at, tournament.finished_by = timezone.now(), by
    return _save_finish(tournament, by, FINISHED)


@transaction.atomic
def reopen_tournament(tournament: Tournament, by, reason: str = "") -> Tournament:
    """Reopen a finished tournament for a late correction; ``reason`` is kept in its history with who and when."""
    tournament = get_object_or_404(Tournament.objects.select_for_update(), pk=tournament.pk)
    refused = why_not_reopen(tournament)
    if refused is not None:
        raise FinishError(refused)
    tournament.finished_at = tournament.finished_by = None
    return _save_finish(tournament, by, reason.strip()[:100] or REOPENED)


def _save_finish(tournament: Tournament, by, reason: str) -> Tournament:
    tournament._history_user = by
    tournament._change_reason = reason
    tournament.save(update_fields=["finished_at", "finished_by"])
    return tournament


@dataclass(frozen=True)
class Step:
    """One finish or reopening of the tournament, as its history keeps it."""

    finished: bool  # True: finished; False: reopened
    when: datetime
    by: object  # the account, or None
    reason: str  # a reopening's reason ('' when none was given)


def finishing_log(tournament: Tournament) -> list[Step]:
    """Every finish and reopening of the tournament, newest first, read from its history."""
    steps: list[Step] = []
    was = False
    rows = tournament.history.select_related("history_user").order_by("history_date", "history_id")
    for row in rows.only("finished_at", "history_date", "history_user", "history_change_reason"):
        now = row.finished_at is not None
        if now != was:
            reason = row.history_change_reason or ""
            reason = "" if reason in (FINISHED, REOPENED) else reason
            steps.append(Step(now, row.history_date, row.history_user, reason))
        was = now
    return steps[::-1]
