"""The play service: a judge's posted play, from the form's fields to the answer with the new screen state — the
one call of the play view.

The write's receipt wraps the whole action (``receipts.Receipt``): a key already answered gets that answer back
before anything else runs; the engine's check runs outside the write's transaction (``plays.check``, on the
deal as the last play left it), so the write lock is held for the writes alone (``plays.save``: the version
claim, the trick and the play); the outcome is kept with the key in that same transaction; and the screen is
drawn from the play's own read of the deal, so a play reads the deal once.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from referee.table.actions import DealAnswer, posted_version
from referee.table.posted import posted_cards, posted_seat
from referee.table.recording import plays
from referee.table.recording.receipts import Outcome, Receipt
from tournaments.models import Deal
from tournaments.scoring.errors import RecordingError


def play(deal: Deal, user, fields: Mapping[str, str], key: str = "") -> DealAnswer:
    """Check and save the posted play once per ``key``; a refusal (the engine's, a stale version, a bad field)
    is the outcome, kept with the key like a success."""
    receipt = Receipt.open(user, key, f"deal {deal.pk} play")
    if receipt.answer is not None:
        return DealAnswer(deal, user, receipt.answer)
    checked: plays.CheckedPlay | None = None
    try:
        checked = plays.check(deal, user, **posted_play(fields))
    except RecordingError as exc:
        outcome = Outcome.refused(exc)
    try:
        with transaction.atomic():
            if checked is not None:
                try:
                    outcome = Outcome(result=plays.save(checked))
                except RecordingError as exc:  # the deal changed since the check: nothing was written
                    outcome = Outcome.refused(exc)
            receipt.keep(outcome)
    except IntegrityError:  # a twin of this request (same key) committed first: its answer stands
        if (twin := receipt.twin()) is None:
            raise
        return DealAnswer(deal, user, twin)
    return DealAnswer(deal, user, receipt.kept(outcome))


def posted_play(fields: Mapping[str, str]) -> dict[str, Any]:
    """The play's posted fields as ``plays.check`` takes them: the cards, the seat, the deal's version the page
    shows, a lead's challenged throw and whether the judge confirmed a fault happened (``force``)."""
    return {
        "cards": posted_cards(fields, "cards", _("cards")),
        "seat": posted_seat(fields, "seat"),
        "version": posted_version(fields),
        "throw": posted_throw(fields),
        "force": fields.get("force") == "1",
    }


def posted_throw(fields: Mapping[str, str]) -> plays.Throw | None:
    """A challenged throw as posted with a lead (the challenger named), or None."""
    attempted = posted_cards(fields, "throw_attempted", _("throw attempted"))
    if not attempted.strip():
        return None
    challenger = posted_seat(fields, "throw_challenger")
    if challenger is None:
        raise RecordingError(_("Choose who challenged the throw."))
    return plays.Throw(attempted, challenger, posted_cards(fields, "throw_shown", _("cards shown")))
