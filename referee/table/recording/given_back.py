"""A deal a table's phone gave back to a restored desk (docs/journal-protocol.md): the phone has sent again, with
their first keys, the entries the desk lacked, and says how far it had seen the deal go. A deal it saw submitted
is submitted again (re-judged like the first time); one it saw confirmed then waits for the two pairs' PINs, and
the page says why (``tournaments.backup.identity.confirm_again``)."""

from __future__ import annotations

from collections.abc import Mapping

from django.db import transaction
from django.utils.translation import gettext as _

from referee.table.recording.deal_entry import submit_deal
from referee.table.recording.words import posted_text
from tournaments.backup import identity
from tournaments.models import Deal
from tournaments.scoring.entries import require_record
from tournaments.scoring.errors import RecordingError, StaleEdit

SEEN = {"recording", "submitted", "confirmed"}  # how far the phone saw the deal go


@transaction.atomic
def give_back(deal: Deal, user, fields: Mapping[str, str], version: int) -> None:
    """Note the give-back and, when the phone saw the deal submitted or confirmed and it is open here, submit it
    again at ``version`` (refused like any submit: the deal then stays open, the judge settles it)."""
    require_record(user, deal.match)
    known = posted_text(fields, "identity", _("identity"), 32)  # the desk's identity the phone knew
    seen = fields.get("seen") or "recording"
    if not known or seen not in SEEN:
        raise RecordingError(_("The page sent an incomplete give-back: reload it and try again."))
    identity.given_back(deal, known, confirmed=seen == "confirmed")
    deal.refresh_from_db()
    if seen != "recording" and deal.state == Deal.State.RECORDING:
        try:
            submit_deal(deal, user, version=version)
        except StaleEdit:
            raise  # the phone reads the deal again and gives it back at the version it is now
        except RecordingError:
            pass  # not submittable as it is (a violation to settle): it stays open, the judge sees why
