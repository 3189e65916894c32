"""A deal's writes at the table: start it, enter plays, undo, the kitty, penalties, submit, confirm, reopen.

Every play is checked by the rules engine before it is saved, and every write names the deal's version the writer
saw (``versions.lock_deal``). Submitting stores the engine's verdict; a second person confirms it, and only the
TD reopens it; both then recompute the match (``match_fold.recompute_match``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from referee.table.recording import settling
from referee.table.recording.access import lock_for_entry, may_reopen, require_open, require_record
from referee.table.recording.card_text import parse_card_text, seat_name
from referee.table.recording.errors import (
    IllegalPlay,
    PermissionRefused,
    RecordingError,
    StaleEdit,
    verdict_message,
)
from referee.table.recording.history_rows import insert_with_history
from referee.table.recording.match_fold import (
    has_open_deal,
    recompute_match,
    refresh_start_levels,
    start_levels,
    table_state,
)
from referee.table.recording.quick_totals import quick_verdict
from referee.table.recording.rulesets import ruleset_for
from referee.table.recording.snapshot import Snapshot, judge_probe, snapshot
from referee.table.recording.turns import remember_turn, turn_before
from referee.table.recording.versions import claim, lock_deal, read_deal, touch
from rules.judge import Verdict
from rules.match import can_start_deal
from rules.ruleset import Ruleset
from rules.scoring import PENALTY_CODES
from rules.seats import SEATS, side_of
from tournaments.competition.access import can_confirm
from tournaments.competition.text import text_problem
from tournaments.models import TRUMP_CHOICES, Deal, Match, Penalty, Play, Trick

# Faults of the entry itself: never saved. Rule faults (revokes, throws) may be saved on the judge's word.
ENTRY_FAULTS = frozenset(
    {"not_held", "deck_count", "mixed_lead", "wrong_leader", "wrong_order", "play_size", "incomplete_trick"}
)
TRUMPS = frozenset(code for code, _label in TRUMP_CHOICES)


def next_deal_number(match: Match) -> int:
    """The number the match's next deal takes."""
    return (match.deals.aggregate(n=Max("number"))["n"] or 0) + 1


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
        raise RecordingError(
            _("The match is over.") if state.over else _("Time is up: no new deal may start.")
        )
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
    deal._history_user = user
    deal.save()
    if match.started_at is None:
        match.started_at = now
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
    touch(deal, user)
    return deal


# ---------------------------------------------------------------- plays


@dataclass(frozen=True)
class Throw:
    """A challenged throw as the judge saw it: cards attempted, challenger, cards shown."""

    attempted: str
    challenger: str
    shown: str


def cards_used_up(record: dict, text: str, decks: int) -> str:
    """Cards of ``text`` of which every copy is already played or buried (canonical text, or '')."""
    seen = Counter((record.get("kitty") or "").split())
    for trick in record["tricks"]:
        for _seat, cards in trick["plays"]:
            seen.update(cards.split())
    seen.update(text.split())
    return " ".join(sorted(card for card, n in seen.items() if n > decks and card in text.split()))


def require_a_hand(rs: Ruleset, *entries: str) -> None:
    """No play, throw or cards shown holds more cards than a hand (typed twice over, say): refused in words."""
    for entry in entries:
        if len(parse_card_text(entry, _("cards")).split()) > rs.hand_size:
            raise RecordingError(
                _("A hand holds %(n)s cards: no play or throw can hold more.") % {"n": rs.hand_size}
            )


@dataclass
class PlannedPlay:
    """A play the engine accepted on the deal as read (``plan_play``), waiting to be saved (``save_play``)."""

    snap: Snapshot
    user: Any
    version: int  # the deal's version it was checked against: saved only if the deal is still at it
    seat: str
    cards: str
    throw: dict | None  # a challenged throw, canonical, with the lead
    verdict: Verdict  # the engine's on the deal with the play
    fresh: list  # violations the play brings to light (``Snapshot.proven``)
    ruled_played: list[dict]  # faults of this play the judge said happened (``force``): recorded as played


def plan_play(
    deal: Deal,
    user,
    *,
    cards: str,
    version: int | None,
    seat: str | None = None,
    throw: Throw | None = None,
    force: bool = False,
) -> PlannedPlay:
    """Check one play with the engine on the deal as read, without a lock (``save_play`` saves it if the deal is
    still at that version); refuse it with the reason when it is wrong.

    Entry faults (wrong size, wrong turn, a card used up, a mixed lead) are never saved. A rule fault of this
    play (a revoke, a throw that should have failed) is refused too unless the judge confirms it happened
    (``force``): then it is saved, recorded as played (``settling.mark_played``), and stays in the verdict until
    it is settled. A fault the play proves elsewhere (a void shown in an earlier trick, now broken) does not
    refuse it: the cards were played; the snapshot names it (``proven``) so the page asks the judge at once to
    confirm the entry or undo it. A refusal is checked against the deal as it is now: when someone changed it
    since it was read, the refusal is that (stale), not a fault of a state that is gone.
    """
    require_record(user, deal.match)
    if version is None or deal.version != version:  # the caller's copy is not the version named: read it
        deal = read_deal(deal, version)
    require_open(deal)
    snap = snapshot(deal, start_levels(deal))
    try:
        return judge_play(snap, user, cards=cards, seat=seat, throw=throw, force=force)
    except RecordingError:
        read_deal(deal, deal.version)  # changed since it was read: refused as stale instead
        raise


def judge_play(
    snap: Snapshot, user, *, cards: str, seat: str | None, throw: Throw | None, force: bool
) -> PlannedPlay:
    """The engine's checks of one play on ``snap`` (``plan_play``)."""
    probe = snap.record()
    before = turn_before(snap, probe)
    due = before.due
    if due is None:
        raise RecordingError(_("All tricks are played: submit the deal."))
    if seat and seat != due:
        raise RecordingError(
            _("It is %(due)s's turn, not %(seat)s's.") % {"due": seat_name(due), "seat": seat_name(seat)}
        )
    text = parse_card_text(cards, _("cards"))
    if not text:
        raise RecordingError(_("Enter the cards played."))
    require_a_hand(snap.rs, text, *((throw.attempted, throw.shown) if throw is not None else ()))
    last, last_plays = snap.last
    new_trick = last is None or len(last_plays) == 4
    if throw is not None and not new_trick:
        raise RecordingError(_("Only the lead can be a challenged throw."))
    if throw is not None:
        require_another_player(throw.challenger, due)
    used_up = cards_used_up(probe, text, snap.rs.decks)
    if used_up:
        raise IllegalPlay(
            _("%(cards)s: every copy is already played or in the kitty.") % {"cards": used_up},
            [],
            forceable=False,
        )
    if new_trick:
        probe["tricks"].append({"plays": []})
    probe["tricks"][-1]["plays"].append([due, text])
    thrown = None
    if throw is not None:
        thrown = probe["tricks"][-1]["throw"] = {
            "attempted": parse_card_text(throw.attempted, _("throw attempted")),
            "challenger": throw.challenger,
            "shown": parse_card_text(throw.shown, _("cards shown")),
        }
    verdict = judge_probe(probe, snap.rs)
    index = len(probe["tricks"]) - 1
    known = before.known
    fresh = [v for v in verdict.violations if (v.trick, v.seat, v.code) not in known]
    refused = [
        v.as_dict() for v in fresh if (v.trick == index and v.seat in (due, None)) or v.code in ENTRY_FAULTS
    ]
    if refused:
        entry = any(v["code"] in ENTRY_FAULTS for v in refused)
        if entry or not force:
            raise IllegalPlay(verdict_message(refused), refused, forceable=not entry)
    return PlannedPlay(snap, user, snap.deal.version, due, text, thrown, verdict, fresh, refused)


def save_play(plan: PlannedPlay) -> Snapshot:
    """Save a play ``plan_play`` accepted, inside the caller's transaction: the deal's version is claimed first
    (``versions.claim``: refused as stale, nothing written, when someone changed the deal since it was read),
    then the trick (for a lead) and the play, each with its history row (who and when)."""
    snap, user = plan.snap, plan.user
    deal = snap.deal
    claim(deal, user, plan.version)
    if plan.ruled_played:
        settling.mark_played(deal, user, plan.ruled_played)
    last, last_plays = snap.last
    if last is None or len(last_plays) == 4:  # a throw comes only with a lead, so a new trick is the only one
        trick = Trick(deal=deal, number=0 if last is None else last.number + 1)
        if plan.throw is not None:
            trick.throw_attempted = plan.throw["attempted"]
            trick.throw_challenger = plan.throw["challenger"]
            trick.throw_shown = plan.throw["shown"]
        insert_with_history(trick, user)
        order = 0
    else:
        trick, order = last, len(last_plays)
    play = Play(trick=trick, order=order, seat=plan.seat, cards=plan.cards, recorded_by=user)
    insert_with_history(play, user)
    snap.add(trick, play, plan.verdict)
    snap.proven = tuple(settling.key_of(v) for v in plan.fresh)
    remember_turn(snap)
    return snap


def require_another_player(challenger: str, thrower: str) -> None:
    """Any other player may challenge a throw, the thrower's partner too (RULES §5: "no other player (partner
    included)" may hold a beating unit); only the thrower cannot."""
    if challenger == thrower:
        raise RecordingError(_("The thrower cannot challenge their own throw: choose another player."))


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


def undo_last_play(deal: Deal, user, *, version: int | None) -> None:
    undo(deal, user, version=version)


def undo_last_trick(deal: Deal, user, *, version: int | None) -> None:
    undo(deal, user, version=version, whole_trick=True)


# ---------------------------------------------------------------- penalties


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


# ---------------------------------------------------------------- submit, confirm, reopen


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
