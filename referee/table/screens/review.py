"""The review page as plain data: the whole-deal verdict, each violation and how it stands, the penalties with
their effect, each failed throw's deduction, a preview of the result, why it changed and what changed since submit."""

from __future__ import annotations

from referee.table.change_words import change_lines
from referee.table.consequences import (
    failed_throws,
    penalty_text,
    seat_label,
    why_result_changed,
)
from referee.table.explain import causes, level_stops, quick_stops, stop_lines
from referee.table.recording.changes import deal_changes
from referee.table.screens.deal_state import card_label, violation_rows
from tournaments.backup import identity
from tournaments.competition.access import (
    can_confirm,
    can_confirm_by_pin,
    can_record,
    can_reopen,
)
from tournaments.models import Deal
from tournaments.scoring.entries import may_reopen
from tournaments.scoring.settlement import read_settlement
from tournaments.scoring.snapshot import snapshot, start_levels


def review_screen(deal: Deal, user) -> dict:
    """End of deal: the whole-deal verdict, each violation with the ruleset's penalty and how it stands (open
    ones block the submit), the penalties with their effect, each failed throw's deduction, a preview, and one
    line on why the penalties changed the result."""
    snap = snapshot(deal, start_levels(deal))  # one read for the verdict and the completeness check
    players = deal.match.seat_players()
    rs = snap.rs
    judged = snap.judged() if deal.mode == Deal.Mode.TRICKS else None
    verdict = judged.as_dict() if judged is not None else (deal.verdict or {})
    settlement = read_settlement(deal)
    rows = violation_rows(snap, judged, players, settlement) if judged is not None else []
    by_key = {row["key"]: row for row in rows}
    record = snap.record()
    result = verdict.get("result")
    stops = (
        level_stops(judged, result)
        if judged is not None
        else quick_stops(rs, deal.banker, snap.levels, result)
    )
    changes = deal_changes(deal)
    penalties = [
        {
            "penalty": p,
            "seat_label": seat_label(p.seat, players),
            "consequence": penalty_text(rs, deal.banker, p.seat, p.code),
            "about": by_key[p.violation]["text"] if p.violation in by_key else "",
        }
        for p in deal.penalties.select_related("recorded_by")
    ]
    return {
        "deal": deal,
        "match": deal.match,
        "verdict": verdict,
        "violations": rows,
        "open_violations": [row for row in rows if row["status"] == "open"],
        "penalties": penalties,
        "failed_throws": failed_throws(judged, rs, deal.banker, players) if judged is not None else [],
        "why": why_result_changed(rs, record, judged, players) if judged is not None else "",
        "causes": causes(rs, record, judged, players),
        "level_stops": stop_lines(stops),
        "changes": change_lines(changes, verdict, players) if changes is not None else None,
        "can_reopen_deal": may_reopen(user, deal) and not deal.match.round.tournament.is_finished,
        "kitty": [card_label(c) for c in deal.kitty.split()],
        "kitty_size": rs.kitty_size,
        "complete": snap.complete,
        "can_record": can_record(user, deal.match),
        "can_dismiss": can_reopen(user, deal.match.round.tournament),
        "can_confirm": deal.state == Deal.State.SUBMITTED and can_confirm(user, deal),
        "can_pin_confirm": can_confirm_by_pin(user, deal),
        "pin_pairs": (("NS", deal.match.pair_ns), ("EW", deal.match.pair_ew)),
        "confirm_again": identity.confirm_again(deal),  # confirmed before a restore: the PINs again, and why
    }
