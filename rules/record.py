"""The deal record (DEAL-RECORD ``tractor-deal/1``): read and validate it, then judge the whole deal (RULES §8).

``parse_record`` turns the JSON object into a ``Record`` or raises ``RecordError`` naming the culprit (unknown
or missing field, bad card, unknown preset, bad seat). ``judge`` replays the deal and returns a ``Verdict``.

Holdings: with ``hands`` they are given; otherwise a player's hand before trick *k* is the cards they play from
trick *k* on (RULES §8). That is exact for a complete deal. For a live or partial record it is a lower bound,
so only certain faults are reported (see ``follow``): a card of the led suit played later by a player who did
not follow is a revoke (a void shown, then broken).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import chain
from typing import Any, NamedTuple

from .cards import CARD_SYMBOL, CARD_TEXT, POINTS, Card, CardError, parse_cards
from .facts import LeadShape, PenaltyCall, TrickFacts
from .follow import FollowProblem, follow_problem, suit_cards
from .limits import size_problem
from .messages import message, show, suit_names
from .order import TRUMP, Trump, trump_from_text
from .ranks import parse_rank
from .ruleset import Ruleset, RulesetError
from .scoring import PENALTY_CODES
from .seats import SEATS, play_order, side_of
from .throw import check_throw, forced_kind_from, shown_unit
from .trick import winner_index
from .units import KIND_NAMES, SINGLE, Shape, Unit, decompose, largest_unit, shape_name, shape_of_units

FORMAT = "tractor-deal/1"
FIELDS = {
    "format",
    "ruleset",
    "banker",
    "level",
    "trump",
    "kitty",
    "levels",
    "hands",
    "partial",
    "tricks",
    "penalties",
}
REQUIRED = ("format", "banker", "level", "trump", "tricks")
TRICK_FIELDS = {"plays", "throw"}
THROW_FIELDS = {"attempted", "challenger", "shown"}
PENALTY_FIELDS = {"seat", "code", "trick", "note"}


class RecordError(ValueError):
    """An unreadable record; the message names the culprit."""


@dataclass(frozen=True, slots=True)
class ThrowRecord:
    attempted: tuple[Card, ...]
    challenger: str
    shown: tuple[Card, ...]


class TrickRecord(NamedTuple):
    """One trick as recorded (a named tuple: many are built per deal)."""

    plays: tuple[tuple[str, tuple[Card, ...]], ...]
    throw: ThrowRecord | None = None


@dataclass(frozen=True, slots=True)
class Record:
    ruleset: Ruleset
    banker: str
    level: str
    trump: Trump
    tricks: tuple[TrickRecord, ...]
    kitty: tuple[Card, ...] = ()
    hands: Mapping[str, tuple[Card, ...]] | None = None
    partial: bool = False
    levels: Mapping[str, str] | None = None
    penalties: tuple[PenaltyCall, ...] = ()


# ------------------------------------------------------------------ parsing


_SEAT_SET = frozenset(SEATS)


def _seat(value: Any, where: str) -> str:
    if value.__class__ is str and value in _SEAT_SET:
        return value
    if not isinstance(value, str) or value.strip().upper() not in SEATS:
        raise RecordError(f"{where}: bad seat {value!r} (N, W, S or E)")
    return value.strip().upper()


def _cards(value: Any, where: str) -> tuple[Card, ...]:
    if value is None:
        return ()
    if value.__class__ is str:
        try:
            return parse_cards(value)
        except CardError as e:
            raise RecordError(f"{where}: {e}") from None
    if not isinstance(value, (str, list)):
        raise RecordError(f"{where}: cards must be text, not {type(value).__name__}")
    try:
        return parse_cards(value)
    except CardError as e:
        raise RecordError(f"{where}: {e}") from None


def _only(obj: Any, allowed: set[str], where: str) -> Mapping[str, Any]:
    if not isinstance(obj, Mapping):
        raise RecordError(f"{where} must be an object")
    for key in obj:
        if key not in allowed:
            raise RecordError(f"{where}: unknown field {key!r}")
    return obj


def parse_record(obj: Any) -> Record:
    """Validate a DEAL-RECORD object; ``RecordError`` names the first culprit."""
    if isinstance(obj, Mapping) and (too_large := size_problem(obj)):
        raise RecordError(too_large)
    if isinstance(obj, Mapping) and "format" in obj and obj["format"] != FORMAT:
        raise RecordError(f"unknown format {obj['format']!r} (expected {FORMAT!r})")
    obj = _only(obj, FIELDS, "record")
    for key in REQUIRED:
        if key not in obj:
            raise RecordError(f"record: missing field {key!r}")
    try:
        rs = Ruleset.from_spec(obj.get("ruleset", "standard"))
    except (RulesetError, TypeError, ValueError) as e:
        raise RecordError(f"ruleset: {e}") from None
    banker = _seat(obj["banker"], "banker")
    try:
        level = parse_rank(obj["level"])
    except ValueError:
        raise RecordError(f"level: unknown rank {obj['level']!r}") from None
    if not isinstance(obj["trump"], str):
        raise RecordError(f"trump: unknown trump {obj['trump']!r}")
    try:
        trump = trump_from_text(level, obj["trump"], rs.permanent_twos)
    except ValueError:
        raise RecordError(f"trump: unknown trump {obj['trump']!r} (S, H, C, D or NT)") from None
    partial = obj.get("partial", False)
    if not isinstance(partial, bool):
        raise RecordError(f"partial: must be true or false, not {partial!r}")
    kitty = _cards(obj.get("kitty"), "kitty")
    hands = None
    if obj.get("hands") is not None:
        raw = _only(obj["hands"], set(SEATS), "hands")
        for s in SEATS:
            if s not in raw:
                raise RecordError(f"hands: missing seat {s!r}")
        hands = {s: _cards(raw[s], f"hands.{s}") for s in SEATS}
    levels = None
    if obj.get("levels") is not None:
        raw = _only(obj["levels"], {"NS", "EW"}, "levels")
        try:
            levels = {side: parse_rank(raw[side]) for side in ("NS", "EW")}
        except KeyError as e:
            raise RecordError(f"levels: missing side {e.args[0]!r}") from None
        except ValueError:
            raise RecordError(f"levels: unknown rank in {dict(raw)!r}") from None
        if levels[side_of(banker)] != level:
            raise RecordError(
                f"levels: the banker side is at {levels[side_of(banker)]!r} but level is {level!r}"
            )
    if not isinstance(obj["tricks"], list):
        raise RecordError("tricks must be a list")
    tricks = _tricks(obj["tricks"])
    penalties = _penalties(obj.get("penalties"))
    if not partial and "kitty" not in obj:
        raise RecordError("record: missing field 'kitty' (needed unless partial)")
    return Record(rs, banker, level, trump, tricks, kitty, hands, partial, levels, penalties)


_ONE = {CARD_TEXT[c]: c for c in range(54)}
_PLAY_CACHE: dict[str, tuple[Card, ...]] = {}
_THROW_KEYS = frozenset(THROW_FIELDS)


def _canonical(text: Any) -> tuple[Card, ...]:
    """Cards in canonical text, through the cache; anything else raises for the slow path."""
    parsed = _PLAY_CACHE.get(text)
    if parsed is None:
        parsed = tuple(map(_ONE.__getitem__, text.split()))
        if len(_PLAY_CACHE) > 50_000:
            _PLAY_CACHE.clear()
        _PLAY_CACHE[text] = parsed
    return parsed


def _fast_plays(raw: list[Any]) -> tuple[tuple[str, tuple[Card, ...]], ...]:
    """Plays in canonical text (what the site and simulator write); any surprise raises for the slow path."""
    out = []
    cache = _PLAY_CACHE
    for p in raw:
        if p.__class__ is not list or len(p) != 2:
            raise ValueError
        seat, cards = p
        if seat.__class__ is not str or seat not in _SEAT_SET:
            raise ValueError
        parsed = cache.get(cards)
        out.append((seat, parsed if parsed is not None else _canonical(cards)))
    return tuple(out)


def _fast_throw(th: Any) -> ThrowRecord:
    """A canonical ``throw`` object (as the simulator writes it); any surprise raises for the slow path."""
    if th.__class__ is not dict or th.keys() != _THROW_KEYS:
        raise ValueError
    seat = th["challenger"]
    if seat.__class__ is not str or seat not in _SEAT_SET:
        raise ValueError
    if th["attempted"].__class__ is not str or th["shown"].__class__ is not str:
        raise ValueError
    return ThrowRecord(_canonical(th["attempted"]), seat, _canonical(th["shown"]))


def _tricks(raw: list[Any]) -> tuple[TrickRecord, ...]:
    """Every trick: canonical ones through the fast path, the rest (and every error) through ``_trick``."""
    out = []
    for i, t in enumerate(raw):
        try:
            if t.__class__ is not dict or t.get("plays").__class__ is not list:
                raise ValueError
            if len(t) == 1:
                out.append(TrickRecord(_fast_plays(t["plays"])))
            elif len(t) == 2 and "throw" in t:
                out.append(TrickRecord(_fast_plays(t["plays"]), _fast_throw(t["throw"])))
            else:
                raise ValueError
        except (ValueError, KeyError, TypeError, AttributeError):
            out.append(_trick(t, i))
    return tuple(out)


def _trick(t: Any, i: int) -> TrickRecord:
    where = f"tricks[{i}]"
    t = _only(t, TRICK_FIELDS, where)
    if "plays" not in t:
        raise RecordError(f"{where}: missing field 'plays'")
    if not isinstance(t["plays"], list):
        raise RecordError(f"{where}.plays must be a list")
    plays = []
    for j, p in enumerate(t["plays"]):
        if not isinstance(p, (list, tuple)) or len(p) != 2:
            raise RecordError(f"{where}.plays[{j}] must be [seat, cards]")
        seat, cards = p
        if seat.__class__ is not str or seat not in _SEAT_SET:
            seat = _seat(seat, f"{where}.plays[{j}]")
        try:
            parsed = (
                parse_cards(cards)
                if cards.__class__ is str
                else _cards(cards, f"{where}.plays[{j}] ({seat})")
            )
        except CardError as e:
            raise RecordError(f"{where}.plays[{j}] ({seat}): {e}") from None
        plays.append((seat, parsed))
    throw = None
    if t.get("throw") is not None:
        th = _only(t["throw"], THROW_FIELDS, f"{where}.throw")
        for key in THROW_FIELDS:
            if key not in th:
                raise RecordError(f"{where}.throw: missing field {key!r}")
        throw = ThrowRecord(
            _cards(th["attempted"], f"{where}.throw.attempted"),
            _seat(th["challenger"], f"{where}.throw.challenger"),
            _cards(th["shown"], f"{where}.throw.shown"),
        )
    return TrickRecord(tuple(plays), throw)


def _penalties(raw: Any) -> tuple[PenaltyCall, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise RecordError("penalties must be a list")
    out = []
    for i, p in enumerate(raw):
        p = _only(p, PENALTY_FIELDS, f"penalties[{i}]")
        if "seat" not in p or "code" not in p:
            raise RecordError(f"penalties[{i}]: needs 'seat' and 'code'")
        if p["code"] not in PENALTY_CODES:
            raise RecordError(f"penalties[{i}]: unknown penalty code {p['code']!r}")
        trick = p.get("trick")
        if trick is not None and (not isinstance(trick, int) or isinstance(trick, bool) or trick < 0):
            raise RecordError(f"penalties[{i}]: bad trick {trick!r}")
        note = p.get("note", "")
        if not isinstance(note, str):
            raise RecordError(f"penalties[{i}]: note must be text")
        out.append(PenaltyCall(_seat(p["seat"], f"penalties[{i}]"), p["code"], trick, note))
    return tuple(out)


# ------------------------------------------------------------------ verdict


@dataclass(frozen=True, slots=True)
class Violation:
    trick: int | None
    seat: str | None
    code: str
    message: str
    message_zh: str

    def as_dict(self) -> dict[str, Any]:
        return {
            "trick": self.trick,
            "seat": self.seat,
            "code": self.code,
            "message": self.message,
            "message_zh": self.message_zh,
        }


class TrickSummary(NamedTuple):
    """The verdict's view of one trick."""

    leader: str
    winner: str | None
    points: int
    lead_shape: str

    def as_dict(self) -> dict[str, Any]:
        return {
            "leader": self.leader,
            "winner": self.winner,
            "points": self.points,
            "lead_shape": self.lead_shape,
        }


@dataclass(frozen=True, slots=True)
class Verdict:
    """The judge's verdict (DEAL-RECORD). ``complete`` false ⇒ ``result`` is None (a live or partial record)."""

    violations: tuple[Violation, ...]
    tricks: tuple[TrickSummary, ...]
    facts: tuple[TrickFacts, ...] = ()
    complete: bool = False
    attackers_points: Mapping[str, int] | None = None
    result: Mapping[str, Any] | None = None
    scored: bool = True  # False when scoring was unavailable: the verdict then omits those keys
    next_leader: str | None = field(default=None)

    @property
    def ok(self) -> bool:
        return not self.violations

    def as_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "ok": self.ok,
            "violations": [v.as_dict() for v in self.violations],
            "tricks": [t.as_dict() for t in self.tricks],
        }
        if self.scored:
            d["attackers_points"] = dict(self.attackers_points) if self.attackers_points is not None else None
            d["result"] = dict(self.result) if self.result is not None else None
        return d


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


class _Judge:
    """One pass over a record; collects violations and trick facts."""

    def __init__(self, rec: Record) -> None:
        self.rec = rec
        self.t = rec.trump
        self.viol: list[Violation] = []
        self._played: dict[str, tuple[list[int], int]] | None = None

    def add(self, trick: int | None, seat: str | None, code: str, at: str | None = None, **kw: Any) -> None:
        """Record a violation; ``at`` is the seat at fault when it differs from the message's ``seat``."""
        en, zh = message(code, seat=seat, **kw)
        self.viol.append(Violation(trick, at or seat, code, en, zh))

    def run(self) -> Verdict:
        rec, t = self.rec, self.t
        eff, pos = t.eff, t.pos
        decks = rec.ruleset.decks
        kitty_size, hand_size = rec.ruleset.kitty_size, rec.ruleset.hand_size
        played_total = 0
        last_full = bool(rec.tricks) and len(rec.tricks[-1].plays) == 4
        given = rec.hands is not None
        # holdings (card counts) and, per seat, how many cards of each effective suit
        hands: dict[str, list[int]] = {s: [0] * 54 for s in SEATS}
        suit_n: dict[str, list[int]] = {s: [0] * 5 for s in SEATS}
        if given:
            played_total = sum(len(c) for tr in rec.tricks for _s, c in tr.plays)
            for s in SEATS:
                h, sn = hands[s], suit_n[s]
                for c in rec.hands[s]:  # type: ignore[index]
                    h[c] += 1
                    sn[eff[c]] += 1
        else:
            for tr in rec.tricks:
                for s, cards in tr.plays:
                    h, sn = hands[s], suit_n[s]
                    played_total += len(cards)
                    for c in cards:
                        h[c] += 1
                        sn[eff[c]] += 1
            # before any play, the reconstructed hands are exactly what each seat plays: keep them for the counts
            self._played = {s: (hands[s][:], sum(suit_n[s])) for s in SEATS}
        complete = not rec.partial and last_full and played_total + len(rec.kitty) >= 54 * decks
        exact = given or complete
        clockwise = rec.ruleset.clockwise
        trump_throws = rec.ruleset.trump_throws
        expected_leader: str | None = rec.banker
        summaries: list[TrickSummary] = []
        facts: list[TrickFacts] = []
        n_tricks = len(rec.tricks)
        add = self.add
        orders = _ORDERS[clockwise]
        for k, tr in enumerate(rec.tricks):
            plays = tr.plays
            if not plays:
                add(k, None, "incomplete_trick", n=k + 1, k=0)
                continue
            leader, lead = plays[0]
            if expected_leader is not None and leader != expected_leader:
                add(k, leader, "wrong_leader", expected=expected_leader)
            order = orders[leader]
            np = len(plays)
            if np == 4:
                if plays[1][0] != order[1] or plays[2][0] != order[2] or plays[3][0] != order[3]:
                    self._wrong_order(k, plays, order)
            else:
                if np > 4 or any(plays[i][0] != order[i] for i in range(1, np)):
                    self._wrong_order(k, plays, order)
                if np < 4 and k < n_tricks - 1:
                    add(k, None, "incomplete_trick", n=k + 1, k=np)
            if (
                np == 4
                and len(lead) == 1
                and len(plays[1][1]) == 1
                and len(plays[2][1]) == 1
                and len(plays[3][1]) == 1
                and tr.throw is None
                and not given
            ):
                winner, pts, w = self._single_trick(k, plays, hands, suit_n)
                expected_leader = winner
                summary, fact = _single_result(leader, winner, pts, plays[w][1][0] in _JACKS)
                summaries.append(summary)
                facts.append(fact)
                continue
            # ---- the lead
            if given:
                self._held(k, leader, hands[leader], tr.throw.attempted if tr.throw else lead, lead)
            failed_seat, taken_back = None, 0
            if len(lead) == 1 and tr.throw is None:
                c0 = lead[0]
                suit = eff[c0]
                units = [Unit(SINGLE, 0, pos[c0], pos[c0], lead)]
                shape = _SINGLE_SHAPE
            else:
                suit = eff[lead[0]] if lead else TRUMP
                if any(eff[c] != suit for c in lead):
                    add(k, leader, "mixed_lead", cards=show(lead, t))
                    units, shape = [], None
                elif not lead:
                    add(k, leader, "play_size", n=0, m="1+")
                    units, shape = [], None
                else:
                    units = decompose(lead, t)
                    shape = shape_of_units(units)
                if tr.throw is not None:
                    failed_seat, taken_back = self._challenge(k, leader, tr.throw, lead, hands, exact)
                elif len(units) > 1:
                    if suit == TRUMP and not trump_throws:
                        add(k, leader, "trump_throw", cards=show(lead, t))
                    others = {s: self._suit_cards(hands[s], suit) for s in SEATS if s != leader}
                    chk = check_throw(units, others, t)
                    if not chk.stands:
                        add(
                            k,
                            leader,
                            "throw_should_fail",
                            cards=show(lead, t),
                            holder=chk.challenger,
                            beater=show(chk.beater.cards, t),
                        )  # type: ignore[union-attr]
            h, sn = hands[leader], suit_n[leader]
            for c in lead:
                if h[c]:
                    h[c] -= 1
                    sn[eff[c]] -= 1
            # ---- the followers
            single = shape is _SINGLE_SHAPE
            for s, cards in plays[1:]:
                h = hands[s]
                if given:
                    self._held(k, s, h, cards, cards)
                if single and len(cards) == 1:
                    if eff[cards[0]] != suit and suit_n[s][suit]:
                        self._follow_fault(
                            k,
                            s,
                            FollowProblem("revoke_suit", tuple(self._suit_cards(h, suit))),
                            cards,
                            lead,
                            suit,
                            units,
                        )
                elif shape is not None:
                    prob = follow_problem(h, cards, suit, shape, t, exact)
                    if prob is not None:
                        self._follow_fault(k, s, prob, cards, lead, suit, units)
                elif len(cards) != len(lead):
                    add(k, s, "play_size", n=len(cards), m=len(lead))
                sn = suit_n[s]
                for c in cards:
                    if h[c]:
                        h[c] -= 1
                        sn[eff[c]] -= 1
            # ---- who wins
            card_lists = [cs for _s, cs in plays]
            pts = sum(map(POINTS.__getitem__, chain.from_iterable(card_lists)))
            if np == 4 and lead:
                w = winner_index(card_lists, t, shape)
                winner = plays[w][0]
                expected_leader = winner
            else:
                winner = None
                expected_leader = None
            name = shape_name(units) if units else ("single" if len(lead) == 1 else "mixed")
            summaries.append(TrickSummary(leader, winner, pts, name))
            if winner is not None:
                if single:
                    ls = _SINGLE_LEAD
                else:
                    big = largest_unit(units) if units else None
                    ls = LeadShape(
                        KIND_NAMES[big.kind] if big else "single", big.length if big else 0, len(units) > 1
                    )
                jack = not _JACKS.isdisjoint(plays[w][1])
                facts.append(TrickFacts(leader, winner, pts, ls, failed_seat, taken_back, jack))
        if complete:
            self._counts(kitty_size, hand_size, decks)
        elif not rec.partial:
            self._overused(kitty_size, hand_size, decks)
        return self._verdict(summaries, facts, complete, expected_leader)

    # -- helpers
    def _wrong_order(self, k: int, plays: Any, order: Sequence[str]) -> None:
        """The first play out of turn (or a fifth play) in trick ``k``."""
        for i, (s, _c) in enumerate(plays):
            if i >= 4 or s != order[i]:
                self.add(k, s, "wrong_order", expected=order[i] if i < 4 else "—")
                return

    def _single_trick(
        self, k: int, plays: Any, hands: dict[str, list[int]], suit_n: dict[str, list[int]]
    ) -> tuple[str, int, int]:
        """Fast path for a trick of four single cards (most tricks): follow checks, winner, points."""
        eff, pos = self.t.eff, self.t.pos
        s, (lead,) = plays[0]
        suit = eff[lead]
        trump_led = suit == TRUMP
        best, best_trump, best_val = 0, trump_led, pos[lead]
        h = hands[s]
        if h[lead]:
            h[lead] -= 1
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
                    prob = FollowProblem("revoke_suit", tuple(self._suit_cards(h, suit)))
                    self._follow_fault(k, s, prob, (c,), (lead,), suit, [])
                if e == TRUMP and (not best_trump or pos[c] > best_val):
                    best, best_trump, best_val = i, True, pos[c]
            if h[c]:
                h[c] -= 1
                sn[e] -= 1
            pts += POINTS[c]
        return plays[best][0], pts, best

    def _suit_cards(self, hand: list[int], suit: int) -> list[Card]:
        return suit_cards(hand, suit, self.t)

    def _remove(self, hand: list[int], suit_n: list[int], cards: Sequence[Card]) -> None:
        eff = self.t.eff
        for c in cards:
            if hand[c]:
                hand[c] -= 1
                suit_n[eff[c]] -= 1

    def _held(self, k: int, seat: str, hand: list[int], need: Sequence[Card], played: Sequence[Card]) -> None:
        missing = []
        want: dict[Card, int] = {}
        for c in need:
            want[c] = want.get(c, 0) + 1
        for c, n in want.items():
            if hand[c] < n:
                missing += [c] * (n - hand[c])
        if missing:
            self.add(k, seat, "not_held", cards=show(played, self.t), missing=show(missing, self.t))

    def _follow_fault(self, k, s, prob, cards, lead, suit, units) -> None:  # type: ignore[no-untyped-def]
        t = self.t
        if prob.code == "play_size":
            self.add(k, s, "play_size", n=len(cards), m=len(lead))
            return
        en, zh = suit_names(suit)
        self.add(
            k,
            s,
            prob.code,
            witness=show(prob.witness, t),
            cards=show(cards, t),
            suit=en,
            suit_zh=zh,
            kind=shape_name(units),
        )

    def _challenge(
        self,
        k: int,
        leader: str,
        th: ThrowRecord,
        lead: Sequence[Card],
        hands: Mapping[str, list[int]],
        exact: bool,
    ) -> tuple[str | None, int]:
        t = self.t
        att = th.attempted
        kw = {"attempted": show(att, t), "challenger": th.challenger}
        if self.rec.hands is None and exact:
            self._held(k, leader, hands[leader], att, att)
        if not att or len({t.eff[c] for c in att}) != 1:
            self.add(k, leader, "mixed_lead", cards=show(att, t))
            return leader, max(0, len(att) - len(lead))
        units = decompose(att, t)
        taken = max(0, len(att) - len(lead))
        if len(units) < 2:
            self.add(
                k,
                leader,
                "bad_challenge",
                why="the attempt is a single unit, not a throw",
                why_zh="所出的牌只是一个牌型，不是甩牌",
                **kw,
            )
            return leader, taken
        suit = t.eff[att[0]]
        if suit == TRUMP and not self.rec.ruleset.trump_throws:
            self.add(k, leader, "trump_throw", cards=show(att, t))
        su = shown_unit(th.shown, t)
        bad = None
        if th.challenger == leader:
            bad = ("the thrower cannot challenge their own throw", "甩牌者不能否决自己的甩牌")
        if bad is None and exact:
            h = hands[th.challenger]
            need: dict[Card, int] = {}
            for c in th.shown:
                need[c] = need.get(c, 0) + 1
            if any(h[c] < n for c, n in need.items()):
                bad = (
                    f"{th.challenger} did not hold {show(th.shown, t)}",
                    f"{th.challenger} 并未持有 {show(th.shown, t)}",
                )
        if bad is None and (su is None or t.eff[su.cards[0]] != suit or forced_kind_from(units, su) is None):
            bad = (
                f"{show(th.shown, t)} does not beat any unit of the throw",
                f"{show(th.shown, t)} 大不过甩牌中的任何一个牌型",
            )
        if bad is not None:  # the throw was wrongly stopped: no failed-throw penalty for it
            self.add(k, leader, "bad_challenge", at=th.challenger, why=bad[0], why_zh=bad[1], **kw)
            taken = 0
        # the forced unit: from every holding when known, else from what was shown
        if exact:
            others = {s: self._suit_cards(hands[s], suit) for s in SEATS if s != leader}
            forced = check_throw(units, others, t).forced
        else:
            forced = forced_kind_from(units, su) if su is not None else None
        equal = [
            sorted(u.cards)
            for u in units
            if forced is not None
            and u.kind == forced.kind
            and (u.length, u.top) == (forced.length, forced.top)
        ]  # equal units: any one may be played
        if forced is not None and sorted(lead) not in equal:
            self.add(k, leader, "wrong_forced_unit", forced=show(forced.cards, t), cards=show(lead, t), **kw)
        elif forced is None and not any(sorted(u.cards) == sorted(lead) for u in units):
            self.add(k, leader, "wrong_forced_unit", forced="—", cards=show(lead, t), **kw)
        return (leader, taken) if taken else (None, 0)

    def _counts(self, kitty_size: int, hand_size: int, decks: int) -> None:
        rec = self.rec
        if self._played is not None:
            n, w, s_, e = (self._played[s][0] for s in SEATS)
            counts = [a + b + c + d for a, b, c, d in zip(n, w, s_, e, strict=True)]
            per_seat = {s: self._played[s][1] for s in SEATS}
        else:
            counts = [0] * 54
            per_seat = dict.fromkeys(SEATS, 0)
            for tr in rec.tricks:
                for s, cards in tr.plays:
                    per_seat[s] += len(cards)
                    for c in cards:
                        counts[c] += 1
        if rec.hands is not None:
            for s in SEATS:
                if len(rec.hands[s]) != hand_size:
                    self.add(None, s, "card_count", n=len(rec.hands[s]), expected=hand_size)
        for s in SEATS:
            if per_seat[s] != hand_size:
                self.add(None, s, "card_count", n=per_seat[s], expected=hand_size)
        if len(rec.kitty) != kitty_size:
            en, zh = message("kitty_count", n=len(rec.kitty), expected=kitty_size)
            self.viol.append(Violation(None, rec.banker, "card_count", en, zh))
        for c in rec.kitty:
            counts[c] += 1
        for c in range(54):
            if counts[c] != decks:
                self.add(None, None, "deck_count", card=CARD_SYMBOL[c], n=counts[c], decks=decks)

    def _overused(self, kitty_size: int, hand_size: int, decks: int) -> None:
        """A deal in progress: only what is already certain — a card seen more than ``decks`` times, a seat or
        kitty holding more cards than a hand."""
        rec = self.rec
        counts = [0] * 54
        per_seat = dict.fromkeys(SEATS, 0)
        for tr in rec.tricks:
            for s, cards in tr.plays:
                per_seat[s] += len(cards)
                for c in cards:
                    counts[c] += 1
        for s in SEATS:
            if per_seat[s] > hand_size:
                self.add(None, s, "card_count", n=per_seat[s], expected=hand_size)
        if len(rec.kitty) > kitty_size:
            en, zh = message("kitty_count", n=len(rec.kitty), expected=kitty_size)
            self.viol.append(Violation(None, rec.banker, "card_count", en, zh))
        for c in rec.kitty:
            counts[c] += 1
        for c in range(54):
            if counts[c] > decks:
                self.add(None, None, "deck_count", card=CARD_SYMBOL[c], n=counts[c], decks=decks)

    def _verdict(
        self, summaries: list[TrickSummary], facts: list[TrickFacts], complete: bool, next_leader: str | None
    ) -> Verdict:
        rec = self.rec
        ap = result = None
        scored = True
        if complete and facts and len(facts) == len(rec.tricks):
            try:
                from .scoring import score_deal
            except ImportError:  # pragma: no cover - the other half of the engine not installed
                scored = False
            else:
                try:
                    ds = score_deal(
                        rec.ruleset,
                        banker=rec.banker,
                        level=rec.level,
                        tricks=facts,
                        kitty_points=sum(POINTS[c] for c in rec.kitty),
                        penalties=rec.penalties,
                        levels=rec.levels,
                    )
                except ValueError as e:
                    raise RecordError(str(e)) from None
                ap, result = ds.attackers_points.as_dict(), ds.result.as_dict()
        return Verdict(
            tuple(self.viol), tuple(summaries), tuple(facts), complete, ap, result, scored, next_leader
        )


def judge_record(rec: Record) -> Verdict:
    return _Judge(rec).run()


def judge(record: Mapping[str, Any] | Record) -> Verdict:
    """Judge a DEAL-RECORD object (complete, partial, or a deal so far). ``RecordError`` if unreadable."""
    rec = record if isinstance(record, Record) else parse_record(record)
    return _Judge(rec).run()


def judge_text(text: str) -> Verdict:
    """Judge a record given as JSON text."""
    try:
        obj = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as e:
        raise RecordError(f"not JSON: {e}") from None
    return judge(obj)


__all__ = ["Record", "RecordError", "Verdict", "Violation", "judge", "judge_text", "parse_record"]
