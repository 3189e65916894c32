"""The judges' actions as the pages post them (a play apart: ``referee.table.play``): one call per action, which
answers with the new screen state.

The views pass the posted fields through unchanged; here they become the recording service's arguments, and
the answer carries the outcome (ok, or the refusal with its HTTP status) and the deal's screen after the write.
Each action takes the deal (or match), the user and the posted fields, and returns what it wrote.

Every write runs under the receipt of the key the page sent with it (``receipts.once``, or ``receipts.Receipt``
held around a PIN's check and write), so a retry of a write (the reply was lost, the judge tapped twice) gets the
first outcome back and nothing is recorded twice.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from django.db import IntegrityError, transaction
from django.http import HttpRequest
from django.utils.translation import gettext as _

from referee.table.forms import PenaltyForm
from referee.table.posted import posted_cards, posted_id, posted_seat, posted_text, posted_trick
from referee.table.recording import boards, deal_entry, given_back, quick, receipts, settling, winner_check
from referee.table.recording.deal_entry import confirm_deal, set_kitty, submit_deal
from referee.table.recording.pin_confirm import checked_pairs, confirm_by_pin, posted_pins
from referee.table.recording.receipts import Outcome, Receipt, attempt
from referee.table.screens.deal_state import current_deal_state, deal_state
from tournaments.models import Deal, Match, Penalty, Ruling
from tournaments.scoring.corrections import add_penalty, remove_penalty, reopen_deal
from tournaments.scoring.errors import RecordingError
from tournaments.scoring.fold import call_time, forfeit_match
from tournaments.scoring.rulesets import ruleset_for
from tournaments.scoring.snapshot import Snapshot


def request_key(request: HttpRequest) -> str:
    """The key the page gave this write: a form's hidden field, or the script's header."""
    return request.POST.get(receipts.KEY_FIELD) or request.headers.get(receipts.KEY_HEADER, "")


@dataclass
class DealAnswer:
    """What one action on a deal did: its outcome, and the deal's screen state read afresh (when asked)."""

    deal: Deal
    user: Any
    outcome: Outcome = field(default_factory=Outcome)

    @property
    def saved(self) -> Snapshot | None:
        """The deal as the write read and saved it, when the write gives it (a play, this time: not a replay)."""
        return self.outcome.result if isinstance(self.outcome.result, Snapshot) else None

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
        return int(raw or "")
    except (TypeError, ValueError):
        raise RecordingError(_("The page sent no version of the deal: reload it and try again.")) from None


def undo(deal: Deal, user, fields: Mapping[str, str]) -> None:
    deal_entry.undo(deal, user, version=posted_version(fields))


def undo_trick(deal: Deal, user, fields: Mapping[str, str]) -> None:
    deal_entry.undo(deal, user, version=posted_version(fields), whole_trick=True)


def kitty(deal: Deal, user, fields: Mapping[str, str]) -> Deal:
    return set_kitty(deal, user, posted_cards(fields, "kitty", _("kitty")), version=posted_version(fields))


def penalty(deal: Deal, user, fields: Mapping[str, str]) -> Penalty:
    form = PenaltyForm(fields)
    if not form.is_valid():
        raise RecordingError("; ".join(str(e) for errors in form.errors.values() for e in errors))
    called = form.penalty()
    tricks = ruleset_for(deal.match).hand_size
    if called.get("trick") is not None and called["trick"] >= tricks:
        raise RecordingError(_("A deal has %(n)s tricks: name one of them.") % {"n": tricks})
    return add_penalty(deal, user, version=posted_version(fields), **called)


def unpenalty(deal: Deal, user, fields: Mapping[str, str]) -> None:
    remove_penalty(deal, user, penalty_id=posted_id(fields, "penalty"), version=posted_version(fields))


def played(deal: Deal, user, fields: Mapping[str, str]) -> Ruling:
    return settling.confirm_played(deal, user, settling.posted_key(fields))


def apply(deal: Deal, user, fields: Mapping[str, str]) -> Penalty:
    return settling.apply_penalty(deal, user, settling.posted_key(fields))


def dismiss(deal: Deal, user, fields: Mapping[str, str]) -> Ruling:
    note = posted_text(fields, "note", _("note"), settling.NOTE_LENGTH)
    return settling.dismiss(deal, user, settling.posted_key(fields), note)


def undismiss(deal: Deal, user, fields: Mapping[str, str]) -> None:
    settling.withdraw_dismissal(deal, user, settling.posted_key(fields))


def out_of_turn(deal: Deal, user, fields: Mapping[str, str]) -> Penalty:
    return settling.record_out_of_turn(
        deal,
        user,
        seat=posted_seat(fields, "seat"),
        cards=posted_cards(fields, "cards", _("cards")),
        version=posted_version(fields),
    )


def winner(deal: Deal, user, fields: Mapping[str, str]) -> Outcome:
    """The winner the judge tapped offline, checked against the engine's (``winner_check``): writes nothing."""
    seat = posted_seat(fields, "seat")
    if seat is None:
        raise RecordingError(_("Choose the seat that won the trick."))
    return winner_check.check_winner(deal, user, trick=posted_trick(fields), seat=seat)


def give_back(deal: Deal, user, fields: Mapping[str, str]) -> None:
    """A phone gave the deal back to a restored desk (docs/journal-protocol.md)."""
    given_back.give_back(deal, user, fields, posted_version(fields))


def submit(deal: Deal, user, fields: Mapping[str, str]) -> Deal:
    return submit_deal(deal, user, version=posted_version(fields))


def confirm(deal: Deal, user, fields: Mapping[str, str]) -> Deal:
    return confirm_deal(deal, user, version=posted_version(fields))


def reopen(deal: Deal, user, fields: Mapping[str, str]) -> Deal:
    return reopen_deal(
        deal, user, version=posted_version(fields), reason=posted_text(fields, "reason", _("reason"))
    )


# Writes run whole inside the write's transaction. A play is not among them: its check runs before the
# transaction (reads and the engine only), so the write lock is held for its writes alone (``play.play``).
DEAL_WRITES: dict[str, Callable[[Deal, Any, Mapping[str, str]], object]] = {
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
    "winner": winner,
    "submit": submit,
    "given_back": give_back,
    "confirm": confirm,
    "reopen": reopen,
}
# The actions a deal's address takes: a play is posted to its own view (``views.deal_play``, ``play.play``).
DEAL_ACTIONS = frozenset({"play", "pin_confirm", *DEAL_WRITES})


def act_on_deal(deal: Deal, user, action: str, fields: Mapping[str, str], key: str = "") -> DealAnswer:
    """Run one of ``DEAL_ACTIONS`` but a play with the posted fields, once per ``key``; a refusal is the outcome."""
    target = f"deal {deal.pk} {action}"
    if action == "pin_confirm":
        return DealAnswer(deal, user, pin_confirmed(deal, user, fields, Receipt.open(user, key, target)))
    return DealAnswer(
        deal, user, receipts.once(user, key, target, lambda: DEAL_WRITES[action](deal, user, fields))
    )


def pin_confirmed(deal: Deal, user, fields: Mapping[str, str], receipt: Receipt) -> Outcome:
    """Both pairs' PINs confirm the deal (no pair confirms its own result alone): the PINs' slow hashes are
    checked before the write's transaction, so the write lock is not held for them."""
    if receipt.answer is not None:
        return receipt.answer
    pairs = attempt(lambda: checked_pairs(deal, user, posted_pins(fields)))
    try:
        with transaction.atomic():
            outcome = pairs
            if pairs.ok:
                outcome = attempt(
                    lambda: confirm_by_pin(deal, user, pairs.result[-1], version=posted_version(fields))
                )
            receipt.keep(outcome)
    except IntegrityError:  # a twin of this request committed first: its answer stands
        if (twin := receipt.twin()) is None:
            raise
        return twin
    return receipt.kept(outcome)


MATCH_ACTIONS: dict[str, Callable[[Match, Any, Mapping[str, str]], object]] = {
    "call-time": lambda match, user, fields: call_time(match, user),
    "forfeit": lambda match, user, fields: forfeit_match(match, user, side=fields.get("side", "")),
}


def act_on_match(match: Match, user, action: str, fields: Mapping[str, str], key: str = "") -> Outcome:
    """Call time after the limit (the judge or the TD), or record a forfeit (the TD), once per ``key``."""
    target = f"match {match.pk} {action}"
    return receipts.once(user, key, target, lambda: MATCH_ACTIONS[action](match, user, fields))


def started(deal: Deal) -> Outcome:
    """The outcome of a write that made a deal: the page goes on to it (or to its match)."""
    return Outcome(body={"ok": True, "deal": deal.pk, "number": deal.number})


def start_deal(match: Match, user, fields: Mapping[str, Any], key: str = "") -> Outcome:
    """A new deal from the new-deal form (``NewDealForm.deal``), once per ``key``."""
    return receipts.once(
        user, key, f"match {match.pk} new deal", lambda: started(deal_entry.start_deal(match, user, **fields))
    )


def start_board(match: Match, user, fields: Mapping[str, Any], key: str = "") -> Outcome:
    """A duplicate table's current board begun from the board page (``boards.start_board``), once per ``key``."""
    return receipts.once(
        user, key, f"match {match.pk} board", lambda: started(boards.start_board(match, user, **fields))
    )


def quick_entry(match: Match, user, fields: Mapping[str, Any], key: str = "") -> Outcome:
    """A deal entered as totals (``QuickEntryForm.deal``), once per ``key``."""
    return receipts.once(
        user, key, f"match {match.pk} quick entry", lambda: started(quick.quick_entry(match, user, **fields))
    )
