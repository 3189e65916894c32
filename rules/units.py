"""Units of a play (RULES §4): singles, pairs and tractors, read longest tractors first; with three or four
decks, sets of n and chains of them (§13.1, ``read_sets``), which ``rules.sets`` builds on.

A ``Unit`` is a small named tuple: ``kind`` (SINGLE 0, PAIR 1, TRACTOR 2), ``length`` (pairs: 0, 1, or the
tractor's length), ``top`` and ``low`` (chain positions of its highest and lowest card or pair) and its
``cards``. All functions take cards of one effective suit and a ``Trump``.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

from .cards import Card, card_counts
from .order import Trump

SINGLE, PAIR, TRACTOR = 0, 1, 2
KIND_NAMES = ("single", "pair", "tractor")


class Unit(NamedTuple):
    kind: int
    length: int
    top: int
    low: int
    cards: tuple[Card, ...]

    @property
    def n(self) -> int:
        """Cards in each set: 1 for a single, 2 for a pair or tractor, 3 or 4 with more decks (§13.1)."""
        return len(self.cards) // (self.length or 1)

    @property
    def rank_key(self) -> tuple[int, int]:
        """The unit's kind as ranked by RULES §13.1: (n, length); a longer chain is a higher kind (§5)."""
        return (len(self.cards) // (self.length or 1), self.length or 1)


class Shape(NamedTuple):
    """What following and ruffing compare: tractor lengths (longest first) and pairs (tractor pairs included).

    Three and four decks (``rules.sets``) add ``kinds``, each lead unit's (n, length) highest first, the
    ruleset's follow ``lines`` for a lead of one unit, and whether ``bombs`` count; two decks leave them empty.
    """

    tractors: tuple[int, ...]
    pairs: int
    size: int
    kinds: tuple[tuple[int, int], ...] = ()
    lines: tuple[tuple[str, ...], ...] | None = None
    bombs: bool = False


def pair_positions(cards: Sequence[Card], trump: Trump) -> dict[int, list[Card]]:
    """Chain position → the cards forming a pair there (one entry per pair)."""
    if len(cards) < 2:
        return {}
    return _pairs_of(card_counts(cards), trump.pos)


def _pairs_of(counts: dict[Card, int], pos: Sequence[int]) -> dict[int, list[Card]]:
    """``pair_positions`` from counts already taken (``decompose`` needs the counts for its singles too)."""
    out: dict[int, list[Card]] = {}
    for c, k in counts.items():
        while k >= 2:
            out.setdefault(pos[c], []).append(c)
            k -= 2
    return out


def take_runs(by_pos: dict[int, list[Card]]) -> list[list[tuple[int, Card]]]:
    """Cut the pairs into tractors, longest (then highest) first; consumes ``by_pos``."""
    runs: list[list[tuple[int, Card]]] = []
    while True:
        keys = sorted(p for p, v in by_pos.items() if v)
        best: tuple[int, int] | None = None  # (length, start index)
        i = 0
        while i < len(keys):
            j = i
            while j + 1 < len(keys) and keys[j + 1] == keys[j] + 1:
                j += 1
            length = j - i + 1
            if length >= 2 and (best is None or length >= best[0]):
                best = (length, i)
            i = j + 1
        if best is None:
            return runs
        length, start = best
        run = [(p, by_pos[p].pop()) for p in keys[start : start + length]]
        runs.append(run)


def decompose(cards: Sequence[Card], trump: Trump) -> list[Unit]:
    """Units of a set of one effective suit: longest tractors first, then pairs, then singles (highest first).
    Three and four decks read sets of n and chains of them (``read_sets``, RULES §13.1)."""
    if trump.max_set > 2:
        return read_sets(cards, trump)
    pos = trump.pos
    n = len(cards)
    if n == 1:
        c = cards[0]
        p = pos[c]
        return [Unit(SINGLE, 0, p, p, (c,))]
    if n == 2 and cards[0] == cards[1]:  # a pair: the commonest lead after a single
        c = cards[0]
        p = pos[c]
        return [Unit(PAIR, 1, p, p, (c, c))]
    counts = card_counts(cards)
    if len(counts) == n:  # no two alike (most throws): singles only, high to low
        return [
            Unit(SINGLE, 0, pos[c], pos[c], (c,)) for c in sorted(counts, key=pos.__getitem__, reverse=True)
        ]
    by_pos = _pairs_of(counts, pos)
    units: list[Unit] = []
    if len(by_pos) >= 2:
        for run in take_runs(by_pos):
            cs: list[Card] = []
            for _p, c in reversed(run):
                cs += (c, c)
            units.append(Unit(TRACTOR, len(run), run[-1][0], run[0][0], tuple(cs)))
    for p in sorted(by_pos, reverse=True):
        for c in by_pos[p]:
            units.append(Unit(PAIR, 1, p, p, (c, c)))
    # every pair became a unit above, so an odd count leaves exactly one single
    singles = sorted((c for c, k in counts.items() if k % 2), key=pos.__getitem__, reverse=True)
    units.extend(Unit(SINGLE, 0, pos[c], pos[c], (c,)) for c in singles)
    return units


def shape_of_units(units: Sequence[Unit]) -> Shape:
    """Tractors and pairs of a lead of singles, pairs and tractors (``rules.sets.lead_shape`` adds the kinds
    of three and four decks)."""
    tractors = tuple(sorted((u.length for u in units if u.kind == TRACTOR), reverse=True))
    pairs = sum(u.length for u in units if u.kind != SINGLE)
    return Shape(tractors, pairs, sum(len(u.cards) for u in units))


@lru_cache(maxsize=4096)
def cover(lead_tractors: tuple[int, ...], runs: tuple[int, ...]) -> int:
    """Most of the lead's tractor pairs the follower's tractors can cover (RULES §6 (a)).

    A follower tractor may be cut into pieces of length ≥ 2; a piece covers at most the length of the lead
    tractor it is set against, one piece per lead tractor.
    """
    if not lead_tractors or not runs:
        return 0
    t, rest = lead_tractors[0], lead_tractors[1:]
    best = cover(rest, runs)  # leave this lead tractor uncovered
    for i, r in enumerate(runs):
        if i and runs[i - 1] == r:
            continue
        for piece in range(2, min(t, r) + 1):
            left = runs[:i] + runs[i + 1 :]
            if r - piece >= 2:
                left = tuple(sorted(left + (r - piece,), reverse=True))
            best = max(best, piece + cover(rest, left))
    return best


def cover_by_pos(lead_tractors: tuple[int, ...], by_pos: dict[int, list[Card]]) -> int:
    """``cover`` over *every* arrangement of the pairs ``by_pos`` holds (RULES §7: a play has the lead's shape if
    some arrangement of its cards does). Pairs at a shared position (♠55 ♦55 at level 5) may sit in different
    tractors, so longest-first is not enough there; a small exact search settles those rare cases."""
    if not lead_tractors or len(by_pos) < 2:
        return 0
    if all(len(v) == 1 for v in by_pos.values()):
        runs = take_runs({p: list(v) for p, v in by_pos.items()})
        return cover(lead_tractors, tuple(sorted((len(r) for r in runs), reverse=True)))
    return _cover_multi(lead_tractors, tuple(sorted((p, len(v)) for p, v in by_pos.items())))


@lru_cache(maxsize=4096)
def _cover_multi(lead_tractors: tuple[int, ...], mult: tuple[tuple[int, int], ...]) -> int:
    """Exact cover when positions hold several pairs: each lead tractor takes one segment of consecutive
    positions (2 ≤ length ≤ its own), each position used at most as often as it holds pairs."""
    if not lead_tractors:
        return 0
    t, rest = lead_tractors[0], lead_tractors[1:]
    best = _cover_multi(rest, mult)
    left = dict(mult)
    keys = sorted(p for p, m in mult if m)
    for start in keys:
        length = 0
        while length < t and left.get(start + length, 0) > 0:
            length += 1
            if length >= 2:
                seg = range(start, start + length)
                after = tuple((p, m - (p in seg)) for p, m in mult)
                best = max(best, length + _cover_multi(rest, tuple((p, m) for p, m in after if m)))
    return best


def shape_name(units: Sequence[Unit], max_set: int = 2) -> str:
    """``single``, ``pair``, ``tractor`` (with more decks ``triple``, ``titanic``, ``quad``, ``bulldozer``) — or
    ``throw`` for a lead of several units."""
    if len(units) != 1:
        return "throw"
    if max_set > 2:
        return unit_name(units[0], max_set)
    return KIND_NAMES[units[0].kind]


def largest_unit(units: Sequence[Unit]) -> Unit:
    """The largest unit: highest kind, then longest, then highest (two decks; ``Unit.rank_key`` ranks more)."""
    return max(units, key=lambda u: (u.kind, u.length, u.top))


# ---------------------------------------------------------------- sets of n (three and four decks, §13.1)


def sets_at(counts: dict[Card, int], n: int, link: Sequence[int]) -> dict[int, list[Card]]:
    """Chain link → the cards forming an ``n``-set there, one entry per set (a quad gives two pairs)."""
    out: dict[int, list[Card]] = {}
    for c, k in counts.items():
        while k >= n:
            out.setdefault(link[c], []).append(c)
            k -= n
    return out


def read_sets(cards: Sequence[Card], t: Trump) -> list[Unit]:
    """Cards of one effective suit as units (§13.1): chains of the largest n (longest first), then lone sets
    of that n, then the same for each smaller n on what is left, singles last; each group high to low."""
    pos, link = t.pos, t.link
    counts = card_counts(cards)
    units: list[Unit] = []
    for n in range(t.max_set, 1, -1):
        by = sets_at(counts, n, link)
        if not by:
            continue
        if len(by) >= 2:
            for run in take_runs(by):
                cs = tuple(c for _l, c in reversed(run) for _ in range(n))
                units.append(Unit(TRACTOR, len(run), pos[run[-1][1]], pos[run[0][1]], cs))
                for _l, c in run:
                    counts[c] -= n
        lone = sorted((c for v in by.values() for c in v), key=pos.__getitem__, reverse=True)
        for c in lone:
            units.append(Unit(PAIR, 1, pos[c], pos[c], (c,) * n))
            counts[c] -= n
    singles = sorted((c for c, k in counts.items() for _ in range(k)), key=pos.__getitem__, reverse=True)
    units.extend(Unit(SINGLE, 0, pos[c], pos[c], (c,)) for c in singles)
    return units


def unit_name(u: Unit, max_set: int = 3) -> str:
    """The kind's name: single, pair, tractor, triple, titanic (泰坦尼克), quad, bulldozer (推土机). Seed 001
    (four decks) calls a chain of triples 推土机 too."""
    n, length = u.rank_key
    if n == 1:
        return "single"
    if n == 2:
        return "pair" if length == 1 else "tractor"
    if n == 3:
        return "triple" if length == 1 else ("bulldozer" if max_set >= 4 else "titanic")
    return "quad" if length == 1 else "bulldozer"
