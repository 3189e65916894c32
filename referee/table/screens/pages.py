"""The judges' pages as plain data: the match page, a new deal, the trick-entry page, quick entry. A screen of a
write (new deal, quick entry) refuses, as the write would, anyone who may not make it (``PermissionRefused``)."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils import timezone

from referee.table.forms import kitty_hint
from referee.table.history import match_history
from referee.table.level_trail import match_levels_chart
from referee.table.recording.boards import current_board
from referee.table.recording.deal_entry import next_deal_number, time_refusal
from referee.table.recording.quick import require_quick_entry
from referee.table.screens.deal_state import current_deal_state
from referee.table.screens.labels import entry_labels
from rules.match import can_start_deal
from rules.ruleset import TimeRule
from rules.seats import SEATS, side_of
from tournaments.competition.access import (
    can_confirm,
    can_confirm_by_pin,
    can_read_deals,
    can_read_results,
    can_record,
    can_reopen,
)
from tournaments.competition.display import match_result
from tournaments.duplicate.movement import is_duplicate_match
from tournaments.models import Deal, Match
from tournaments.scoring.entries import require_record
from tournaments.scoring.fold import table_state
from tournaments.scoring.rulesets import ruleset_for


def match_screen(match: Match, user) -> dict:
    """The match page: levels and banker the table plays on, its deals, and what this user may do with them."""
    state = table_state(match)
    deals = list(match.deals.select_related("submitted_by", "confirmed_by").order_by("number"))
    return {
        "match": match,
        "tournament": match.round.tournament,
        "state": state,
        "deals": deals,
        "open_deal": next((d for d in deals if d.state == Deal.State.RECORDING), None),
        "players": match.seat_players(),
        "show_results": can_read_results(user, match),
        "levels_chart": match_levels_chart(match) if can_read_results(user, match) else "",
        "show_deals": can_read_deals(user, match),
        "can_record": can_record(user, match),
        "confirmable": {d.pk for d in deals if d.state == Deal.State.SUBMITTED and can_confirm(user, d)},
        "pin_confirmable": {d.pk for d in deals if can_confirm_by_pin(user, d)},
        "history": match_history(match) if can_reopen(user, match.round.tournament) else None,
        "banker_side": side_of(state.banker) if state.banker else None,
        "result": end_words(match, state.end)[0],
        "ended_by": end_words(match, state.end)[1],
        "time_is_up": bool(state.deadline and timezone.now() >= state.deadline and not state.over),
        "waiting": sum(1 for d in deals if d.state == Deal.State.SUBMITTED),
        "official_differs": (match.level_ns, match.level_ew) != (state.levels["NS"], state.levels["EW"]),
        "duplicate": is_duplicate_match(match),
        "current_board": current_board(match) if is_duplicate_match(match) else None,
    }


def end_words(match: Match, end) -> tuple[str, str]:
    """How the match ended, in words: its result ("东风 won", "draw") and the way it ended (target reached …)."""
    if end is None:
        return "", ""
    winner = match.pair_of(end.winner) if end.winner else None
    return match_result(winner), str(Match.EndedBy(end.how).label)


def new_deal_screen(match: Match, user) -> dict:
    """The new-deal page: the banker due and the level (or the declarer to choose, for the first deal); no form
    while a deal is still being recorded (the deal to continue instead) or once the match is over."""
    require_record(user, match)
    state = table_state(match)
    banker = state.banker
    return {
        "match": match,
        "open_deal": match.deals.filter(state=Deal.State.RECORDING).order_by("number").first(),
        "match_over": state.over,
        "overtime": state.overtime,
        # past the time limit, no form: the page says why at once instead of refusing the submitted form
        "time_up": "" if state.over or can_start_deal(state, timezone.now()) else time_refusal(state),
        "next_deal": next_deal_number(match),
        "needs_declarer": banker is None,
        "banker": banker,
        "level": state.levels[side_of(banker)] if banker else None,
        "players": match.seat_players(),
        "ruleset": ruleset_for(match),
    }


def match_deadline(match: Match) -> datetime | None:
    """When the match's time limit passes (no new deal after it), while it still counts: None without a limit,
    before the match started, or once time was called (over, or playing on under sudden death)."""
    limit = ruleset_for(match).time_limit_minutes
    if not limit or match.started_at is None or match.time_called_at is not None:
        return None
    return match.started_at + timedelta(minutes=limit)


def plays_on_after_time(match: Match) -> bool:
    """The match plays on after time under sudden death, said on the trick-entry page as on the match page; the
    fold is asked only when the rule and a passed limit make it possible."""
    rs = ruleset_for(match)
    if rs.time_rule != TimeRule.SUDDEN_DEATH or not rs.time_limit_minutes or match.started_at is None:
        return False
    if timezone.now() < match.started_at + timedelta(minutes=rs.time_limit_minutes):
        return False
    return table_state(match).overtime


def deal_screen(deal: Deal, user) -> dict:
    """The trick-entry page: the deal's state (drawn by the page's script), the script's words and the clock."""
    return {
        "deal": deal,
        "deadline": match_deadline(deal.match),
        "overtime": plays_on_after_time(deal.match),
        "target_level": ruleset_for(deal.match).target_level,
        "match": deal.match,
        "state": current_deal_state(deal, user),
        "seats": SEATS,
        "labels": entry_labels(),
        "kitty_hint": kitty_hint(ruleset_for(deal.match)),
    }


def quick_screen(match: Match, user) -> dict:
    """The quick-entry page (in tournaments that allow it): whether the first deal's declarer is to be chosen."""
    require_quick_entry(user, match)
    return {
        "match": match,
        "next_deal": next_deal_number(match),
        "needs_declarer": table_state(match).banker is None,
        "ruleset": ruleset_for(match),
    }
