"""Who may write to a match or a deal, and when: every write of the recording service asks here first."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from tournaments.competition.access import can_record, can_reopen, in_draft
from tournaments.competition.finishing import refusal
from tournaments.models import Deal, Match, Round
from tournaments.scoring.errors import DraftRound, Finished, Frozen, PermissionRefused


def require_entries(match: Match) -> None:
    """A draft round's matches take no entries, not even the TD's: publishing the round comes first. A finished
    tournament's take none either (``Finished``, 409), until the director reopens it: its results are final. Every
    write of the recording service asks here first (through ``require_record`` or ``lock_for_entry``)."""
    if in_draft(match):
        raise DraftRound(
            _("This round is still a draft: the director publishes its pairing before any entry.")
        )
    if match.round.tournament.is_finished:
        raise Finished(refusal())


def lock_for_entry(match: Match) -> Match:
    """The match re-read under its row lock, refused if its round is a draft now or its tournament finished. A
    round goes back to draft only while none of its matches has begun, holding their locks
    (``pairing.unpublish_round``), and a tournament is finished holding every match's lock
    (``finishing.finish_tournament``), so whatever a request read before the lock, a table begins, and a match's
    result changes, only in a published round of an open tournament."""
    match = get_object_or_404(Match.objects.select_for_update(), pk=match.pk)
    # Its round and tournament are read after the lock, in a statement of their own: on PostgreSQL a read that
    # waited for the lock returns the rows it only joined as they were when it began, so a draft or a finish
    # committed meanwhile would go unseen (tests/test_races.py).
    match.round = Round.objects.select_related("tournament").get(pk=match.round_id)
    require_entries(match)
    return match


def require_record(user, match: Match) -> None:
    """Refuse a write by anyone ``tournaments.competition.access.can_record`` does not allow."""
    require_entries(match)
    if not can_record(user, match):
        raise PermissionRefused(_("You may not record this match: it is assigned to another judge."))


def require_open(deal: Deal) -> None:
    """Refuse any change to a deal once submitted (409): it is frozen, so the person who confirms it sees what
    was submitted; a change first reopens it with a reason (``corrections.reopen_deal``), kept in its history."""
    if ruled_over(deal.match):
        raise Frozen(_("The director has ruled on this match: it is over, and no deal is recorded after it."))
    if deal.state == Deal.State.CONFIRMED:
        raise Frozen(_("This deal is confirmed; only the director can reopen it."))
    if deal.state != Deal.State.RECORDING:
        raise Frozen(_("This deal is submitted: reopen it, with a reason, before changing it."))


def ruled_over(match: Match) -> bool:
    """A ruling has ended the match: the director's awarded result (assigned levels, both sides losing) or a
    forfeit. A deal left open when it came takes nothing more (``tournaments.scoring.awarded.ruled_state``); the
    fold leaves a forfeit's open deal out, so a play on it would be stored and never count. Withdrawing the
    ruling opens the table again."""
    return match.ended_by == Match.EndedBy.ADJUSTED or bool(match.forfeited_by)


def may_reopen(user, deal: Deal) -> bool:
    """Who reopens a deal: a submitted one, its table's judge or the TD; a confirmed one, the TD alone."""
    if deal.state == Deal.State.RECORDING:
        return False
    if deal.state == Deal.State.SUBMITTED and can_record(user, deal.match):
        return True
    return can_reopen(user, deal.match.round.tournament)
