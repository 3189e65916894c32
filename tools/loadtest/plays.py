"""The plays of a simulated deal as the load test's clients enter them, and as the site's replies show them."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from rules.cards import format_cards, parse_cards

TRUMPS = ("S", "H", "C", "D", "NT")


def card_key(seat: str, cards: Iterable[str] | str) -> tuple[str, tuple[str, ...]]:
    """A play as a comparable value: the seat and its cards in canonical text, whatever order they came in."""
    text = cards if isinstance(cards, str) else " ".join(cards)
    return seat, tuple(sorted(format_cards(parse_cards(text)).split()))


@dataclass(frozen=True)
class PlayEntry:
    """One play of a simulated deal, at its place in the deal (counted over all tricks)."""

    position: int
    seat: str
    cards: str
    throw: dict | None = None

    @property
    def key(self) -> tuple[str, tuple[str, ...]]:
        return card_key(self.seat, self.cards)

    def fields(self, version: int) -> dict[str, Any]:
        """The form fields deal.js posts for this play."""
        data: dict[str, Any] = {"seat": self.seat, "cards": self.cards, "version": version}
        if self.throw:
            data.update({f"throw_{k}": v for k, v in self.throw.items()})
        return data


def plays_of(record: dict) -> list[PlayEntry]:
    """The record's plays in the order the judge enters them (a challenged throw goes with its lead)."""
    out: list[PlayEntry] = []
    for trick in record["tricks"]:
        for j, (seat, cards) in enumerate(trick["plays"]):
            out.append(PlayEntry(len(out), seat, cards, trick.get("throw") if j == 0 else None))
    return out


def state_keys(state: dict) -> list[tuple[str, tuple[str, ...]]]:
    """The plays a deal-state reply shows, in order."""
    return [
        card_key(p["seat"], [c["code"] for c in p["cards"]])
        for t in state.get("tricks", [])
        for p in t["plays"]
    ]


def shows_play(state: dict | None, entry: PlayEntry) -> bool:
    """The reply's state already holds this play at its place (a retry whose first try was saved)."""
    if not state:
        return False
    keys = state_keys(state)
    return entry.position < len(keys) and keys[entry.position] == entry.key
