"""The judges' actions as the pages post them: one call per action, which answers with the new screen state.

The views pass the posted fields through unchanged; here they become the recording service's arguments, and the
answer carries the refusal (with its HTTP status) and the deal's screen after the write. A play's screen is drawn
from the play's own read of the deal (``record_play`` returns it), so a play reads the deal once.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from django.utils.translation import gettext as _

from referee.forms import PenaltyForm
from referee.posted import posted_cards, posted_id, posted_seat, posted_text
from referee.recording.deal_entry import (
    Throw,
    add_penalty,
    confirm_deal,
    record_play,
    remove_penalty,
    reopen_deal,
    set_kitty,
    submit_deal,
    undo_last_play,
    undo_last_trick,
)
from referee.recording.errors import RecordingError
from referee.recording.match_fold import call_time, forfeit_match
from referee.recording.snapshot import Snapshot, ruleset_for
from referee.screens import deal_state
from tournaments.models import Deal, Match


@dataclass
class DealAnswer:
    """What one action on a deal did: the refusal, if any, and the deal's new screen state (read when asked)."""

    deal: Deal
    user: Any
    error: RecordingError | None = None
    saved: Snapshot | None = None  # the deal as the write read and saved it, when the write gives it (a play)

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def status(self) -> int:
        return self.error.status if self.error else 200

    @cached_property
    def state(self) -> dict:
        if self.error is None and self.saved is not None:
            return deal_state(self.saved.deal, self.user, self.saved)
        match = self.deal.match
        self.deal.refresh_from_db()
        self.deal.match = match  # already loaded with its pairs and players
        return deal_state(self.deal, self.user)

    def payload(self) -> dict:
        """The JSON the trick-entry page gets: ok, or the refusal with its details; the new state either way."""
        if self.error is None:
            body: dict[str, Any] = {"ok": True}
        else:
            body = {"ok": False, "error": self.error.code, "message": self.error.message, **self.error.details}
        body["state"] = self.state
        return body


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


def play(answer: DealAnswer, version: int, fields: Mapping[str, str]) -> None:
    throw = posted_throw(fields)
    answer.saved = record_play(
        answer.deal,
        answer.user,
        cards=posted_cards(fields, "cards", _("cards")),
        seat=posted_seat(fields, "seat"),
        version=version,
        throw=throw,
        force=fields.get("force") == "1",
    )


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
    "submit": submit,
    "confirm": confirm,
    "reopen": reopen,
}


def act_on_deal(deal: Deal, user, action: str, fields: Mapping[str, str]) -> DealAnswer:
    """Run one of ``DEAL_ACTIONS`` with the posted fields; a refusal is kept in the answer, not raised."""
    answer = DealAnswer(deal, user)
    try:
        DEAL_ACTIONS[action](answer, posted_version(fields), fields)
    except RecordingError as exc:
        answer.error = exc
    return answer


MATCH_ACTIONS: dict[str, Callable[[Match, Any, Mapping[str, str]], object]] = {
    "call-time": lambda match, user, fields: call_time(match, user),
    "forfeit": lambda match, user, fields: forfeit_match(match, user, side=fields.get("side", "")),
}


def act_on_match(match: Match, user, action: str, fields: Mapping[str, str]) -> None:
    """Call time after the limit (the judge or the TD), or record a forfeit (the TD); refusals are raised."""
    MATCH_ACTIONS[action](match, user, fields)
