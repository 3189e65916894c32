"""The judges' actions as the pages post them: one call per action, which answers with the new screen state.

The views pass the posted fields through unchanged; here they become the recording service's arguments, and
the answer carries the outcome (ok, or the refusal with its HTTP status) and the deal's screen after the write.
A play's screen is drawn from the play's own read of the deal (``record_play`` returns it), so a play reads the
deal once.

Every write runs through ``receipts.once`` under the key the page sent with it, so a retry of a write (the
reply was lost, the judge tapped twice) gets the first outcome back and nothing is recorded twice.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from django.http import HttpRequest
from django.utils.translation import gettext as _

from referee.table.forms import PenaltyForm
from referee.table.posted import posted_cards, posted_id, posted_seat, posted_text
from referee.table.recording import deal_entry, quick, receipts, settling
from referee.table.recording.deal_entry import (
    PlannedPlay,
    Throw,
    add_penalty,
    confirm_deal,
    plan_play,
    remove_penalty,
    reopen_deal,
    save_play,
    set_kitty,
    submit_deal,
    undo_last_play,
    undo_last_trick,
)
from referee.table.recording.errors import RecordingError
from referee.table.recording.match_fold import call_time, forfeit_match
from referee.table.recording.receipts import Outcome
from referee.table.recording.snapshot import Snapshot, ruleset_for
from referee.table.screens import current_deal_state, deal_state
from tournaments.models import Deal, Match


def request_key(request: HttpRequest) -> str:
    """The key the page gave this write: a form's hidden field, or the script's header."""
    return request.POST.get(receipts.KEY_FIELD) or request.headers.get(receipts.KEY_HEADER, "")


def refusing(call: Callable[[], Any]) -> Callable[[], Outcome | None]:
    """``call`` answering with its refusal as an outcome (None when it refuses nothing and returns nothing)."""

    def attempt() -> Outcome | None:
        try:
            return call()
        except RecordingError as exc:
            return Outcome.refused(exc)

    return attempt


def settle(
    user, key: str, target: str, write: Callable[[], Any], check: Callable[[], None] | None = None
) -> Outcome:
    """Run ``write`` once per key (``receipts.once``), after ``check`` (outside the transaction) when given; a
    refusal (the service's, the key's) is the outcome."""
    attempt = refusing(write)
    try:
        return receipts.once(
            user, key, target, lambda: attempt() or Outcome(), refusing(check) if check is not None else None
        )
    except RecordingError as exc:
        return Outcome.refused(exc)


@dataclass
class DealAnswer:
    """What one action on a deal did: its outcome, and the deal's screen state read afresh (when asked)."""

    deal: Deal
    user: Any
    outcome: Outcome = field(default_factory=Outcome)
    saved: Snapshot | None = None  # the deal as the write read and saved it, when the write gives it (a play)
    planned: PlannedPlay | None = None  # a play its check accepted, for the write to save

    @property
    def ok(self) -> bool:
        return self.outcome.ok

    @property
    def status(self) -> int:
        return self.outcome.status

    @cached_property
    def state(self) -> dict:
        if self.outcome.ok and self.saved is not None:
            return deal_state(self.saved.deal, self.user, self.saved)
        return current_deal_state(self.deal, self.user)

    def payload(self) -> dict:
        """The JSON the trick-entry page gets: ok, or the refusal with its details; the new state either way."""
        return {**self.outcome.body, "state": self.state}


def posted_version(fields: Mapping[str, str]) -> int:
    """The deal version the page shows; every page sends it, so a stale page can never overwrite."""
    raw = fields.get("version")
    try:
        return int(raw)
    except (TypeError, ValueError):
        raise RecordingError(_("The page sent no version of the deal: reload it and try again.")) from None


def posted_throw(fields: Mapping[str, str]) -> Throw | None:
    """A challenged throw as posted with a lead (the challenger named), or None."""
    attempted = posted_cards(fields, "throw_attempted", _("throw attempted"))
    if not attempted.strip():
        return None
    challenger = posted_seat(fields, "throw_challenger")
    if challenger is None:
        raise RecordingError(_("Choose who challenged the throw."))
    return Throw(attempted, challenger, posted_cards(fields, "throw_shown", _("cards shown")))


def check_play(answer: DealAnswer, version: int, fields: Mapping[str, str]) -> None:
    """A play's engine check, outside the write's transaction (``deal_entry.plan_play``)."""
    throw = posted_throw(fields)
    answer.planned = plan_play(
        answer.deal,
        answer.user,
        cards=posted_cards(fields, "cards", _("cards")),
        seat=posted_seat(fields, "seat"),
        version=version,
        throw=throw,
        force=fields.get("force") == "1",
    )


def play(answer: DealAnswer, version: int, fields: Mapping[str, str]) -> None:
    answer.saved = save_play(answer.planned)


def undo(answer: DealAnswer, version: int, fields: Mapping[str, str]) -> None:
    undo_last_play(answer.deal, answer.user, version=version)


def undo_trick(answer: DealAnswer, version: int, fields: Mapping[str, str]) -> None:
    undo_last_trick(answer.deal, answer.user, version=version)


def kitty(answer: DealAnswer, version: int, fields: Mapping[str, str]) -> None:
    set_kitty(answer.deal, answer.user, posted_cards(fields, "kitty", _("kitty")), version=version)


def penalty(answer: DealAnswer, version: int, fields: Mapping[str, str]) -> None:
    form = PenaltyForm(fields)
    if not form.is_valid():
        raise RecordingError("; ".join(e for errors in form.errors.values() for e in errors))
    called = form.penalty()
    tricks = ruleset_for(answer.deal.match).hand_size
    if called.get("trick") is not None and called["trick"] >= tricks:
        raise RecordingError(_("A deal has %(n)s tricks: name one of them.") % {"n": tricks})
    add_penalty(answer.deal, answer.user, version=version, **called)


def unpenalty(answer: DealAnswer, version: int, fields: Mapping[str, str]) -> None:
    remove_penalty(answer.deal, answer.user, penalty_id=posted_id(fields, "penalty"), version=version)


def played(answer: DealAnswer, version: int, fields: Mapping[str, str]) -> None:
    settling.confirm_played(answer.deal, answer.user, settling.posted_key(fields))


def apply(answer: DealAnswer, version: int, fields: Mapping[str, str]) -> None:
    settling.apply_penalty(answer.deal, answer.user, settling.posted_key(fields))


def dismiss(answer: DealAnswer, version: int, fields: Mapping[str, str]) -> None:
    note = posted_text(fields, "note", _("note"), settling.NOTE_LENGTH)
    settling.dismiss(answer.deal, answer.user, settling.posted_key(fields), note)


def undismiss(answer: DealAnswer, version: int, fields: Mapping[str, str]) -> None:
    settling.withdraw_dismissal(answer.deal, answer.user, settling.posted_key(fields))


def out_of_turn(answer: DealAnswer, version: int, fields: Mapping[str, str]) -> None:
    settling.record_out_of_turn(
        answer.deal,
        answer.user,
        seat=posted_seat(fields, "seat"),
        cards=posted_cards(fields, "cards", _("cards")),
        version=version,
    )


def submit(answer: DealAnswer, version: int, fields: Mapping[str, str]) -> None:
    submit_deal(answer.deal, answer.user, version=version)


def confirm(answer: DealAnswer, version: int, fields: Mapping[str, str]) -> None:
    confirm_deal(answer.deal, answer.user, version=version)


def reopen(answer: DealAnswer, version: int, fields: Mapping[str, str]) -> None:
    reopen_deal(answer.deal, answer.user, version=version, reason=posted_text(fields, "reason", _("reason")))


DEAL_ACTIONS: dict[str, Callable[[DealAnswer, int, Mapping[str, str]], None]] = {
    "play": play,
    "undo": undo,
    "undo_trick": undo_trick,
    "kitty": kitty,
    "penalty": penalty,
    "remove_penalty": unpenalty,
    "played": played,
    "apply": apply,
    "dismiss": dismiss,
    "undismiss": undismiss,
    "out_of_turn": out_of_turn,
    "submit": submit,
    "confirm": confirm,
    "reopen": reopen,
}


# Actions whose checks run before the write's transaction (reads and the engine only): the write lock is then
# held for the writes alone. The write saves what the check accepted, if the deal is still at that version.
DEAL_CHECKS: dict[str, Callable[[DealAnswer, int, Mapping[str, str]], None]] = {"play": check_play}


def act_on_deal(deal: Deal, user, action: str, fields: Mapping[str, str], key: str = "") -> DealAnswer:
    """Run one of ``DEAL_ACTIONS`` with the posted fields, once per ``key``; a refusal is the outcome."""
    answer = DealAnswer(deal, user)

    def write() -> None:
        DEAL_ACTIONS[action](answer, posted_version(fields), fields)

    def check() -> None:
        DEAL_CHECKS[action](answer, posted_version(fields), fields)

    answer.outcome = settle(
        user, key, f"deal {deal.pk} {action}", write, check if action in DEAL_CHECKS else None
    )
    return answer


MATCH_ACTIONS: dict[str, Callable[[Match, Any, Mapping[str, str]], object]] = {
    "call-time": lambda match, user, fields: call_time(match, user),
    "forfeit": lambda match, user, fields: forfeit_match(match, user, side=fields.get("side", "")),
}


def act_on_match(match: Match, user, action: str, fields: Mapping[str, str], key: str = "") -> Outcome:
    """Call time after the limit (the judge or the TD), or record a forfeit (the TD), once per ``key``."""

    def write() -> None:
        MATCH_ACTIONS[action](match, user, fields)

    return settle(user, key, f"match {match.pk} {action}", write)


def started(deal: Deal) -> Outcome:
    """The outcome of a write that made a deal: the page goes on to it (or to its match)."""
    return Outcome(body={"ok": True, "deal": deal.pk, "number": deal.number})


def start_deal(match: Match, user, fields: Mapping[str, Any], key: str = "") -> Outcome:
    """A new deal from the new-deal form (``NewDealForm.deal``), once per ``key``."""
    return settle(
        user, key, f"match {match.pk} new deal", lambda: started(deal_entry.start_deal(match, user, **fields))
    )


def quick_entry(match: Match, user, fields: Mapping[str, Any], key: str = "") -> Outcome:
    """A deal entered as totals (``QuickEntryForm.deal``), once per ``key``."""
    return settle(
        user, key, f"match {match.pk} quick entry", lambda: started(quick.quick_entry(match, user, **fields))
    )
