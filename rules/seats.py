"""Seats and sides (RULES §1): N, W, S, E; partners N–S and E–W; play counter-clockwise N → W → S → E."""

from __future__ import annotations

SEATS: tuple[str, ...] = ("N", "W", "S", "E")
SIDES: tuple[str, ...] = ("NS", "EW")


def side_of(seat: str) -> str:
    """The partnership a seat belongs to: ``"NS"`` or ``"EW"``."""
    return "NS" if seat in ("N", "S") else "EW"


def other_side(side: str) -> str:
    return "EW" if side == "NS" else "NS"


def partner(seat: str) -> str:
    return {"N": "S", "S": "N", "E": "W", "W": "E"}[seat]


def next_seat(seat: str, clockwise: bool = False) -> str:
    """The next player (下家); counter-clockwise N → W → S → E unless the ruleset says clockwise."""
    i = SEATS.index(seat)
    return SEATS[(i - 1) % 4] if clockwise else SEATS[(i + 1) % 4]


def play_order(leader: str, clockwise: bool = False) -> tuple[str, ...]:
    """The four seats in playing order starting from the leader."""
    order = [leader]
    for _ in range(3):
        order.append(next_seat(order[-1], clockwise))
    return tuple(order)
