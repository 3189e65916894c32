"""The trick-entry page's state, as plain data: the deal, its tricks and plays, whose turn, the picker, the
violations and how each is settled. The page's script receives it as JSON after every action, so it never needs a
reload for a trick; it keeps its shape (``static/js/deal.js`` reads it).

In three parts, in this order: the state itself (``deal_state``); the cards on the judges' screens (each card's
label in the active language, the picker's rows, a challenged throw as the judge saw it; the review shows them
too); and what the page adds for a duplicate board (``board_state``)."""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
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
from referee.table.recording.consistent import consistent_read
from referee.table.recording.words import seat_name, violation_message
from rules.cards import ALL_CARDS, CARD_SYMBOL, CARD_TEXT, parse_cards
from rules.messages import show
from rules.order import TRUMP, trump_from_text
from rules.ranks import rank_text
from rules.scoring import failed_throw_points
from rules.seats import SEATS, play_order, side_of
from rules.verdict import Verdict
from tournaments.backup import identity
from tournaments.competition.access import (
    can_confirm,
    can_record,
)
from tournaments.competition.display import card_face
from tournaments.models import Deal
from tournaments.scoring.board_hands import banker_pickup, board_of, start_hands
from tournaments.scoring.settlement import Settlement, distinct, key_of, penalty_for, read_settlement
from tournaments.scoring.snapshot import Snapshot, snapshot, start_levels


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
    board = board_state(snap, due) if deal.board_id else None  # a duplicate board's part
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
            "confirm_again": identity.confirm_again(deal),
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


# ---------------------------------------------------------------- the cards on the judges' screens
# Cards on the judges' screens: each card's label in the active language, the card picker's rows (copies left),
# and a challenged throw as the judge saw it.


FACES = {CARD_TEXT[c]: CARD_SYMBOL[c] for c in range(52)}  # ♠10, ♥A …: the engine's own symbols


def card_label(text: str, labels: dict[str, dict] | None = None) -> dict:
    """How a card shows on screen: ``{"code": "ST", "face": "♠10", "suit": "S"}``, a fresh copy of its label in
    ``labels`` (``card_labels``; the active language's when not given)."""
    return dict((labels or card_labels(get_language()))[text])


@lru_cache(maxsize=16)
def card_labels(language: str | None) -> dict[str, dict]:
    """Every card's label in ``language`` (the active one when it is worked out), worked out once: a screen asks
    for the language once, not once per card (asking costs more than the label)."""
    labels = {"BJ": {"code": "BJ", "face": card_face("BJ"), "suit": "J", "short": _("BJ")}}
    labels["LJ"] = {"code": "LJ", "face": card_face("LJ"), "suit": "J", "short": _("LJ")}
    for text, face in FACES.items():
        labels[text] = {"code": text, "face": face, "suit": text[0], "short": face}
    return labels


def throw_info(trick, plays, rs, labels: dict[str, dict] | None = None) -> dict:
    """A challenged throw as the judge saw it, with the unit played and the penalty it costs."""
    played = len(plays[0].cards.split()) if plays else 0
    taken_back = max(len(trick.throw_attempted.split()) - played, 0)
    return {
        "attempted": [card_label(c, labels) for c in trick.throw_attempted.split()],
        "challenger": trick.throw_challenger,
        "shown": [card_label(c, labels) for c in trick.throw_shown.split()],
        "forced": [card_label(c, labels) for c in plays[0].cards.split()] if plays else [],
        "penalty": failed_throw_points(rs, taken_back),
    }


def picker_rows(deal: Deal, played: Counter, decks: int, permanent_twos: bool) -> list[dict]:
    """The card picker, one button a face with the copies left: the jokers and level cards (and permanent 2s)
    first, then the trump suit's own cards (``trump``), then each plain suit, high to low."""
    language = get_language()
    labels = card_labels(language)
    return [
        {
            "suit": suit,
            "name": name,
            "trump": is_trump,
            "cards": [{**labels[text], "left": max(decks - played[text], 0)} for text in texts],
        }
        for suit, name, is_trump, texts in picker_layout(deal.level, deal.trump, permanent_twos, language)
    ]


@lru_cache(maxsize=256)
def picker_layout(level: str, trump: str, permanent_twos: bool, language: str | None) -> tuple:
    """The picker's rows for a level and trump, in ``language``: (suit, its name, trump or not, the cards high to
    low); the trump group split in two short rows, its top cards and the trump suit's own run (a row a suit, as
    the hand is held). Worked out once, as the judges' pages ask for it on every play."""
    t = trump_from_text(level, trump, permanent_twos)
    groups: dict[int, list[int]] = {}
    for card in t.sort(ALL_CARDS):
        groups.setdefault(t.suit_of(card), []).append(card)
    names = {TRUMP: _("Trumps"), 0: _("Spades"), 1: _("Hearts"), 2: _("Clubs"), 3: _("Diamonds")}
    rows = []
    for suit in [TRUMP, 0, 1, 2, 3]:
        if suit not in groups:
            continue
        cards = groups[suit]
        run = trump_suit_run(cards, t) if suit == TRUMP and t.trump is not None else 0
        if run and t.trump is not None:
            rows.append(("T", names[TRUMP], True, tuple(CARD_TEXT[c] for c in cards[: len(cards) - run])))
            rows.append(("SHCD"[t.trump], names[t.trump], True, tuple(CARD_TEXT[c] for c in cards[-run:])))
            continue
        rows.append(
            (
                "T" if suit == TRUMP else "SHCD"[suit],
                names[suit],
                suit == TRUMP,
                tuple(CARD_TEXT[c] for c in cards),
            )
        )
    return tuple(rows)


def trump_suit_run(cards: list[int], t) -> int:
    """How many of the trump group's last cards (high to low) are the trump suit's plain ranks: neither the level
    card nor a permanent 2."""
    run = 0
    for card in reversed(cards):
        rank = card % 13 if card < 52 else -1
        if card >= 52 or card // 13 != t.trump or rank == t.level or (t.permanent_twos and rank == 0):
            break
        run += 1
    return run


def held_rows(deal: Deal, left: Counter, permanent_twos: bool) -> list[dict]:
    """A board's picker (RULES §14.6): only the cards the seat to play still holds (``left``: copies by card
    text), in the picker's rows; a card the seat does not hold has no button, so a single is one tap."""
    language = get_language()
    labels = card_labels(language)
    rows = []
    for suit, name, is_trump, texts in picker_layout(deal.level, deal.trump, permanent_twos, language):
        cards = [{**labels[text], "left": left[text]} for text in texts if left[text] > 0]
        if cards:
            rows.append({"suit": suit, "name": name, "trump": is_trump, "cards": cards})
    return rows


# ---------------------------------------------------------------- a duplicate board
# What the trick-entry page adds for a duplicate board (RULES §14.6): the board's number and fingerprint, whether
# the banker's buried cards are still to enter, and what each seat still holds, so the picker offers the seat to
# play only its own cards (a card it does not hold has no button; typed, it is refused by the engine, named).
#
# Each seat's holding is sent with the state: a page that keeps plays on the device while the network is down
# redraws the picker for the next seat from it (``static/js/overlay.js``), as the server would.


ALL_COPIES = Counter({text: 1 for text in CARD_TEXT})  # every card once: the picker's whole layout


def holdings(snap: Snapshot) -> dict[str, Counter]:
    """What each seat holds now, by card text: the hands as play began less what the seat played. Before the
    buried cards are entered, the banker holds the hand with the kitty (the cards to bury from), the others
    their hands."""
    deal = snap.deal
    hands = start_hands(deal)
    if hands is None:
        board = board_of(deal)
        assert board is not None
        held: dict[str, Counter] = {seat: Counter() for seat in SEATS}
        held[deal.banker] = Counter(CARD_TEXT[c] for c in banker_pickup(board))
        return held
    held = {seat: Counter(CARD_TEXT[c] for c in hands[seat]) for seat in SEATS}
    for plays in snap.plays:
        for p in plays:
            held[p.seat].subtract(p.cards.split())
    return held


def board_state(snap: Snapshot, due: str | None) -> dict | None:
    """The board's part of the page's state, and the picker for ``due`` (or for the banker's bury); None for a
    deal dealt at the table."""
    board = board_of(snap.deal)
    if board is None:
        return None
    held = holdings(snap)
    needs_kitty = not snap.deal.kitty
    seat = snap.deal.banker if needs_kitty else due
    picker = held_rows(snap.deal, held[seat], snap.rs.permanent_twos) if seat else []
    return {
        "number": board.number,
        "title": _("Board %(n)s") % {"n": board.number},
        "fingerprint": board.short_fingerprint,
        "needs_kitty": needs_kitty,
        "kitty_size": snap.rs.kitty_size,
        "held": {s: {c: n for c, n in held[s].items() if n > 0} for s in SEATS},
        "layout": held_rows(
            snap.deal, ALL_COPIES, snap.rs.permanent_twos
        ),  # every card's row, for the overlay
        "picker": picker,
    }
