"""The load test's checks after the run, in the database: every deal the clients touched against what they
were told (each acknowledged play stored once, no refused play stored, versions only going up), and judged
again by the engine."""

from __future__ import annotations

import json

from referee.table.recording.records import deal_record
from rules.judge import judge
from tools.loadtest.clients import Log
from tools.loadtest.figures import Tally, compare_plays, increasing
from tools.loadtest.plays import card_key, plays_of
from tournaments.models import Deal, Play
from tournaments.scoring.fold import levels_before


def verify(log: Log) -> tuple[Tally, list[str], int]:
    """Every deal the clients touched, against what they were told; returns the tally, faults and deals checked."""
    tally, faults = Tally(), []
    for deal_id, record in log.records.items():
        deal = Deal.objects.select_related("match__round__tournament").get(pk=deal_id)
        stored = [
            card_key(seat, cards)
            for seat, cards in Play.objects.filter(trick__deal_id=deal_id)
            .order_by("trick__number", "order")
            .values_list("seat", "cards")
        ]
        tally.add(
            compare_plays(
                [p.key for p in plays_of(record)],
                stored,
                acked=log.acked[deal_id],
                rejected=log.rejected[deal_id],
                unresolved=log.unresolved[deal_id],
            )
        )
        versions = list(
            Deal.history.filter(id=deal_id).order_by("history_id").values_list("version", flat=True)
        )
        if not increasing(versions) or versions[-1] != deal.version:
            faults.append(f"deal {deal_id}: versions {versions} in its history")
        fault = rejudge(deal)
        if fault:
            faults.append(f"deal {deal_id}: {fault}")
    if log.version_faults:
        faults.append(f"{log.version_faults} deals whose versions went down in a client's replies")
    return tally, faults, len(log.records)


def rejudge(deal: Deal) -> str | None:
    """The engine on the stored deal (the service's record builder): legal plays, and the stored verdict's result."""
    verdict = judge(deal_record(deal, levels=levels_before(deal)), live=True)
    if not verdict.ok:
        return f"the engine finds {[v.code for v in verdict.violations]}"
    if deal.verdict is not None:
        fresh = json.loads(json.dumps(verdict.as_dict()))
        if fresh.get("result") != deal.verdict.get("result"):
            return "the stored verdict differs from the engine's"
    return None
