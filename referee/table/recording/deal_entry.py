"""A deal's writes at the table: start it, undo, the kitty, penalties, submit, confirm, reopen (a play: ``play``).

Every write names the deal's version the writer saw (``versions.lock_deal``). Submitting stores the engine's verdict; a second person confirms it, and only the
TD reopens it; both then recompute the match (``tournaments.scoring.fold.recompute_match``).
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from referee.table.recording import settling
from referee.table.recording.words import parse_card_text
from rules.match import MatchState, can_start_deal
from rules.ruleset import Ruleset, TimeRule
from rules.seats import SEATS, side_of
from tournaments.competition.access import can_confirm
from tournaments.models import TRUMP_CHOICES, Deal, Match
from tournaments.scoring.board_hands import require_buried_held
from tournaments.scoring.entries import lock_for_entry, require_open, require_record
from tournaments.scoring.errors import (
    PermissionRefused,
    RecordingError,
    StaleEdit,
)
from tournaments.scoring.fold import (
    has_open_deal,
    recompute_match,
    refresh_start_levels,
    table_state,
)
from tournaments.scoring.quick_totals import quick_verdict
from tournaments.scoring.rulesets import ruleset_for
from tournaments.scoring.snapshot import snapshot, start_levels
from tournaments.scoring.versions import lock_deal, touch

TRUMPS = frozenset(code for code, _label in TRUMP_CHOICES)


def next_deal_number(match: Match) -> int:
    """The number the match's next deal takes."""
    return (match.deals.aggregate(n=Max("number"))["n"] or 0) + 1


def time_refusal(state: MatchState) -> str:
    """Why no deal may start: the match is over, or time is up (under sudden death, until time is called)."""
    if state.over:
        return _("The match is over.")
    if state.ruleset.time_rule == TimeRule.SUDDEN_DEATH:
        return _("Time is up: call time on the match page first; both sides then play at the target level.")
    return _("Time is up: no new deal may start.")


@transaction.atomic
def start_deal(
    match: Match,
    user,
    *,
    trump: str,
    declarer: str | None = None,
    kitty: str = "",
    next_deal: int | None = None,
) -> Deal:
    """A new deal: the banker from the rotation (the declarer for the first deal), the level from the match.

    ``next_deal`` is the number of the deal the writer's form was shown for (the match's version for a new
    deal): a form shown before another deal came in is refused, so one form never makes two deals.
    """
    require_record(user, match)
    match = lock_for_entry(match)
    number = next_deal_number(match)
    if next_deal is not None and next_deal != number:
        raise StaleEdit(
            _("Deal %(n)s of this match was entered after this form was shown: check the match page first.")
            % {"n": number - 1}
        )
    if has_open_deal(match):
        raise RecordingError(_("Finish and submit the deal in progress first."))
    state = table_state(match)
    now = timezone.now()
    if not can_start_deal(state, now):
        raise RecordingError(time_refusal(state))
    banker = state.banker or declarer
    if banker not in SEATS:
        raise RecordingError(_("Choose who won the declaration (the first banker)."))
    trump = (trump or "").strip().upper()
    if trump not in TRUMPS:
        raise RecordingError(_("Choose the trump suit or no trump."))
    deal = Deal(
        match=match,
        number=number,
        banker=banker,
        declarer=banker if number == 1 else "",
        level=state.levels[side_of(banker)],
        trump=trump,
        kitty=kitty_text(ruleset_for(match), kitty),
        started_at=now,
        changed_by=user,
        start_levels=dict(state.levels),  # no deal is open, so the played deals are all the deals before it
    )
    return begin(match, deal, user)


def begin(match: Match, deal: Deal, user) -> Deal:
    """Save a deal just begun (with its history's author); the match's first deal starts the match."""
    deal._history_user = user  # type: ignore[attr-defined]
    deal.save()
    if match.started_at is None:
        match.started_at = deal.started_at
        match.state = Match.State.IN_PROGRESS
        match.save(update_fields=["started_at", "state"])
    return deal


def kitty_text(rs: Ruleset, kitty: str) -> str:
    """The kitty as stored (canonical text; '' while it is not entered yet): the ruleset's size or nothing, so
    a miscounted kitty is caught when it is typed, not at the end of the deal."""
    text = parse_card_text(kitty, _("kitty")) if kitty.strip() else ""
    n = len(text.split())
    if n and not rs.kitty_size:
        raise RecordingError(_("This game has no kitty: leave the kitty empty."))
    if n and n != rs.kitty_size:
        raise RecordingError(
            _("The kitty has %(n)s cards; it must have %(expected)s.") % {"n": n, "expected": rs.kitty_size}
        )
    return text


@transaction.atomic
def set_kitty(deal: Deal, user, kitty: str, *, version: int | None) -> Deal:
    require_record(user, deal.match)
    deal = lock_deal(deal, version)
    require_open(deal)
    deal.kitty = kitty_text(ruleset_for(deal.match), kitty)
    require_buried_held(deal, deal.kitty)  # a board's: cards the banker held with the kitty
    if deal.board_id and deal.tricks.exists():  # play was judged against the banker's hand: it stays
        raise RecordingError(_("Play has begun on this board: undo every play to change the buried cards."))
    touch(deal, user)
    return deal


# ---------------------------------------------------------------- undo (the plays: ``play``)


@transaction.atomic
def undo(deal: Deal, user, *, version: int | None, whole_trick: bool = False) -> None:
    """Take back the last play entered (its trick too when it was the lead), or the whole last trick.

    A violation the correction removes from the verdict takes its rulings and penalty with it."""
    require_record(user, deal.match)
    deal = lock_deal(deal, version)
    require_open(deal)
    trick = deal.tricks.order_by("-number").first()
    if trick is None:
        raise RecordingError(_("Nothing to undo."))
    plays = list(trick.plays.order_by("-order"))
    for play in plays if whole_trick else plays[:1]:
        play._history_user = user
        play.delete()
    if whole_trick or len(plays) <= 1:
        trick._history_user = user
        trick.delete()
    touch(deal, user)
    if deal.rulings.exists() or deal.penalties.exclude(violation="").exists():
        settling.drop_stale(deal, user, settling.current_verdict(deal))


# ---------------------------------------------------------------- submit, confirm (penalties and reopening: the
# desk's ruling writes them too, so they are the desk's side: ``tournaments.scoring.corrections``)


@transaction.atomic
def submit_deal(deal: Deal, user, *, version: int | None) -> Deal:
    """Close the deal: the retroactive audit's verdict is stored with it; a second person confirms it.

    Every violation of that verdict must be settled first (``settling.require_settled``)."""
    require_record(user, deal.match)
    deal = lock_deal(deal, version)
    require_open(deal)
    rs = ruleset_for(deal.match)
    if deal.mode == Deal.Mode.TRICKS:
        snap = snapshot(deal, start_levels(deal))
        if not snap.complete:
            raise RecordingError(_("The deal is not finished: record every trick first."))
        if len(deal.kitty.split()) != rs.kitty_size:
            raise RecordingError(_("Enter the kitty (%(n)s cards) before submitting.") % {"n": rs.kitty_size})
        judged = snap.judged()
        settling.require_settled(deal, judged)
        verdict = judged.as_dict()
    else:
        verdict = quick_verdict(deal, rs)
    if not verdict.get("result"):
        raise RecordingError(_("The engine could not score this deal."))
    deal.verdict = verdict
    deal.state = Deal.State.SUBMITTED
    deal.submitted_by = user
    deal.submitted_at = deal.finished_at = timezone.now()
    touch(deal, user)
    refresh_start_levels(deal.match)  # a reopened deal submitted again changes the deals after it
    return deal


@transaction.atomic
def confirm_deal(deal: Deal, user, *, version: int | None) -> Deal:
    """A second person confirms a submitted deal; the match is then recomputed from its confirmed deals."""
    lock_for_entry(deal.match)  # the match's lock first, as a finish takes it: a finished tournament refuses
    deal = lock_deal(deal, version)
    if deal.state != Deal.State.SUBMITTED:
        raise RecordingError(_("Only a submitted deal can be confirmed."))
    if not can_confirm(user, deal):
        if deal.submitted_by_id == getattr(
            user, "pk", None
        ):  # the refusal names the reason the judge can act on
            raise PermissionRefused(_("You submitted this deal: another person must confirm it."))
        raise PermissionRefused(_("You may not confirm deals of this match."))
    deal.state = Deal.State.CONFIRMED
    deal.confirmed_by = user
    deal.confirmed_at = timezone.now()
    touch(deal, user)
    recompute_match(deal.match)
    return deal
