"""Playing simulated deals through the recording service, as the judge's page does."""

from __future__ import annotations

from referee.recording import deal_entry
from rules.simulate import simulate_deal


def play_through_service(deal, user, record, *, upto: int | None = None) -> None:
    """Enter a simulated record's plays one by one, as the judge's page does."""
    for trick in record["tricks"][:upto]:
        for j, (seat, cards) in enumerate(trick["plays"]):
            throw = None
            if j == 0 and trick.get("throw"):
                t = trick["throw"]
                throw = deal_entry.Throw(t["attempted"], t["challenger"], t["shown"])
            deal.refresh_from_db()
            deal_entry.record_play(deal, user, cards=cards, seat=seat, version=deal.version, throw=throw)


def simulated(deal, seed: int = 1) -> dict:
    """A complete legal record for the deal as started (its banker, level and trump)."""
    return simulate_deal(
        deal.match.round.tournament.ruleset, banker=deal.banker, level=deal.level, trump=deal.trump, seed=seed
    )
