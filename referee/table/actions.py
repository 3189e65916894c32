"""The judges' actions as the pages post them: one function per action (one view and one named URL each), which
answers with the outcome, the new screen state and the page to go on to.

The views pass the posted fields through unchanged; here they become the recording service's arguments, and
the answer carries the outcome (ok, or the refusal with its HTTP status), the deal's screen after the write and
where a form's post goes next (``DealAnswer.onward``: each action's own rule). Each action takes the deal (or
match), the user, the posted fields and the write's key.

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
from django.urls import reverse
from django.utils.translation import gettext as _

from referee.table.forms import PenaltyForm
from referee.table.recording import boards, deal_entry, quick, receipts, settling, winner_check
from referee.table.recording.deal_entry import confirm_deal, set_kitty, submit_deal
from referee.table.recording.given_back import give_back
from referee.table.recording.pin_confirm import checked_pairs, confirm_by_pin, posted_pins
from referee.table.recording.play import record as recorded
from referee.table.recording.receipts import Outcome, Receipt, attempt
from referee.table.recording.words import (
    posted_cards,
    posted_id,
    posted_seat,
    posted_text,
    posted_trick,
    posted_version,
)
from referee.table.screens.deal_state import current_deal_state, deal_state
from referee.table.screens.labels import done_sentence
from tournaments.competition import access
from tournaments.models import Deal, Match, Penalty, Ruling
from tournaments.scoring import corrections, fold
from tournaments.scoring.corrections import add_penalty, reopen_deal
from tournaments.scoring.errors import RecordingError
from tournaments.scoring.rulesets import ruleset_for
from tournaments.scoring.snapshot import Snapshot


def request_key(request: HttpRequest) -> str:
    """The key the page gave this write: a form's hidden field, or the script's header."""
    return request.POST.get(receipts.KEY_FIELD) or request.headers.get(receipts.KEY_HEADER, "")


@dataclass(frozen=True)
class Onward:
    """Where a form's post goes on to: the page (None: the form again, the refusal on it) and whether the page
    says the outcome (a message)."""

    url: str | None
    tell: bool = True


@dataclass
class DealAnswer:
    """What one action on a deal did: its outcome, the deal's screen state read afresh (when asked), and the page a
    form's post goes on to (``onward``: the action's own rule, given the page's posted ``next``)."""

    deal: Deal
    user: Any
    outcome: Outcome = field(default_factory=Outcome)
    action: str = "play"  # its words once done (``done_sentence``) and its receipts' name
    rule: Rule | None = None

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

    @property
    def message(self) -> str:
        """What the page says of it: the action's words once done, else the refusal."""
        return done_sentence(self.action) if self.ok else self.outcome.message

    @cached_property
    def state(self) -> dict:
        if self.outcome.ok and self.saved is not None:
            return deal_state(self.saved.deal, self.user, self.saved)
        return current_deal_state(self.deal, self.user)

    def payload(self) -> dict:
        """The JSON the trick-entry page gets: ok, or the refusal with its details; the new state either way."""
        return {**self.outcome.body, "state": self.state}

    def onward(self, target: str) -> Onward:
        """The page a form's post goes on to, by the action's rule (else the page it came from, ``back``)."""
        return (self.rule or back)(self, target)


Rule = Callable[[DealAnswer, str], Onward]


def back(answer: DealAnswer, target: str) -> Onward:
    """The page the form was on: the match, the review or the deal's page, as the form's ``next`` says."""
    if target == "match":
        return Onward(reverse("match", args=[answer.deal.match_id]))
    return Onward(reverse("review" if target == "review" else "deal", args=[answer.deal.pk]))


def to_match(answer: DealAnswer, target: str) -> Onward:
    return Onward(reverse("match", args=[answer.deal.match_id]))


def after_submit(answer: DealAnswer, target: str) -> Onward:
    """Submitted at the table: the PINs next, on the review; submitted elsewhere: the match."""
    if not answer.ok:
        return back(answer, target)
    answer.deal.refresh_from_db()
    if access.can_confirm_by_pin(answer.user, answer.deal):
        return Onward(reverse("review", args=[answer.deal.pk]) + "#pin", tell=False)
    return to_match(answer, target)


def after_confirm(answer: DealAnswer, target: str) -> Onward:
    """The director confirming from the queue works through it; anyone else goes back to the match."""
    tournament = answer.deal.match.round.tournament
    if target == "queue" and access.scores(answer.user, tournament):
        return Onward(reverse("desk-queue", kwargs={"slug": tournament.slug}))
    return to_match(answer, target)


def after_reopen(answer: DealAnswer, target: str) -> Onward:
    """Reopened from the review: the change comes next, there; from elsewhere: the match."""
    if answer.ok and target != "review":
        return to_match(answer, target)
    return back(answer, target)


def after_pins(answer: DealAnswer, target: str) -> Onward:
    """Confirmed with the PINs: the match; refused: the PIN form again, the sentence on it."""
    return to_match(answer, target) if answer.ok else Onward(None, tell=False)


def play(deal: Deal, user, fields: Mapping[str, str], key: str = "") -> DealAnswer:
    """A play (``recording.play.record``: check, claim, store, the turn cache), under its own receipt."""
    return DealAnswer(deal, user, recorded(deal, user, fields, key))


def written(
    deal: Deal, user, key: str, action: str, write: Callable[[], object], rule: Rule | None = None
) -> DealAnswer:
    """Run ``write`` once per ``key`` (the receipt of ``deal <id> <action>``); a refusal is the outcome."""
    return DealAnswer(deal, user, receipts.once(user, key, f"deal {deal.pk} {action}", write), action, rule)


def undo(deal: Deal, user, fields: Mapping[str, str], key: str = "") -> DealAnswer:
    """Take back the last play."""
    return written(
        deal, user, key, "undo", lambda: deal_entry.undo(deal, user, version=posted_version(fields))
    )


def undo_trick(deal: Deal, user, fields: Mapping[str, str], key: str = "") -> DealAnswer:
    """Take back the last trick's plays."""

    def write() -> None:
        deal_entry.undo(deal, user, version=posted_version(fields), whole_trick=True)

    return written(deal, user, key, "undo_trick", write)


def kitty(deal: Deal, user, fields: Mapping[str, str], key: str = "") -> DealAnswer:
    def write() -> Deal:
        return set_kitty(
            deal, user, posted_cards(fields, "kitty", _("kitty")), version=posted_version(fields)
        )

    return written(deal, user, key, "kitty", write)


def penalty(deal: Deal, user, fields: Mapping[str, str], key: str = "") -> DealAnswer:
    def write() -> Penalty:
        form = PenaltyForm(fields)
        if not form.is_valid():
            raise RecordingError("; ".join(str(e) for errors in form.errors.values() for e in errors))
        called = form.penalty()
        tricks = ruleset_for(deal.match).hand_size
        if called.get("trick") is not None and called["trick"] >= tricks:
            raise RecordingError(_("A deal has %(n)s tricks: name one of them.") % {"n": tricks})
        return add_penalty(deal, user, version=posted_version(fields), **called)

    return written(deal, user, key, "penalty", write)


def remove_penalty(deal: Deal, user, fields: Mapping[str, str], key: str = "") -> DealAnswer:
    def write() -> None:
        corrections.remove_penalty(
            deal, user, penalty_id=posted_id(fields, "penalty"), version=posted_version(fields)
        )

    return written(deal, user, key, "remove_penalty", write)


def played(deal: Deal, user, fields: Mapping[str, str], key: str = "") -> DealAnswer:
    """A fault the judge says happened as recorded: kept as played."""
    return written(
        deal, user, key, "played", lambda: settling.confirm_played(deal, user, settling.posted_key(fields))
    )


def apply(deal: Deal, user, fields: Mapping[str, str], key: str = "") -> DealAnswer:
    """A fault's penalty applied."""
    return written(
        deal, user, key, "apply", lambda: settling.apply_penalty(deal, user, settling.posted_key(fields))
    )


def dismiss(deal: Deal, user, fields: Mapping[str, str], key: str = "") -> DealAnswer:
    def write() -> Ruling:
        note = posted_text(fields, "note", _("note"), settling.NOTE_LENGTH)
        return settling.dismiss(deal, user, settling.posted_key(fields), note)

    return written(deal, user, key, "dismiss", write)


def undismiss(deal: Deal, user, fields: Mapping[str, str], key: str = "") -> DealAnswer:
    return written(
        deal,
        user,
        key,
        "undismiss",
        lambda: settling.withdraw_dismissal(deal, user, settling.posted_key(fields)),
    )


def out_of_turn(deal: Deal, user, fields: Mapping[str, str], key: str = "") -> DealAnswer:
    def write() -> Penalty:
        return settling.record_out_of_turn(
            deal,
            user,
            seat=posted_seat(fields, "seat"),
            cards=posted_cards(fields, "cards", _("cards")),
            version=posted_version(fields),
        )

    return written(deal, user, key, "out_of_turn", write)


def winner(deal: Deal, user, fields: Mapping[str, str], key: str = "") -> DealAnswer:
    """The winner the judge tapped offline, checked against the engine's (``winner_check``): writes nothing."""

    def check() -> Outcome:
        seat = posted_seat(fields, "seat")
        if seat is None:
            raise RecordingError(_("Choose the seat that won the trick."))
        return winner_check.check_winner(deal, user, trick=posted_trick(fields), seat=seat)

    return written(deal, user, key, "winner", check)


def given_back(deal: Deal, user, fields: Mapping[str, str], key: str = "") -> DealAnswer:
    """A phone gave the deal back to a restored desk (docs/journal-protocol.md)."""
    return written(
        deal, user, key, "given_back", lambda: give_back(deal, user, fields, posted_version(fields))
    )


def submit(deal: Deal, user, fields: Mapping[str, str], key: str = "") -> DealAnswer:
    """The deal submitted for confirmation: at the table, the PINs come next (``after_submit``)."""
    return written(
        deal,
        user,
        key,
        "submit",
        lambda: submit_deal(deal, user, version=posted_version(fields)),
        after_submit,
    )


def confirm(deal: Deal, user, fields: Mapping[str, str], key: str = "") -> DealAnswer:
    """The deal confirmed by another person (a judge, the director)."""
    return written(
        deal,
        user,
        key,
        "confirm",
        lambda: confirm_deal(deal, user, version=posted_version(fields)),
        after_confirm,
    )


def reopen(deal: Deal, user, fields: Mapping[str, str], key: str = "") -> DealAnswer:
    def write() -> Deal:
        reason = posted_text(fields, "reason", _("reason"))
        return reopen_deal(deal, user, version=posted_version(fields), reason=reason)

    return written(deal, user, key, "reopen", write, after_reopen)


def pin_confirm(deal: Deal, user, fields: Mapping[str, str], key: str = "") -> DealAnswer:
    """Both pairs' PINs confirm the deal (``pin_confirmed``); refused, the PIN form comes again."""
    receipt = Receipt.open(user, key, f"deal {deal.pk} pin_confirm")
    return DealAnswer(deal, user, pin_confirmed(deal, user, fields, receipt), "pin_confirm", after_pins)


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


@dataclass
class MatchAnswer:
    """What one action on a match did, and the page a form's post goes on to: the page that sent it (a path of
    this site: the desk's withdraw page sends one), else the match."""

    match: Match
    outcome: Outcome
    action: str

    @property
    def message(self) -> str:
        """What the page says of it: a forfeit names the pair that wins by it; a refusal, its reason."""
        if not self.outcome.ok:
            return self.outcome.message
        if self.action == "forfeit":
            self.match.refresh_from_db(fields=["winner"])
            if self.match.winner is not None:
                return _("Forfeit recorded: %(pair)s wins the match.") % {"pair": self.match.winner.name}
        return done_sentence(self.action)

    def onward(self, sent_from: str) -> str:
        """The page to go on to: ``sent_from`` (a path of this site, or ""), else the match."""
        return sent_from or reverse("match", args=[self.match.pk])


def call_time(match: Match, user, fields: Mapping[str, str], key: str = "") -> MatchAnswer:
    """Call time after the limit (the judge or the TD), once per ``key``."""
    outcome = receipts.once(user, key, f"match {match.pk} call-time", lambda: fold.call_time(match, user))
    return MatchAnswer(match, outcome, "call-time")


def forfeit(match: Match, user, fields: Mapping[str, str], key: str = "") -> MatchAnswer:
    """Record a forfeit (the TD), once per ``key``."""

    def write() -> object:
        return fold.forfeit_match(match, user, side=fields.get("side", ""))

    return MatchAnswer(match, receipts.once(user, key, f"match {match.pk} forfeit", write), "forfeit")


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
