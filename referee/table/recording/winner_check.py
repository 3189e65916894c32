"""A trick's winner as the judge tapped it while offline, checked against the engine's when the entry arrives.

While the network is down the page cannot judge who won a trick, so the judge taps the winner and the page lets
the next trick's lead come from that seat. When the journal reaches the server the claim is checked here: the
engine's winner stands either way (nothing is written), and a different one comes back as a one-sentence notice
the page shows at that trick; the plays entered after it for the wrong seats are then refused as out of turn.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from referee.table.recording.receipts import Outcome
from referee.table.recording.words import seat_name
from tournaments.models import Deal
from tournaments.scoring.entries import require_record
from tournaments.scoring.errors import RecordingError
from tournaments.scoring.snapshot import snapshot, start_levels


def check_winner(deal: Deal, user, *, trick: int, seat: str) -> Outcome:
    """Whether ``seat`` won trick ``trick`` (from 0) by the engine's verdict; refused while it is unfinished."""
    require_record(user, deal.match)
    snap = snapshot(deal, start_levels(deal))
    if trick >= len(snap.plays) or len(snap.plays[trick]) < 4:
        raise RecordingError(
            _("Trick %(n)s is not complete on the server: its winner cannot be checked.") % {"n": trick + 1}
        )
    winner = snap.judged().tricks[trick].winner
    body = {"ok": True, "trick": trick, "winner": winner, "claimed": seat, "agrees": winner == seat}
    if winner != seat:
        body["notice"] = _(
            "Trick %(n)s was won by %(winner)s, not %(seat)s: the server's record stands, and plays entered after "
            "it for the wrong seats are refused."
        ) % {"n": trick + 1, "winner": seat_name(winner), "seat": seat_name(seat)}
    return Outcome(body=body)
