"""How large a deal record may be, checked before it is read (``record.parse_record`` asks first).

Judging grows with the square of the tricks (22,000 tricks took 8 s), so a record larger than its ruleset allows
is refused at once: more tricks than a hand, more than four plays in a trick, an entry (a play, the kitty, a hand,
a throw) naming more cards than the decks hold, overly long text or penalty lists. A few cards too many in all is a
miscount the verdict reports (``deck_count``, ``card_count``); more than twice the decks is refused here. Each
problem names its culprit without echoing it whole. Types are left to the reader, which names them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .ruleset import Ruleset, RulesetError
from .seats import SEATS

MAX_WORD = 40  # format, ruleset preset, banker, level, trump
MAX_NOTE = 300  # a penalty's note (as the site stores it)
TEXT_PER_CARD = 8  # characters of card text per card, in the loosest notation


class _TooLarge(Exception):
    pass


def size_problem(obj: Mapping[str, Any]) -> str | None:
    """Why the record is larger than its ruleset allows, or None."""
    try:
        _check(obj)
    except _TooLarge as exc:
        return str(exc)
    return None


class _Bounds:
    """The ruleset's sizes: cards the decks hold, and the longest card text of one entry."""

    __slots__ = ("rs", "deck", "longest")

    def __init__(self, rs: Ruleset) -> None:
        self.rs = rs
        self.deck = 54 * rs.decks
        self.longest = TEXT_PER_CARD * self.deck

    def cards(self, value: Any, where: str) -> int:
        """Cards named in one entry (at least its tokens: ``SAAK`` packs three), at most what the decks hold."""
        if isinstance(value, str):
            if len(value) > self.longest:
                raise _TooLarge(f"{where}: {len(value)} characters of cards (at most {self.longest})")
            n = len(value.split())
        elif isinstance(value, list):
            n = len(value) if len(value) > self.deck else sum(self.cards(token, where) for token in value)
        else:
            return 0  # not cards: the reader names it
        if n > self.deck:
            raise _TooLarge(f"{where}: {n} cards, more than {self.rs.decks} decks hold ({self.deck})")
        return n

    def total(self, n: int, where: str) -> None:
        if n > 2 * self.deck:
            raise _TooLarge(f"{where}: {n} cards in all, more than twice what {self.rs.decks} decks hold")


def _check(obj: Mapping[str, Any]) -> None:
    for key in ("format", "ruleset", "banker", "level", "trump"):
        if isinstance(obj.get(key), str) and len(obj[key]) > MAX_WORD:
            raise _TooLarge(f"{key}: {len(obj[key])} characters of text (at most {MAX_WORD})")
    try:
        rs = Ruleset.from_spec(obj.get("ruleset", "standard"))
    except (RulesetError, TypeError, ValueError):
        return  # the reader names it
    bounds = _Bounds(rs)
    kitty = bounds.cards(obj.get("kitty"), "kitty")
    _check_tricks(obj.get("tricks"), bounds, kitty)
    hands = obj.get("hands")
    if isinstance(hands, Mapping):
        bounds.total(kitty + sum(bounds.cards(hands.get(s), f"hands.{s}") for s in SEATS), "hands")
    penalties = obj.get("penalties")
    if isinstance(penalties, list):
        if len(penalties) > 4 * rs.hand_size:
            raise _TooLarge(f"penalties: {len(penalties)} calls (at most {4 * rs.hand_size}, one a play)")
        for i, call in enumerate(penalties):
            note = call.get("note") if isinstance(call, Mapping) else None
            if isinstance(note, str) and len(note) > MAX_NOTE:
                raise _TooLarge(f"penalties[{i}]: a note of {len(note)} characters (at most {MAX_NOTE})")


def _check_tricks(tricks: Any, bounds: _Bounds, kitty: int) -> None:
    """At most a hand of tricks, four plays each, and not far more cards played and buried than the decks hold."""
    if not isinstance(tricks, list):
        return
    hand = bounds.rs.hand_size
    if len(tricks) > hand:
        raise _TooLarge(f"tricks: {len(tricks)} tricks, but a hand of {hand} cards plays at most {hand}")
    played, deck, longest = kitty, bounds.deck, bounds.longest
    for i, trick in enumerate(tricks):
        if trick.__class__ is not dict and not isinstance(trick, Mapping):
            continue  # the reader names it
        plays = trick.get("plays")
        if plays.__class__ is list:
            if len(plays) > 4:
                raise _TooLarge(f"tricks[{i}]: {len(plays)} plays (at most 4)")
            try:  # the usual [seat, text] pairs counted at once (judging is hot); else play by play
                text = " ".join([cards for _seat, cards in plays])
                n = len(text.split()) if len(text) <= longest else deck + 1
            except (TypeError, ValueError):
                n = deck + 1
            played += n if n <= deck else _named_plays(plays, i, bounds)
        throw = trick.get("throw")
        if throw is not None and isinstance(throw, Mapping):
            for key in ("attempted", "shown"):
                bounds.cards(throw.get(key), f"tricks[{i}].throw.{key}")
    bounds.total(played, "tricks")


def _named_plays(plays: list[Any], i: int, bounds: _Bounds) -> int:
    """Cards of one trick's plays counted play by play, so that the culprit is named."""
    return sum(
        bounds.cards(play[1], f"tricks[{i}].plays[{j}]")
        for j, play in enumerate(plays)
        if isinstance(play, list) and len(play) == 2
    )
