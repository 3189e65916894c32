"""Throws (甩牌, RULES §5): does a throw stand, the forced unit of a failed one, checking a challenge.

A unit of the throw is beaten by a holding of the same effective suit that has a unit of the same kind above
it: a higher single, a higher pair, or a tractor at least as long whose lowest pair (of the part set against
it) is higher. Being able to ruff never blocks a throw, so only cards of the throw's suit matter.

Failed throw (RULES §5): among the units another player can beat, those of the highest kind — longer tractors
before shorter ones, tractors before pairs, pairs before singles (``Unit.rank_key``) — and of them the lowest.
♠AAKK + ♠665544 challenged by ♠998877 → 665544. Seed 002 《牌类游戏拖拉机》: ♠98844 fails to 44 against
♠QQ or ♠55, else to 9 against ♠J.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from .cards import Card, card_counts
from .order import Trump
from .sets import beating_set
from .units import PAIR, SINGLE, TRACTOR, Unit, decompose, pair_positions, take_runs


def beating_unit(unit: Unit, holding: Sequence[Card], trump: Trump) -> Unit | None:
    """A unit of ``holding`` (cards of the unit's effective suit) that beats ``unit``, or None: the lowest
    higher single for a single (any number of decks); a pair or tractor here, sets and chains of three or four
    decks by ``sets.beating_set``."""
    pos = trump.pos
    if unit.kind == SINGLE:
        higher = [c for c in holding if pos[c] > unit.top]
        if not higher:
            return None
        c = min(higher, key=pos.__getitem__)
        return Unit(SINGLE, 0, pos[c], pos[c], (c,))
    if trump.max_set > 2:
        return beating_set(unit, holding, trump)
    by_pos = pair_positions(holding, trump)
    if unit.kind == PAIR:
        above = [p for p in by_pos if p > unit.top]
        if not above:
            return None
        p = min(above)
        c = by_pos[p][0]
        return Unit(PAIR, 1, p, p, (c, c))
    t = unit.length
    for run in take_runs(by_pos):  # low → high
        if len(run) >= t and run[-t][0] > unit.low:
            piece = run[-t:]
            cards = tuple(c for _p, c in reversed(piece) for _ in range(2))
            return Unit(TRACTOR, t, piece[-1][0], piece[0][0], cards)
    return None


class ThrowCheck(NamedTuple):
    stands: bool
    forced: Unit | None  # the unit the thrower must play when it fails
    challenger: str | None  # a seat holding a unit that beats the forced kind
    beater: Unit | None


def check_throw(units: Sequence[Unit], others: Mapping[str, Sequence[Card]], trump: Trump) -> ThrowCheck:
    """Against the other players' holdings of the throw's suit (seat → cards): does it stand, what is forced."""
    # highest kind first, lowest unit first within a kind: the first unit someone can beat is the forced one
    for u in sorted(units, key=_forced_order):
        for seat, holding in others.items():
            b = beating_unit(u, holding, trump)
            if b is not None:
                return ThrowCheck(False, u, seat, b)
    return ThrowCheck(True, None, None, None)


def _forced_order(u: Unit) -> tuple[int, int, int]:
    n, length = u.rank_key
    return (-n, -length, u.top)


def forced_kind_from(units: Sequence[Unit], shown: Unit) -> Unit | None:
    """The unit forced when ``shown`` is the beating unit known: of the units it beats, the lowest of the
    highest kind."""
    beaten = [u for u in units if _beats(shown, u)]
    if not beaten:
        return None
    return min(beaten, key=_forced_order)


def _beats(b: Unit, u: Unit) -> bool:
    """``b`` beats ``u``: the same kind of unit with sets at least as large (♠AAA blocks ♠KK, §13.6), higher."""
    if b.kind != u.kind or b.n < u.n:
        return False
    if u.kind == TRACTOR:
        return b.length >= u.length and b.top - u.length + 1 > u.low
    return b.top > u.top


def is_forced_unit(played: Sequence[Card], forced: Unit, attempted: Sequence[Card], trump: Trump) -> bool:
    """``played`` is the forced unit or a unit equal to it formed from the attempted cards: equal cards never
    beat each other (§3), so of equal units none is lower and any one of them is "the lowest" (§5). ♥AA ♠55 ♦55
    at level 5 (♥ trump) holds the equal tractors ♥AA♠55 and ♥AA♦55, and the equal pairs ♠55 and ♦55."""
    if sorted(played) == sorted(forced.cards):
        return True
    held = card_counts(attempted)
    if any(held.get(c, 0) < n for c, n in card_counts(played).items()):
        return False
    units = decompose(played, trump)
    return len(units) == 1 and _equal(units[0], forced)


def _equal(a: Unit, b: Unit) -> bool:
    """Units of one kind at the same positions: neither beats the other."""
    return (a.kind, a.rank_key, a.top, a.low) == (b.kind, b.rank_key, b.top, b.low)


def shown_unit(shown: Sequence[Card], trump: Trump) -> Unit | None:
    """The shown cards as one unit (single, pair or tractor of one effective suit), else None."""
    if not shown or len({trump.eff[c] for c in shown}) != 1:
        return None
    units = decompose(shown, trump)
    return units[0] if len(units) == 1 else None
