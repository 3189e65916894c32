"""The trick-entry page's state, as plain data: the deal, its tricks and plays, whose turn, the picker, the
violations and how each is settled. The page's script receives it as JSON after every action, so it never needs a
reload for a trick; it keeps its shape (``static/js/deal.js`` reads it)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.utils import timezone
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from referee.table.consequences import (
    penalty_label,
    penalty_text,
    seat_label,
)
from referee.table.recording import settling
from referee.table.recording.card_text import seat_name
from referee.table.recording.consistent import consistent_read
from referee.table.recording.verdict_text import violation_message
from referee.table.screens.board_state import board_state
from referee.table.screens.cards import card_label, card_labels, picker_rows, throw_info
from rules.cards import CARD_TEXT, parse_cards
from rules.messages import show
from rules.ranks import rank_text
from rules.seats import SEATS, play_order, side_of
from rules.verdict import Verdict
from tournaments.backup import given_back, identity
from tournaments.competition.access import (
    can_confirm,
    can_record,
)
from tournaments.models import Deal
from tournaments.scoring.fold import start_levels
from tournaments.scoring.settlement import Settlement, distinct, key_of, penalty_for, read_settlement
from tournaments.scoring.snapshot import Snapshot, snapshot


def deal_state(deal: Deal, user, snap: Snapshot | None = None) -> dict:
    """Everything the trick-entry page shows, for one deal (or for ``snap``'s: the deal as a write just saved it)."""
    snap = snap if snap is not None else snapshot(deal, start_levels(deal))
    deal, match, rs = snap.deal, snap.deal.match, snap.rs
    labels = card_labels(get_language())
    verdict = snap.judged()
    summaries = verdict.tricks
    tricks: list[dict[str, Any]] = []
    played: Counter = Counter()
    for trick, plays in zip(snap.tricks, snap.plays, strict=True):
        for p in plays:
            played.update(p.cards.split())
        summary = summaries[trick.number] if trick.number < len(summaries) else None
        tricks.append(
            {
                "number": trick.number,
                "leader": plays[0].seat if plays else None,
                "plays": [
                    {"seat": p.seat, "cards": [card_label(c, labels) for c in p.cards.split()]} for p in plays
                ],
                "winner": summary.winner if summary and len(plays) == 4 else None,
                "points": summary.points if summary and len(plays) == 4 else None,
                "throw": throw_info(trick, plays, rs, labels) if trick.throw_attempted else None,
            }
        )
    players = match.seat_players()
    kitty = list(parse_cards(deal.kitty)) if deal.kitty else []
    buried = Counter(CARD_TEXT[c] for c in kitty)
    banker_side = side_of(deal.banker)
    attackers_points = sum(
        t["points"] or 0 for t in tricks if t["winner"] and side_of(t["winner"]) != banker_side
    )
    due = snap.due(verdict) if deal.state == Deal.State.RECORDING else None
    current = tricks[-1] if tricks and len(tricks[-1]["plays"]) < 4 else None
    leader = (current and current["leader"]) or due  # a trick without plays yet waits for its lead
    board = board_state(snap, due)
    return {
        "board": board,
        "desk": identity.current(),  # which history the desk holds: a phone that knew another gives back
        "deal": {
            "id": deal.pk,
            "match": match.pk,
            "number": deal.number,
            "version": deal.version,
            "state": deal.state,
            "state_label": deal.get_state_display(),
            "banker": deal.banker,
            "level": rank_text(deal.level),
            "trump": deal.trump,
            "trump_label": deal.get_trump_display(),
            "kitty": [card_label(c, labels) for c in deal.kitty.split()] if deal.kitty else [],
            "kitty_text": deal.kitty,
            "confirm_again": given_back.confirm_again(deal),
        },
        "seats": {s: {"name": seat_name(s), "player": players[s], "side": side_of(s)} for s in SEATS},
        "order": list(play_order(leader, rs.clockwise)) if leader else [],
        "next_seat": due,
        "hand_size": rs.hand_size,
        "tricks": tricks,
        "attackers_points": attackers_points,
        "picker": board["picker"]
        if board
        else picker_rows(deal, played + buried, rs.decks, rs.permanent_twos),
        "violations": violation_rows(snap, verdict, players),
        "challengers": challengers(due, rs.clockwise) if due and current is None else [],
        "complete": snap.complete,
        "can_record": can_record(user, match) and deal.state == Deal.State.RECORDING,
        "can_confirm": deal.state == Deal.State.SUBMITTED and can_confirm(user, deal),
    }


def challengers(leader: str, clockwise: bool) -> list[str]:
    """Who may challenge a throw the leader makes: the three other players, the two opponents first (the usual
    challengers), each group in play order."""
    others = play_order(leader, clockwise)[1:]
    return sorted(others, key=lambda s: side_of(s) == side_of(leader))


STATUS_LABELS = {
    "open": gettext_lazy("open"),
    "penalty": gettext_lazy("penalty applied"),
    "dismissed": gettext_lazy("dismissed by the director"),
}


def violation_rows(
    snap: Snapshot, verdict: Verdict, players: dict[str, str], settlement: Settlement | None = None
) -> list[dict]:
    """The deal's violations as the judge sees them: where, who (seat and player), what, the ruleset's
    consequence, and how far each is settled; then the plays out of turn recorded. Read only when there are
    any (most states have none: no extra query)."""
    if not verdict.violations and not snap.penalty_keys:
        return []
    settlement = settlement or read_settlement(snap.deal)
    settlement.note_called(verdict.violations, settlement.unkeyed)
    rs, banker = snap.rs, snap.deal.banker
    rows = []
    for v in distinct(verdict.violations):
        key, code = key_of(v), penalty_for(v)
        rows.append(
            {
                **v.as_dict(),
                **violation_place(v.trick, v.seat, players),
                "key": key,
                "text": violation_message(v.as_dict()),
                "penalty": code,
                "penalty_label": penalty_label(code) if code else "",
                "consequence": penalty_text(rs, banker, v.seat, code) if code and v.seat else "",
                **settled(settlement, key),
                "confirmed": key in settlement.played,
                "new": key in snap.proven,
            }
        )
    for key, mark in settlement.penalties.items():
        if key.endswith(":" + settling.OUT_OF_TURN):
            rows.append(out_of_turn_row(key, mark, rs, banker, players, settlement))
    return rows


def violation_place(trick: int | None, seat: str | None, players: dict[str, str]) -> dict:
    """Where a violation is: its trick (counted from 1 on screen) and the seat with its player."""
    return {
        "trick_label": _("Trick %(n)s") % {"n": trick + 1} if trick is not None else _("whole deal"),
        "seat_label": seat_label(seat, players),
    }


def settled(settlement: Settlement, key: str) -> dict:
    """How a violation stands: open, or settled by whom, when (and the director's note)."""
    status = settlement.status(key)
    mark = settlement.penalties.get(key) or settlement.called.get(key) or settlement.dismissed.get(key)
    return {
        "status": status,
        "status_label": str(STATUS_LABELS[status]),
        "settled_by": mark.by if mark else "",
        "settled_at": timezone.localtime(mark.at).strftime("%H:%M") if mark else "",
        "dismissal_note": settlement.dismissed[key].note if key in settlement.dismissed else "",
    }


def out_of_turn_row(key: str, mark, rs, banker: str, players: dict[str, str], settlement: Settlement) -> dict:
    """A play out of turn the judge recorded, with the penalty it took."""
    shown = show(parse_cards(mark.note)) if mark.note else ""
    text = _("played out of turn, showing %(cards)s") % {"cards": shown} if shown else _("played out of turn")
    return {
        "trick": mark.trick,
        "seat": mark.seat,
        "code": settling.OUT_OF_TURN,
        **violation_place(mark.trick, mark.seat, players),
        "key": key,
        "text": text,
        "penalty": mark.code,
        "penalty_label": penalty_label(mark.code),
        "consequence": penalty_text(rs, banker, mark.seat, mark.code),
        **settled(settlement, key),
        "confirmed": True,
        "new": False,
    }


def current_deal_state(deal: Deal, user) -> dict:
    """``deal_state`` read afresh in one consistent read: the deal, its tricks and plays as one moment saw
    them (a poll, or the answer to a write, while another client plays or undoes)."""
    match = deal.match
    identity.current()  # a desk without one yet makes it here, not inside the read (a write there is refused)
    with consistent_read():
        deal.refresh_from_db()
        deal.match = match  # already loaded with its pairs and players
        return deal_state(deal, user)
