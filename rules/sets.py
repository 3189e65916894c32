"""Units of three and four decks (RULES §13): following, throws and winning with sets of n and chains of sets.

The rules' entry points are ``follow`` (§6), ``trick`` (§7) and ``throw`` (§5), which hold what is said once for
any number of decks (the count, the led suit, who may win, trump over plain, singles); a lead with ``Shape.kinds``
(``Trump.max_set`` 3 or 4, or a ruleset with follow tables or bombs) has its shape judged here:
``shape_problem`` and ``owed_cards`` (following), ``strength`` (winning), ``beating_set`` (throws). A set is ``n`` identical cards (pair, triple, quad); a chain is two or
more sets of one ``n`` whose cards have consecutive ``Trump.link`` values (the level rank is skipped unless the
ruleset keeps chains to consecutive ranks). Units are ``units.Unit``: ``kind`` PAIR for a set, TRACTOR for a
chain, ``Unit.n`` the set size, ``Unit.rank_key`` = (n, length) the kind's rank (§13.1). Reading a play
into sets and chains (``units.read_sets``) and the kinds' names (``units.unit_name``) live in ``units``,
which this module builds on.

Following (§13.3): a lead of one unit whose kind has a line in the ruleset's ``follow_tables`` is followed by
the first line the follower can form; any other lead by the general rule, a vector compared in order — the
lead's chains of the largest n covered by chains of that n, then the next n down, …; then its sets of each n
matched by sets of that n (a set in a chain counts; a larger set gives a smaller one; a lead set left unmatched
may be matched by a set one smaller), each card counting in one unit only: the best over every forming of the
cards into units. The follower's hand is valued the same way as the play; the play must reach the hand's value
(what the hand can offer is capped by what the lead asks, so a play of the lead's size can hold it).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache

from .cards import Card, card_counts
from .order import Trump
from .units import PAIR, TRACTOR, Shape, Unit, read_sets, sets_at, shape_of_units

Counts = dict[Card, int]


def lead_shape(units: Sequence[Unit], rs: object, t: Trump) -> Shape:
    """The lead's ``Shape``; for three or four decks with ``kinds`` (each unit's (n, length), highest first),
    the ruleset's follow lines for a lead of one unit, and whether bombs count."""
    lines = rs.follow_tables  # type: ignore[attr-defined]
    bombs = rs.bombs  # type: ignore[attr-defined]
    if t.max_set <= 2 and not lines and not bombs:
        return shape_of_units(units)
    shape = shape_of_units([u for u in units if u.n <= 2])._replace(size=sum(len(u.cards) for u in units))
    kinds = tuple(sorted((u.rank_key for u in units), reverse=True))
    found = rs.follow_lines(*kinds[0]) if len(units) == 1 else None  # type: ignore[attr-defined]
    return shape._replace(kinds=kinds, lines=found, bombs=bombs)


# ---------------------------------------------------------------- following (§13.3)


def _runs(by: dict[int, list[Card]]) -> list[list[int]]:
    """Maximal runs of consecutive links (each link once), low to high."""
    runs: list[list[int]] = []
    for key in sorted(by):
        if runs and key == runs[-1][-1] + 1:
            runs[-1].append(key)
        else:
            runs.append([key])
    return runs


def _need(kinds: Sequence[tuple[int, int]]) -> tuple[dict[int, tuple[int, ...]], dict[int, int]]:
    """The lead's chain lengths per n (longest first) and its sets per n (sets in chains included)."""
    chains: dict[int, list[int]] = {}
    sets: dict[int, int] = {}
    for n, length in kinds:
        if n < 2:
            continue
        if length >= 2:
            chains.setdefault(n, []).append(length)
        sets[n] = sets.get(n, 0) + length
    return {n: tuple(sorted(v, reverse=True)) for n, v in chains.items()}, sets


@lru_cache(maxsize=1024)
def _demand(
    kinds: tuple[tuple[int, int], ...],
) -> tuple[tuple[tuple[int, int], ...], tuple[int, ...], dict[int, int]]:
    """What a lead of ``kinds`` asks: its chains as (n, length), largest n and longest first; the n of its
    chains, largest first; its sets per n (sets in chains included)."""
    chains, sets = _need(kinds)
    ns = tuple(sorted(chains, reverse=True))
    return tuple((n, length) for n in ns for length in chains[n]), ns, sets


def _full(kinds: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
    """The highest value a follow can reach: every chain of the lead covered, every set matched."""
    wanted, ns, sets = _demand(kinds)
    cover = [sum(length for m, length in wanted if m == n) for n in ns]
    return tuple(cover + [sets.get(n, 0) for n in range(max(sets, default=1), 1, -1)])


def general_value(cards: Sequence[Card], kinds: tuple[tuple[int, int], ...], t: Trump) -> tuple[int, ...]:
    """The general rule's vector for ``cards`` against a lead of ``kinds``: chains covered per n (largest n
    first), then sets matched per n (largest first), each counted at most as far as the lead has it — the best
    over every way of forming ``cards`` into units, each card in one unit only (§13.3)."""
    return best_forming(cards, kinds, t, witness=False)[0]


def best_forming(
    cards: Sequence[Card], kinds: tuple[tuple[int, int], ...], t: Trump, witness: bool = True
) -> tuple[tuple[int, ...], tuple[Card, ...]]:
    """``general_value`` and (with ``witness``) the cards of one forming that reaches it: the units it
    credits, what a follow from these cards owes, at most the lead's size.

    Each lead chain, largest n and longest first, is set against one piece of a follower chain or none (every
    placement is tried: the pieces decide which cards are left for sets); the sets are then matched on what is
    left, largest n first (``_sets_value``), a chain piece's sets counting as sets of its n.
    """
    wanted, ns, sets = _demand(kinds)
    counts = card_counts(cards)
    if not wanted:
        vec, used = _sets_value(counts, {}, sets, t, witness)
        return tuple(vec), tuple(used)
    best: tuple[tuple[int, ...], tuple[Card, ...]] | None = None
    pieces: list[tuple[int, tuple[Card, ...]]] = []

    def walk(i: int) -> None:
        nonlocal best
        if i == len(wanted):
            got: dict[int, int] = {}
            for m, p in pieces:
                got[m] = got.get(m, 0) + len(p)
            vec, more = _sets_value(counts, got, sets, t, witness)
            value = tuple([sum(len(p) for m, p in pieces if m == n) for n in ns] + vec)
            if best is None or value > best[0]:
                used = [c for m, p in pieces for c in p for _ in range(m)] if witness else []
                best = (value, tuple(used + more))
            return
        walk(i + 1)  # this lead chain left uncovered
        n, length = wanted[i]
        for piece in _pieces(counts, n, length, t):
            for c in piece:
                counts[c] -= n
            pieces.append((n, piece))
            walk(i + 1)
            pieces.pop()
            for c in piece:
                counts[c] += n

    walk(0)
    assert best is not None
    return best


def _pieces(counts: Counts, n: int, longest: int, t: Trump) -> list[tuple[Card, ...]]:
    """Every chain of ``n``-sets 2 to ``longest`` long that ``counts`` can form, low link first (at a link
    holding several cards — equal off-suit level cards — each choice is a different piece)."""
    by = sets_at(counts, n, t.link)
    out: list[tuple[Card, ...]] = []
    if len(by) < 2:
        return out
    for run in _runs(by):
        for i in range(len(run) - 1):
            stems: list[tuple[Card, ...]] = [(c,) for c in dict.fromkeys(by[run[i]])]
            for j in range(i + 1, min(len(run), i + longest)):
                stems = [s + (c,) for s in stems for c in dict.fromkeys(by[run[j]])]
                out += stems
    return out


def _sets_value(
    counts: Counts, got: dict[int, int], sets: dict[int, int], t: Trump, witness: bool
) -> tuple[list[int], list[Card]]:
    """The lead's sets matched per n, largest first, on ``counts`` (the cards left by the chain pieces, whose
    sets ``got`` already holds): a lead set left unmatched at n may be matched one size smaller. The sets
    taken come from the cards holding the fewest copies first (a triple taken from a quad's card leaves no
    pair), so what is left serves the smaller sets best. Without ``witness`` only how many cards hold each
    number of copies is followed (the cards themselves do not matter to the value)."""
    if witness:
        return _sets_taken(counts, got, sets, t)
    held: dict[int, int] = {}  # copies → how many cards hold that many
    for k in counts.values():
        if k >= 2:
            held[k] = held.get(k, 0) + 1
    vec: list[int] = []
    unmatched = 0
    for n in range(max(sets, default=1), 1, -1):
        own = sets.get(n, 0)
        have = got.get(n, 0)
        avail = have + sum(m * (k // n) for k, m in held.items())
        take = min(own + unmatched, avail)
        vec.append(take)
        unmatched = max(0, own - avail)
        extra = take - have
        if n == 2 or extra <= 0:
            continue
        for k in sorted(held):
            while extra > 0 and k >= n and held[k]:
                s = min(extra, k // n)
                held[k] -= 1
                held[k - n * s] = held.get(k - n * s, 0) + 1
                extra -= s
    return vec, []


def _sets_taken(
    counts: Counts, got: dict[int, int], sets: dict[int, int], t: Trump
) -> tuple[list[int], list[Card]]:
    """``_sets_value`` card by card: the vector and the cards of the sets taken (the witness)."""
    left = {c: k for c, k in counts.items() if k >= 2}
    pos = t.pos
    vec: list[int] = []
    used: list[Card] = []
    unmatched = 0
    for n in range(max(sets, default=1), 1, -1):
        own = sets.get(n, 0)
        have = got.get(n, 0)
        avail = have + sum(k // n for k in left.values())
        take = min(own + unmatched, avail)
        vec.append(take)
        unmatched = max(0, own - avail)
        extra = take - have
        for c in sorted((c for c, k in left.items() if k >= n), key=lambda c: (left[c], -pos[c])):
            while extra > 0 and left[c] >= n:
                left[c] -= n
                used += [c] * n
                extra -= 1
    return vec, used


def _place(counts: Counts, n: int, length: int, t: Trump) -> list[tuple[Card, ...]]:
    """Every way to take a unit of ``n``-sets chained ``length`` long (1: a set) from ``counts``."""
    by = sets_at(counts, n, t.link)
    if length == 1:
        return [(c,) for c in {c for v in by.values() for c in v}]
    out = []
    for run in _runs(by):
        for i in range(len(run) - length + 1):
            out.append(tuple(by[key][0] for key in run[i : i + length]))
    return out


def _parse_item(item: str, lead_length: int) -> tuple[int, int | str]:
    """``"3x2"`` → (3, 2); ``"3x*"`` → (3, the lead's length); ``"2x+"`` → (2, "chain"); ``"2+"`` → (2, "sets")
    (at least one); ``"2*"`` → (2, "more") (as many as fit, possibly none)."""
    if item.endswith("x+"):
        return int(item[0]), "chain"
    if item.endswith("+"):
        return int(item[0]), "sets"
    if item.endswith("*") and "x" not in item:
        return int(item[0]), "more"
    n, length = item.split("x")
    return int(n), lead_length if length == "*" else int(length)


def line_value(
    cards: Sequence[Card], line: Sequence[str], size: int, lead_length: int, t: Trump
) -> tuple[tuple[int, ...], tuple[Card, ...]] | None:
    """Can ``cards`` form ``line`` within ``size`` cards? None if not; else what its open items reach (the
    longest tractor, the most sets the cards left allow) and the cards of one best forming (the witness)."""
    items = [_parse_item(i, lead_length) for i in line]
    fixed = [(n, ln) for n, ln in items if isinstance(ln, int)]
    open_items = [(n, ln) for n, ln in items if not isinstance(ln, int)]
    best: tuple[tuple[int, ...], tuple[Card, ...]] | None = None

    def walk(counts: Counts, k: int, used: list[Card]) -> None:
        nonlocal best
        if k == len(fixed):
            got = _open(dict(counts), open_items, size - len(used), t)
            if got is not None and (best is None or got[0] > best[0]):
                best = (got[0], tuple(used) + got[1])
            return
        n, length = fixed[k]
        if len(used) + n * length > size:
            return
        for placed in _place(counts, n, length, t):
            for c in placed:
                counts[c] -= n
            walk(counts, k + 1, used + [c for c in placed for _ in range(n)])
            for c in placed:
                counts[c] += n

    walk(card_counts(cards), 0, [])
    return best


def _open(
    counts: Counts, items: Sequence[tuple[int, int | str]], budget: int, t: Trump
) -> tuple[tuple[int, ...], tuple[Card, ...]] | None:
    """The open items of a line, greedily: the longest chain, then as many sets as the budget allows."""
    vec: list[int] = []
    used: list[Card] = []
    for n, what in items:
        if what == "chain":
            placed: tuple[Card, ...] = ()
            for length in range(min(budget // n, 54), 1, -1):
                found = _place(counts, n, length, t)
                if found:
                    placed = found[-1]  # the highest
                    break
            if not placed:
                return None
        else:
            by = sets_at(counts, n, t.link)
            have = sorted((c for v in by.values() for c in v), key=t.pos.__getitem__, reverse=True)
            placed = tuple(have[: budget // n])
            if not placed and what == "sets":
                return None
        for c in placed:
            counts[c] -= n
        used += [c for c in placed for _ in range(n)]
        budget -= n * len(placed)
        vec.append(len(placed))
    return tuple(vec), tuple(used)


def shape_problem(
    held: Sequence[Card], play: Sequence[Card], shape: Shape, t: Trump
) -> tuple[str, tuple[Card, ...]] | None:
    """The shape part of following (§13.3) for a play all of the led suit from ``held`` (more cards of it than
    the lead): ``follow.follow_problem`` checks the count and the suit first. The fault's code and witness
    (what the play should have held), or None."""
    n = shape.size
    if shape.kinds[0][0] == 1:
        return None  # singles ask for no shape
    if shape.lines is not None:
        length = shape.kinds[0][1]
        for line in shape.lines:
            vh = line_value(held, line, n, length, t)
            if vh is None:
                continue
            vp = line_value(play, line, n, length, t)
            if vp is None or vp[0] < vh[0]:
                chain = any("x" in i and not i.endswith("x1") for i in line)
                return ("revoke_tractor" if chain else "revoke_pair", vh[1])
            return None
        return None
    kinds = shape.kinds
    played = general_value(play, kinds, t)
    if played == _full(kinds):
        return None  # the play holds all the lead asks: no hand can ask more
    could = general_value(held, kinds, t)
    if played >= could:
        return None
    chains = len(_demand(kinds)[1])
    first = next(i for i, (a, b) in enumerate(zip(played, could, strict=True)) if a < b)
    code = "revoke_tractor" if first < chains else "revoke_pair"
    return (code, tuple(t.sort(best_forming(held, kinds, t)[1])))


def owed_cards(held: Sequence[Card], shape: Shape, t: Trump, rng: random.Random) -> list[Card]:
    """The simulator's follower: cards of ``held`` (more than the lead's size) forming what the lead asks —
    the first formable table line, else for each lead set or chain one of that n (or, for a set, one smaller)
    placed at random; ``follow.random_follow`` fills up the rest."""
    n = shape.size
    chosen: list[Card] = []
    if shape.lines is not None:
        for line in shape.lines:
            got = line_value(held, line, n, shape.kinds[0][1], t)
            if got is not None:
                return list(got[1])
        return chosen
    counts = card_counts(held)
    for m, length in shape.kinds:
        if m < 2:
            continue
        for size in (m, m - 1) if length == 1 else (m,):
            if size < 2:
                continue
            found: list[tuple[Card, ...]] = []
            for ln in range(length, 1 if length > 1 else 0, -1):
                found = _place(counts, size, ln, t)
                if found:
                    break
            if found:
                placed = rng.choice(found)
                for c in placed:
                    counts[c] -= size
                chosen += [c for c in placed for _ in range(size)]
                break
    return chosen[:n]


# ---------------------------------------------------------------- throws (§13.2)


def beating_set(unit: Unit, holding: Sequence[Card], t: Trump) -> Unit | None:
    """A set or chain that can be formed from ``holding`` and beats ``unit`` (a set or chain, §13.2): a higher
    set of at least the same n (♠AAA blocks a thrown ♠KK, §13.6), a chain of such sets at least as long whose
    lowest set (of the piece set against it) is higher. ``throw.beating_unit`` settles singles."""
    pos = t.pos
    n, length = unit.rank_key
    by = sets_at(card_counts(holding), n, t.link)
    if length == 1:
        above = [c for v in by.values() for c in v if pos[c] > unit.top]
        if not above:
            return None
        c = min(above, key=pos.__getitem__)
        return Unit(PAIR, 1, pos[c], pos[c], (c,) * n)
    for run in _runs(by):
        if len(run) >= length:
            piece = [by[key][0] for key in run[-length:]]
            if pos[piece[0]] > unit.low:
                cards = tuple(c for c in reversed(piece) for _ in range(n))
                return Unit(TRACTOR, length, pos[piece[-1]], pos[piece[0]], cards)
    return None


# ---------------------------------------------------------------- winning (§13.4)


def _has_units(cards: Sequence[Card], kinds: Sequence[tuple[int, int]], t: Trump) -> bool:
    """Can ``cards`` hold the lead's units kind by kind (a set of a higher n standing for a lower one)? Each
    lead unit, highest first, takes the lowest fitting piece of a run long enough."""
    counts = card_counts(cards)
    for n, length in kinds:
        if n < 2:
            continue
        found = _place(counts, n, length, t)
        if not found:
            return False
        placed = min(found, key=lambda p: t.pos[p[-1]])
        for c in placed:
            counts[c] -= n
    return True


def _top(cards: Sequence[Card], n: int, length: int, t: Trump) -> int:
    """The highest top position of a unit of the kind (n, length) that ``cards`` can form (−1: none)."""
    if n == 1:
        return max(t.pos[c] for c in cards)
    found = _place(card_counts(cards), n, length, t)
    return max((t.pos[p[-1]] for p in found), default=-1)


def _bomb(cards: Sequence[Card], t: Trump) -> tuple[int, int]:
    """(n, length) when the play is a bomb against a lead of one tractor, else (0, 0): a quad on a tractor of
    2 pairs, or a chain of triples or quads of the tractor's card count (seed 001: 四张胜拖拉机，推土机胜拖拉机)."""
    units = read_sets(cards, t)
    if len(units) != 1:
        return (0, 0)
    n, length = units[0].rank_key
    if n == 4 or (n == 3 and length >= 2):
        return (n, length)
    return (0, 0)


def strength(
    cards: Sequence[Card], shape: Shape, t: Trump, lead: bool = False
) -> tuple[tuple[int, int], int] | None:
    """What ``trick.winner_index`` compares for a play of one suit (§7 with §13.4), or None when it lacks the
    lead's units kind by kind: (bomb, top) — the bomb's (n, length) or (0, 0), and the deciding unit, the
    largest of the lead's highest kind (of a bomb, its highest card). Bombs count only with the ruleset's
    ``bombs`` on a lead of one tractor; the caller puts trump first, so a trump play of the lead's shape still
    beats a plain-suit bomb. The lead (``lead``) has its own units and is no bomb."""
    kinds = shape.kinds
    n0, len0 = kinds[0]
    if lead:
        return ((0, 0), _top(cards, n0, len0, t))
    if shape.bombs and len(kinds) == 1 and n0 == 2 and len0 >= 2:
        bomb = _bomb(cards, t)
        if bomb != (0, 0):
            return (bomb, max(t.pos[c] for c in cards))
    if not _has_units(cards, kinds, t):
        return None
    return ((0, 0), _top(cards, n0, len0, t))
