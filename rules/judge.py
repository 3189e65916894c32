"""Judging a deal record (RULES §5–8): replay it trick by trick and return a ``Verdict`` (DEAL-RECORD).

``judge`` takes the JSON object (or a ``Record`` from ``rules.record.parse_record``); ``judge_text`` takes JSON
text. Both raise ``RecordError`` when the record cannot be read. The verdict lists the violations, one summary
per trick, the ``TrickFacts`` scoring needs and, for a complete deal, the deal scored.

Holdings: with ``hands`` they are given; otherwise a player's hand before trick *k* is the cards they play from
trick *k* on (RULES §8). That is exact for a complete deal. For a live or partial record it is a lower bound,
so only certain faults are reported (see ``follow``): a card of the led suit played later by a player who did
not follow is a revoke (a void shown, then broken).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from itertools import chain
from typing import Any

from .card_counts import CardCounts
from .cards import POINTS, Card, card_counts
from .facts import LeadShape, TrickFacts
from .follow import FollowProblem, follow_problem, suit_cards
from .messages import challenge_reason, message, show, suit_names
from .order import TRUMP
from .record import Record, RecordError, ThrowRecord, TrickRecord, parse_record
from .scoring import kitty_multiplier, score_deal
from .seats import SEATS, play_order
from .sets import lead_shape
from .throw import check_throw, forced_kind_from, is_forced_unit, shown_unit
from .trick import winner_index
from .units import KIND_NAMES, SINGLE, Shape, Unit, decompose, largest_unit, shape_name
from .verdict import TrickSummary, Verdict, Violation

_ORDERS = {cw: {s: play_order(s, cw) for s in SEATS} for cw in (False, True)}
_SINGLE_SHAPE = Shape((), 0, 1)
_JACKS = frozenset(c for c in range(52) if c % 13 == 9)  # rank index 9 = J
_SINGLE_LEAD = LeadShape("single", 0, False)
_SINGLE_RESULTS: dict[tuple[str, str, int, bool], tuple[TrickSummary, TrickFacts]] = {}


def _single_result(leader: str, winner: str, pts: int, jack: bool) -> tuple[TrickSummary, TrickFacts]:
    """Summary and facts of a single-card trick, shared between tricks (both immutable; few distinct values)."""
    key = (leader, winner, pts, jack)
    found = _SINGLE_RESULTS.get(key)
    if found is None:
        found = _SINGLE_RESULTS[key] = (
            TrickSummary(leader, winner, pts, "single"),
            TrickFacts(leader, winner, pts, _SINGLE_LEAD, None, 0, jack),
        )
    return found


def _missing(hand: list[int], cards: Sequence[Card]) -> list[Card]:
    """The cards of ``cards`` (with repeats) that ``hand`` (54 counts) does not hold."""
    missing: list[Card] = []
    for c, n in card_counts(cards).items():
        if hand[c] < n:
            missing += [c] * (n - hand[c])
    return missing


class _Judge(CardCounts):
    """One pass over a record. Each seat's holding is 54 card counts plus counts per effective suit (how many
    cards of the led suit a follower has is the commonest question); cards leave it as they are played."""

    def __init__(self, rec: Record, live: bool = False) -> None:
        self.rec = rec
        self.live = live
        self.t = rec.trump
        self.given = rec.hands is not None
        self.exact = self.given  # holdings known exactly: given, or the deal is complete (set in ``run``)
        self.orders = _ORDERS[rec.ruleset.clockwise]
        self.hands: dict[str, list[int]] = {s: [0] * 54 for s in SEATS}
        self.suit_n: dict[str, list[int]] = {s: [0] * 5 for s in SEATS}
        self.viol: list[Violation] = []
        self.summaries: list[TrickSummary] = []
        self.facts: list[TrickFacts] = []
        self._played: tuple[list[int], dict[str, int]] | None = None

    def add(self, trick: int | None, seat: str | None, code: str, at: str | None = None, **kw: Any) -> None:
        """Record a violation; ``at`` is the seat at fault when it differs from the message's ``seat``."""
        en, zh = message(code, seat=seat, **kw)
        self.viol.append(Violation(trick, at or seat, code, en, zh))

    def run(self) -> Verdict:
        """Every trick in order, then the card counts: exact for a complete deal, only excesses for a live one."""
        rec = self.rec
        played = self._deal_hands()
        last_full = bool(rec.tricks) and len(rec.tricks[-1].plays) == 4
        complete = not rec.partial and last_full and self._over(played)
        self.exact = self.given or complete
        leader: str | None = rec.banker
        last = len(rec.tricks) - 1
        trick = self._trick
        for k, tr in enumerate(rec.tricks):
            leader = trick(k, tr, leader, k < last)
        if rec.partial:
            self._check_copies()
        else:
            self._check_counts(complete)
            if not complete and not self.live:
                left = 54 * rec.ruleset.decks - played - len(rec.kitty)
                self.add(None, None, "incomplete_deal", n=len(rec.tricks), left=max(0, left))
        return self._verdict(complete)

    def _deal_hands(self) -> int:
        """Fill the holdings and return how many cards were played.

        Without ``hands`` a seat holds exactly what it plays; those holdings are also the count of the cards
        played, kept for the card-count check (``_seen``) unless the record is a fragment without one.
        """
        rec, eff = self.rec, self.t.eff
        hands, suit_n = self.hands, self.suit_n
        if rec.hands is not None:
            for s in SEATS:
                h, sn = hands[s], suit_n[s]
                for c in rec.hands[s]:
                    h[c] += 1
                    sn[eff[c]] += 1
            return sum(len(c) for tr in rec.tricks for _s, c in tr.plays)
        for tr in rec.tricks:
            for s, cards in tr.plays:
                h, sn = hands[s], suit_n[s]
                for c in cards:
                    h[c] += 1
                    sn[eff[c]] += 1
        per_seat = {s: sum(suit_n[s]) for s in SEATS}
        if not rec.partial:
            n, w, s_, e = (hands[s] for s in SEATS)
            self._played = ([a + b + c + d for a, b, c, d in zip(n, w, s_, e, strict=True)], per_seat)
        return sum(per_seat.values())

    def _over(self, played: int) -> bool:
        """Is the deal played out? The plays and the kitty account for the whole deck, or every seat has played
        a whole hand: then a kitty of the wrong size is the banker's miscount (§8), not a deal stopped early.
        A deal still being recorded (``live``) is waiting for its kitty until the kitty makes the deck whole."""
        rs = self.rec.ruleset
        if played + len(self.rec.kitty) >= 54 * rs.decks:
            return True
        return not self.live and all(n >= rs.hand_size for n in self._seen()[1].values())

    # -- one trick
    def _trick(self, k: int, tr: TrickRecord, due: str | None, more: bool) -> str | None:
        """Judge trick ``k`` (``due``: who should lead it; ``more``: later tricks follow); returns the next leader.

        Four single cards without a throw (most tricks) take a fast path when holdings are not given.
        """
        plays = tr.plays
        if not plays:
            self.add(k, None, "incomplete_trick", n=k + 1, k=0)
            return due
        leader = plays[0][0]
        if due is not None and leader != due:
            self.add(k, leader, "wrong_leader", expected=due)
        order = self.orders[leader]
        np = len(plays)
        if np == 4:
            if plays[1][0] != order[1] or plays[2][0] != order[2] or plays[3][0] != order[3]:
                self._wrong_order(k, plays, order)
            if (
                len(plays[0][1]) == 1
                and len(plays[1][1]) == 1
                and len(plays[2][1]) == 1
                and len(plays[3][1]) == 1
                and tr.throw is None
                and not self.given
            ):
                return self._single_trick(k, plays)
        else:
            if np > 4 or any(plays[i][0] != order[i] for i in range(1, np)):
                self._wrong_order(k, plays, order)
            if np < 4 and more:
                self.add(k, None, "incomplete_trick", n=k + 1, k=np)
        suit, units, shape, failed = self._lead(k, tr)
        self._follow(k, plays, suit, units, shape)
        return self._winner(plays, units, shape, failed)

    def _wrong_order(self, k: int, plays: Any, order: Sequence[str]) -> None:
        """The first play out of turn (or a fifth play) in trick ``k``."""
        for i, (s, _c) in enumerate(plays):
            if i >= 4 or s != order[i]:
                self.add(k, s, "wrong_order", expected=order[i] if i < 4 else "—")
                return

    def _single_trick(self, k: int, plays: Any) -> str:
        """Fast path for a trick of four single cards: follow checks, winner, points in one loop (one card each:
        a follower faults only by playing off the led suit while holding it). Only taken without ``hands``, when
        a seat holds every card it plays, so its counts never go below zero."""
        eff, pos = self.t.eff, self.t.pos
        hands, suit_n = self.hands, self.suit_n
        s, (lead,) = plays[0]
        suit = eff[lead]
        trump_led = suit == TRUMP
        best, best_trump, best_val = 0, trump_led, pos[lead]
        hands[s][lead] -= 1
        suit_n[s][suit] -= 1
        pts = POINTS[lead]
        for i in (1, 2, 3):
            s, (c,) = plays[i]
            e = eff[c]
            sn = suit_n[s]
            h = hands[s]
            if e == suit:
                if pos[c] > best_val and (trump_led or not best_trump):  # a plain card never beats a ruff
                    best, best_val = i, pos[c]
            else:
                if sn[suit]:
                    prob = FollowProblem("revoke_suit", tuple(suit_cards(h, suit, self.t)))
                    self._follow_fault(k, s, prob, (c,), (lead,), suit, [])
                if e == TRUMP and (not best_trump or pos[c] > best_val):
                    best, best_trump, best_val = i, True, pos[c]
            h[c] -= 1
            sn[e] -= 1
            pts += POINTS[c]
        winner: str
        winner, (win_card,) = plays[best]
        summary, fact = _single_result(plays[0][0], winner, pts, win_card in _JACKS)
        self.summaries.append(summary)
        self.facts.append(fact)
        return winner

    def _lead(self, k: int, tr: TrickRecord) -> tuple[int, list[Unit], Shape | None, tuple[str | None, int]]:
        """The lead's suit, units and shape (None when it cannot be followed by shape: mixed or empty), and a
        failed throw's (seat, cards taken back). A lead of several units is a throw: a challenged one is
        checked against its challenge, an unchallenged one must stand against the holdings as far as known."""
        t = self.t
        eff = t.eff
        leader, lead = tr.plays[0]
        if self.given:
            self._held(k, leader, tr.throw.attempted if tr.throw else lead, lead)
        failed: tuple[str | None, int] = (None, 0)
        if len(lead) == 1 and tr.throw is None:
            c = lead[0]
            suit = eff[c]
            units = [Unit(SINGLE, 0, t.pos[c], t.pos[c], lead)]
            shape: Shape | None = _SINGLE_SHAPE
        else:
            suit = eff[lead[0]] if lead else TRUMP
            units, shape = [], None
            if any(eff[c] != suit for c in lead):
                self.add(k, leader, "mixed_lead", cards=show(lead, t))
            elif not lead:
                self.add(k, leader, "play_size", n=0, m="1+")
            else:
                units = decompose(lead, t)
                shape = lead_shape(units, self.rec.ruleset, t)
            if tr.throw is not None:
                failed = self._challenge(k, leader, tr.throw, lead)
            elif len(units) > 1:
                self._unchallenged_throw(k, leader, lead, units, suit)
        self._take(leader, lead)
        return suit, units, shape, failed

    def _unchallenged_throw(
        self, k: int, leader: str, lead: Sequence[Card], units: list[Unit], suit: int
    ) -> None:
        """A throw nobody challenged must be allowed (trumps) and stand against the other holdings."""
        t = self.t
        if suit == TRUMP and not self.rec.ruleset.trump_throws:
            self.add(k, leader, "trump_throw", cards=show(lead, t))
        others = {s: suit_cards(self.hands[s], suit, t) for s in SEATS if s != leader}
        chk = check_throw(units, others, t)
        if not chk.stands:
            beater = chk.beater.cards  # type: ignore[union-attr]
            self.add(
                k,
                leader,
                "throw_should_fail",
                cards=show(lead, t),
                holder=chk.challenger,
                beater=show(beater, t),
            )

    def _follow(self, k: int, plays: Any, suit: int, units: list[Unit], shape: Shape | None) -> None:
        """Each follower against the lead: a single answered by one card needs only the suit count; any other
        lead asks ``follow_problem``; a lead without a shape only fixes the number of cards."""
        t = self.t
        lead = plays[0][1]
        single = shape is _SINGLE_SHAPE
        for s, cards in plays[1:]:
            h = self.hands[s]
            if self.given:
                self._held(k, s, cards, cards)
            prob: FollowProblem | None
            if single and len(cards) == 1:
                if t.eff[cards[0]] != suit and self.suit_n[s][suit]:
                    prob = FollowProblem("revoke_suit", tuple(suit_cards(h, suit, t)))
                    self._follow_fault(k, s, prob, cards, lead, suit, units)
            elif shape is not None:
                prob = follow_problem(h, cards, suit, shape, t, self.exact)
                if prob is not None:
                    self._follow_fault(k, s, prob, cards, lead, suit, units)
            elif len(cards) != len(lead):
                self.add(k, s, "play_size", n=len(cards), m=len(lead))
            self._take(s, cards)

    def _winner(
        self, plays: Any, units: list[Unit], shape: Shape | None, failed: tuple[str | None, int]
    ) -> str | None:
        """Points and the winner (§7), the trick's summary and, when it has a winner, its facts for scoring.
        Returns the winner, who leads next; an unfinished trick (or an empty lead) has none."""
        leader, lead = plays[0]
        card_lists = [cs for _s, cs in plays]
        pts = sum(map(POINTS.__getitem__, chain.from_iterable(card_lists)))
        t = self.t
        name = shape_name(units, t.max_set) if units else ("single" if len(lead) == 1 else "mixed")
        if len(plays) != 4 or not lead:
            self.summaries.append(TrickSummary(leader, None, pts, name))
            return None
        w = winner_index(card_lists, t, shape)
        winner: str = plays[w][0]
        self.summaries.append(TrickSummary(leader, winner, pts, name))
        if shape is _SINGLE_SHAPE:
            facts_lead = _SINGLE_LEAD
        else:  # the largest unit decides the kitty multiplier; of a throw, the unit with the largest (§13.6)
            if not units:
                facts_lead = _SINGLE_LEAD
            elif t.max_set > 2:
                shapes = [self._unit_shape(u, len(units) > 1) for u in units]
                facts_lead = max(shapes, key=lambda ls: kitty_multiplier(self.rec.ruleset, ls))
            else:
                big = largest_unit(units)
                facts_lead = LeadShape(KIND_NAMES[big.kind], big.length, len(units) > 1)
        jack = not _JACKS.isdisjoint(plays[w][1])
        self.facts.append(TrickFacts(leader, winner, pts, facts_lead, failed[0], failed[1], jack))
        return winner

    def _unit_shape(self, u: Unit, is_throw: bool) -> LeadShape:
        """A unit as the kitty multiplier reads it (kind name, length in sets, throw or not, set size)."""
        return LeadShape(shape_name([u], self.t.max_set), u.length, is_throw, u.n if u.kind != SINGLE else 2)

    # -- helpers
    def _take(self, seat: str, cards: Sequence[Card]) -> None:
        """Cards leave the seat's holding (a card it was not known to hold is a fault found elsewhere)."""
        h, sn, eff = self.hands[seat], self.suit_n[seat], self.t.eff
        for c in cards:
            if h[c]:
                h[c] -= 1
                sn[eff[c]] -= 1

    def _held(self, k: int, seat: str, need: Sequence[Card], played: Sequence[Card]) -> None:
        """``not_held`` when the seat's holding lacks some of ``need`` (what it played, or attempted to throw)."""
        missing = _missing(self.hands[seat], need)
        if missing:
            self.add(k, seat, "not_held", cards=show(played, self.t), missing=show(missing, self.t))

    def _follow_fault(
        self,
        k: int,
        s: str,
        prob: FollowProblem,
        cards: Sequence[Card],
        lead: Sequence[Card],
        suit: int,
        units: Sequence[Unit],
    ) -> None:
        """Report a follower's fault, naming the led suit and the lead's kind in both languages."""
        t = self.t
        if prob.code == "play_size":
            self.add(k, s, "play_size", n=len(cards), m=len(lead))
            return
        en, zh = suit_names(suit)
        held = "tractor"
        if t.max_set > 2 and prob.witness:
            held = shape_name(decompose(prob.witness, t)[:1], t.max_set)
        self.add(
            k,
            s,
            prob.code,
            witness=show(prob.witness, t),
            cards=show(cards, t),
            suit=en,
            suit_zh=zh,
            kind=shape_name(units, t.max_set),
            held=held,
        )

    def _challenge(
        self, k: int, leader: str, th: ThrowRecord, lead: Sequence[Card]
    ) -> tuple[str | None, int]:
        """A challenged throw (RULES §5): is the challenge sound, and was the forced unit played? Returns the
        failed throw's (seat, cards taken back), or (None, 0) when it carries no failed-throw penalty."""
        t = self.t
        hands = self.hands
        att = th.attempted
        kw = {"attempted": show(att, t), "challenger": th.challenger}
        if not self.given and self.exact:
            self._held(k, leader, att, att)
        if not att or len({t.eff[c] for c in att}) != 1:
            self.add(k, leader, "mixed_lead", cards=show(att, t))
            return leader, max(0, len(att) - len(lead))
        units = decompose(att, t)
        taken = max(0, len(att) - len(lead))
        if len(units) < 2:
            why, why_zh = challenge_reason("single_unit")
            self.add(k, leader, "bad_challenge", why=why, why_zh=why_zh, **kw)
            return leader, taken
        suit = t.eff[att[0]]
        if suit == TRUMP and not self.rec.ruleset.trump_throws:
            self.add(k, leader, "trump_throw", cards=show(att, t))
        su = shown_unit(th.shown, t)
        reason = None
        if th.challenger == leader:
            reason = "own_throw"
        elif self.exact and _missing(hands[th.challenger], th.shown):
            reason = "not_held"
        elif su is None or t.eff[su.cards[0]] != suit or forced_kind_from(units, su) is None:
            reason = "no_beat"
        if reason is not None:  # the throw was wrongly stopped: no failed-throw penalty for it
            why, why_zh = challenge_reason(reason, challenger=th.challenger, shown=show(th.shown, t))
            self.add(k, leader, "bad_challenge", at=th.challenger, why=why, why_zh=why_zh, **kw)
            taken = 0
        # the forced unit: from every holding when known, else from what was shown
        if self.exact:
            others = {s: suit_cards(hands[s], suit, t) for s in SEATS if s != leader}
            forced = check_throw(units, others, t).forced
        else:
            forced = forced_kind_from(units, su) if su is not None else None
        if forced is not None and not is_forced_unit(lead, forced, att, t):  # or any unit equal to it
            self.add(k, leader, "wrong_forced_unit", forced=show(forced.cards, t), cards=show(lead, t), **kw)
        elif forced is None and not any(sorted(u.cards) == sorted(lead) for u in units):
            self.add(k, leader, "wrong_forced_unit", forced="—", cards=show(lead, t), **kw)
        return (leader, taken) if taken else (None, 0)

    def _verdict(self, complete: bool) -> Verdict:
        """The verdict; a complete deal with a winner for every trick is scored."""
        rec = self.rec
        score = None
        if complete and self.facts and len(self.facts) == len(rec.tricks):
            try:
                score = score_deal(
                    rec.ruleset,
                    banker=rec.banker,
                    level=rec.level,
                    tricks=self.facts,
                    kitty_points=sum(map(POINTS.__getitem__, rec.kitty)),
                    penalties=rec.penalties,
                    levels=rec.levels,
                )
            except ValueError as e:
                raise RecordError(str(e)) from None
        return Verdict(tuple(self.viol), tuple(self.summaries), tuple(self.facts), complete, score)


def judge(record: Mapping[str, Any] | Record, *, live: bool = False) -> Verdict:
    """Judge a DEAL-RECORD object (complete, partial, or a deal so far). ``RecordError`` if unreadable.

    A record not marked ``partial`` must hold the whole deal: one that stops early is ``incomplete_deal``
    (DEAL-RECORD). ``live`` is the site's check of a deal still being recorded: it may stop anywhere."""
    rec = record if isinstance(record, Record) else parse_record(record)
    return _Judge(rec, live).run()


def judge_text(text: str) -> Verdict:
    """Judge a record given as JSON text."""
    try:
        obj = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as e:
        raise RecordError(f"not JSON: {e}") from None
    return judge(obj)
