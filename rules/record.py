"""The deal record (DEAL-RECORD ``tractor-deal/1``): read and validate it; ``rules.judge`` judges it.

``parse_record`` turns the JSON object into a ``Record`` or raises ``RecordError`` naming the culprit (unknown
or missing field, bad card, unknown preset, bad seat). Canonical text (what the site and the simulator write)
is read through a fast path; anything else, and every error, through the tolerant one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from .cards import CARD_BY_TEXT, Card, CardError, parse_cards
from .facts import PenaltyCall
from .limits import size_problem
from .order import Trump
from .ranks import parse_rank
from .ruleset import Ruleset, RulesetError
from .scoring import PENALTY_CODES
from .seats import SEATS, side_of

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
    """A challenged throw: what was attempted, who challenged, and the unit shown to beat it."""

    attempted: tuple[Card, ...]
    challenger: str
    shown: tuple[Card, ...]


class TrickRecord(NamedTuple):
    """One trick as recorded (a named tuple: many are built per deal)."""

    plays: tuple[tuple[str, tuple[Card, ...]], ...]
    throw: ThrowRecord | None = None


@dataclass(frozen=True, slots=True)
class Record:
    """A record read and checked field by field; ``rules.judge`` checks the play."""

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
        trump = rs.trump(level, obj["trump"])
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
    if not partial and "kitty" not in obj and rs.kitty_size:
        raise RecordError("record: missing field 'kitty' (needed unless partial or the ruleset has no kitty)")
    return Record(rs, banker, level, trump, tricks, kitty, hands, partial, levels, penalties)


_PLAY_CACHE: dict[str, tuple[Card, ...]] = {}
_THROW_KEYS = frozenset(THROW_FIELDS)


def _canonical(text: Any) -> tuple[Card, ...]:
    """Cards in canonical text, through the cache; anything else raises for the slow path."""
    parsed = _PLAY_CACHE.get(text)
    if parsed is None:
        parsed = tuple(map(CARD_BY_TEXT.__getitem__, text.split()))
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
            plays = t.get("plays") if t.__class__ is dict else None
            if plays.__class__ is not list:
                raise ValueError
            if len(t) == 1:
                out.append(TrickRecord(_fast_plays(plays)))
            elif len(t) == 2 and "throw" in t:
                out.append(TrickRecord(_fast_plays(plays), _fast_throw(t["throw"])))
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
