"""What the judges' screens show, as plain data: the match page, a new deal, the deal's state for the trick-entry
page, the review page, quick entry.

Views render these and the trick-entry page's script receives the same dictionary as JSON after every action,
so the page never needs a reload for a trick. A screen of a write (new deal, quick entry) refuses, as the write
would, anyone who may not make it (``PermissionRefused``).
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

from django.utils import timezone
from django.utils.translation import get_language, gettext_lazy, pgettext
from django.utils.translation import gettext as _

from referee.table.change_words import change_lines
from referee.table.consequences import (
    failed_throws,
    penalty_label,
    penalty_text,
    seat_label,
    why_result_changed,
)
from referee.table.explain import causes, level_stops, quick_stops, stop_lines
from referee.table.forms import kitty_hint
from referee.table.history import match_history
from referee.table.level_trail import match_levels_chart
from referee.table.recording import settling
from referee.table.recording.access import may_reopen, require_record
from referee.table.recording.card_text import seat_name
from referee.table.recording.changes import deal_changes
from referee.table.recording.consistent import consistent_read
from referee.table.recording.deal_entry import next_deal_number
from referee.table.recording.errors import violation_message
from referee.table.recording.match_fold import start_levels, table_state
from referee.table.recording.quick import require_quick_entry
from referee.table.recording.rulesets import ruleset_for
from referee.table.recording.settling import Settlement
from referee.table.recording.snapshot import Snapshot, snapshot
from rules.cards import ALL_CARDS, CARD_SYMBOL, CARD_TEXT, parse_cards
from rules.judge import Verdict
from rules.messages import show
from rules.order import TRUMP, trump_from_text
from rules.ranks import rank_text
from rules.scoring import failed_throw_points
from rules.seats import SEATS, play_order, side_of
from tournaments.competition.access import (
    can_confirm,
    can_confirm_by_pin,
    can_read_deals,
    can_read_results,
    can_record,
    can_reopen,
)
from tournaments.competition.wording import card_face, match_result
from tournaments.models import Deal, Match

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
        if run:
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


def deal_state(deal: Deal, user, snap: Snapshot | None = None) -> dict:
    """Everything the trick-entry page shows, for one deal (or for ``snap``'s: the deal as a write just saved it)."""
    snap = snap if snap is not None else snapshot(deal, start_levels(deal))
    deal, match, rs = snap.deal, snap.deal.match, snap.rs
    labels = card_labels(get_language())
    verdict = snap.judged()
    summaries = verdict.tricks
    tricks = []
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
    return {
        "deal": {
            "id": deal.pk,
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
        },
        "seats": {s: {"name": seat_name(s), "player": players[s], "side": side_of(s)} for s in SEATS},
        "order": list(play_order(leader, rs.clockwise)) if leader else [],
        "next_seat": due,
        "hand_size": rs.hand_size,
        "tricks": tricks,
        "attackers_points": attackers_points,
        "picker": picker_rows(deal, played + buried, rs.decks, rs.permanent_twos),
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
    settlement = settlement or settling.read_settlement(snap.deal)
    settlement.note_called(verdict.violations, settlement.unkeyed)
    rs, banker = snap.rs, snap.deal.banker
    rows = []
    for v in settling.distinct(verdict.violations):
        key, code = settling.key_of(v), settling.penalty_for(v)
        rows.append(
            {
                **v.as_dict(),
                **violation_place(v.trick, v.seat, players),
                "key": key,
                "text": violation_message(v.as_dict()),
                "penalty": code,
                "penalty_label": penalty_label(code) if code else "",
                "consequence": penalty_text(rs, banker, v.seat, code) if code else "",
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
    with consistent_read():
        deal.refresh_from_db()
        deal.match = match  # already loaded with its pairs and players
        return deal_state(deal, user)


# ---------------------------------------------------------------- whole pages


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
        "history": match_history(match) if can_reopen(user) else None,
        "banker_side": side_of(state.banker) if state.banker else None,
        "result": end_words(match, state.end)[0],
        "ended_by": end_words(match, state.end)[1],
        "time_is_up": bool(state.deadline and timezone.now() >= state.deadline and not state.over),
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
        "next_deal": next_deal_number(match),
        "needs_declarer": banker is None,
        "banker": banker,
        "level": state.levels[side_of(banker)] if banker else None,
        "players": match.seat_players(),
        "ruleset": ruleset_for(match),
    }


def entry_labels() -> dict[str, str]:
    """The words the trick-entry script shows, in the judge's language (seats by name, cards by face)."""
    return {
        "trick": _("Trick %(n)s"),
        "cards_left": _("%(n)s cards left in each hand"),
        "all_tricks": _("%(n)s tricks"),
        "turn": _("to play: %(seat)s"),
        "won": _("won by %(seat)s, %(points)s points"),
        "done": _("All tricks are played."),
        "review_settled": _("All tricks recorded: open the review"),
        "saved": _("Saved."),
        "kitty_saved": _("Kitty saved."),
        "undone_play": _("Undone: %(seat)s's %(cards)s."),
        "undone_trick": _("Undone: trick %(n)s."),
        "network": _("The server did not answer; nothing was lost — try again."),
        "retrying": _("Network lost, retrying… (%(n)s of %(max)s)"),
        "recovered": _("The network is back: saved."),
        "gave_up": _(
            "The network is still down. What you entered is still on the page: send it again when the network "
            "is back — it is never recorded twice."
        ),
        "nothing": _("Tap or type the cards first."),
        "read_as": _("Read as: %(cards)s"),
        "not_a_card": _("“%(token)s” is not a card"),
        "leader": _("lead"),
        **picker_labels(),
        "throw": _("Failed throw, challenged by %(seat)s: penalty %(penalty)s points."),
        "attempted": _("tried"),
        "shown": _("shown"),
        "forced": _("actually played"),
        **violation_labels(),
    }


def picker_labels() -> dict[str, str]:
    """The words of the picker, the record button's countdown and a finished trick's banner."""
    return {
        "trump_mark": pgettext("the picker's row of jokers and level cards", "Tr"),
        "left": _("%(card)s, %(n)s left in the hands"),  # a picker button's name to a screen reader
        "record": _("Record play"),
        "sending": _("Sending… tap to cancel"),
        "cancelled": _("Not sent: the cards stay selected; tap “Record play” to send them."),
        "outcome_won": _("Trick %(n)s: %(seat)s wins (%(side)s)"),
        "outcome_points": _("%(points)s points in the trick"),
        "outcome_total": _("attackers %(points)s in all"),
        "outcome_next": _("next lead: %(seat)s"),
        "attackers": _("attackers"),
        "banker_side": _("banker side"),
    }


def violation_labels() -> dict[str, str]:
    """The words of the trick-entry page's list of violations."""
    return {
        "violations_open": _("Violations to settle: %(n)s"),
        "violations_none": _("No open violations."),
        "consequence": _("Penalty: %(penalty)s — %(effect)s"),
        "ruled_played": _("Recorded as played: settle it (apply the penalty) before submitting."),
        "played": _("Recorded as played"),
        "undo_play": _("Undo this play"),
        "apply": _("Apply the penalty"),
        "proven": _(
            "Saved. This play proves a fault (see the list): confirm it was played as recorded, or undo the play."
        ),
    }


def deal_screen(deal: Deal, user) -> dict:
    """The trick-entry page: the deal's state (drawn by the page's script) and the script's words."""
    return {
        "deal": deal,
        "match": deal.match,
        "state": current_deal_state(deal, user),
        "seats": SEATS,
        "labels": entry_labels(),
        "kitty_hint": kitty_hint(ruleset_for(deal.match)),
    }


def review_screen(deal: Deal, user) -> dict:
    """End of deal: the whole-deal verdict, each violation with the ruleset's penalty and how it stands (open
    ones block the submit), the penalties with their effect, each failed throw's deduction, a preview, and one
    line on why the penalties changed the result."""
    snap = snapshot(deal, start_levels(deal))  # one read for the verdict and the completeness check
    players = deal.match.seat_players()
    rs = snap.rs
    judged = snap.judged() if deal.mode == Deal.Mode.TRICKS else None
    verdict = judged.as_dict() if judged is not None else (deal.verdict or {})
    settlement = settling.read_settlement(deal)
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
        "can_dismiss": can_reopen(user),
        "can_confirm": deal.state == Deal.State.SUBMITTED and can_confirm(user, deal),
        "can_pin_confirm": can_confirm_by_pin(user, deal),
        "pin_pairs": (("NS", deal.match.pair_ns), ("EW", deal.match.pair_ew)),
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
