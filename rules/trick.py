"""Who wins a trick (RULES §7).

A later play can win only if all its cards are of the led suit or all are trump *and* it has the lead's shape:
it covers every tractor pair of the lead with tractors of its own and holds at least as many pairs (seed 002
《牌类游戏拖拉机》: 主牌 998872 可毙副牌 AK5544，但不能毙副牌 AA5544). The *deciding unit* is the
lead's highest kind — its longest tractor, else pair, else single — and each play is valued by its largest
unit of that kind (a tractor at least that long, by its highest pair). The shape may come from *any*
arrangement of the play's pairs (♥AA ♠55 ♦55 ♥55 at level 5 is two tractors). A trump play beats a plain winner; otherwise it must be strictly higher:
equal stays with the earlier play (先出者为大; seed: 977 毙 544, 884 盖毙; on 567, 884 cannot overruff 977).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .cards import Card
from .order import TRUMP, Trump
from .sets import strength
from .units import PAIR, SINGLE, TRACTOR, Shape, cover_by_pos, decompose, pair_positions, shape_of_units


def deciding_value(cards: Sequence[Card], kind: int, trump: Trump, length: int = 2) -> int:
    """The position of the play's largest unit of ``kind`` (−1 when it has none); for a tractor, the highest
    top pair of a tractor at least ``length`` long (the lead's longest tractor decides, RULES §7)."""
    pos = trump.pos
    if kind == SINGLE:
        return max(pos[c] for c in cards)
    by_pos = pair_positions(cards, trump)
    if not by_pos:
        return -1
    if kind == PAIR:
        return max(by_pos)
    return _top_of_length(by_pos, length)


def _top_of_length(by_pos: dict[int, list[Card]], length: int) -> int:
    """The highest top position of a run of consecutive pair positions at least ``length`` long (−1: none).
    Positions are taken once each: pairs sharing a position (♠55 ♦55) stand at one step of a chain."""
    best = -1
    run = 0
    prev = None
    for p in sorted(by_pos):
        run = run + 1 if prev is not None and p == prev + 1 else 1
        if run >= length:
            best = p
        prev = p
    return best


def lead_kind(shape: Shape) -> int:
    return TRACTOR if shape.tractors else PAIR if shape.pairs else SINGLE


def _shaped_value(cards: Sequence[Card], shape: Shape, trump: Trump, lead: bool = False) -> int | None:
    """``deciding_value`` of a play that has the lead's shape (§7), else None: both read from one count of its
    pairs. The shape: it covers every tractor pair of the lead with tractors and holds as many pairs. The lead
    (``lead``) has its own shape."""
    if lead:
        kind = lead_kind(shape)
        return deciding_value(cards, kind, trump, shape.tractors[0] if shape.tractors else 2)
    if not shape.pairs:
        return max(trump.pos[c] for c in cards)  # no pairs asked for: the kind is SINGLE
    by_pos = pair_positions(cards, trump)
    if sum(len(v) for v in by_pos.values()) < shape.pairs:
        return None
    if not shape.tractors:
        return max(by_pos)
    if cover_by_pos(shape.tractors, by_pos) < sum(shape.tractors):
        return None
    return _top_of_length(by_pos, shape.tractors[0])


def winner_index(plays: Sequence[Sequence[Card]], trump: Trump, shape: Shape | None = None) -> int:
    """Index (0 = the lead) of the play that wins. ``shape`` is the lead's, computed when not given.

    Any number of decks: only a play of the lead's size, all of the led suit or all trump, can win; a trump
    play beats a plain winner, else it must be higher (equal stays). What "higher" means is the play's
    strength: here for two decks, ``sets.strength`` for a lead with ``kinds`` (§13.4, bombs)."""
    eff = trump.eff
    lead = plays[0]
    suit = eff[lead[0]]
    if len(lead) == 1:  # fast path: single-card tricks
        return _unit_winner(plays, trump, 1)
    if shape is None:
        shape = shape_of_units(decompose([c for c in lead if eff[c] == suit], trump))
    if shape.kinds:
        value: Callable[..., object] = strength
        if shape.kinds == ((2, 1),):
            return _unit_winner(plays, trump, 2)
    elif shape.pairs == 1 and not shape.tractors and len(lead) == 2 and lead[0] == lead[1]:
        return _unit_winner(plays, trump, 2)
    else:
        value = _shaped_value
    best, best_key = 0, (suit == TRUMP, value(lead, shape, trump, True))
    for i in range(1, len(plays)):
        p = plays[i]
        if not p or len(p) != len(lead):
            continue
        suits = {eff[c] for c in p}
        if len(suits) != 1:
            continue
        s = suits.pop()
        if s != suit and s != TRUMP:
            continue
        v = value(p, shape, trump)
        if v is None:
            continue
        key = (s == TRUMP, v)
        if key > best_key:  # trump first, then strictly higher
            best, best_key = i, key
    return best


def _unit_winner(plays: Sequence[Sequence[Card]], trump: Trump, size: int) -> int:
    """``winner_index`` for a lead of one card (``size`` 1) or one pair (2), the commonest leads: only the same
    unit of the led suit or of trumps can win, and its deciding value is its card's position."""
    eff, pos = trump.eff, trump.pos
    lead = plays[0][0]
    suit = eff[lead]
    best, best_trump, best_val = 0, suit == TRUMP, pos[lead]
    for i in range(1, len(plays)):
        p = plays[i]
        if len(p) != size or p[0] != p[-1]:
            continue
        s = eff[p[0]]
        if s != suit and s != TRUMP:
            continue
        is_t = s == TRUMP
        v = pos[p[0]]
        if (is_t and not best_trump) or (is_t == best_trump and v > best_val):
            best, best_trump, best_val = i, is_t, v
    return best
