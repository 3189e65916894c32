"""Draw generators: who meets whom in a round (round robin, Swiss, seed order) — plain ids in, plain games out.

No database here (as Tabbycat keeps its draw generators apart from the managers that read and write rounds):
``tournaments.pairing.services`` gathers the pairs, the games already played, the byes and the seats, calls these
functions and writes the round. A game is ``(north_south, east_west)``; a bye is a pair with no opponent.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

import networkx as nx  # the only third-party import of rules/: a well-kept maximum-weight matching

K = TypeVar("K", bound=Hashable)  # a pair's or a team's id: any hashable the caller uses
Game = tuple[K, K]
Matching = list[tuple[int, int]]  # rank positions, the better first


# --- round robin -------------------------------------------------------------------------------------------


def circle_schedule(ids: Sequence[K]) -> list[list[tuple[K, K | None]]]:
    """A full round robin by the circle method: ``len(ids) - 1`` rounds (``len(ids)`` when odd).

    Each round is a list of ``(north_south, east_west)``; ``east_west`` None is a bye. The team at an odd position
    of the circle sits North–South, so everyone alternates seats from round to round and, over the whole event,
    sits North–South and East–West equally often (within one).
    """
    teams: list[K | None] = list(ids)
    if len(teams) < 2:
        return []
    if len(teams) % 2:
        teams.append(None)
    n = len(teams)
    fixed, rot, m = teams[-1], teams[:-1], n - 1
    rounds = []
    for r in range(m):
        cur = rot[r:] + rot[:r]
        games = [(cur[0], fixed) if r % 2 == 0 else (fixed, cur[0])]
        for i in range(1, n // 2):
            a, b = cur[i], cur[m - i]
            games.append((a, b) if i % 2 else (b, a))
        out: list[tuple[K, K | None]] = []
        for a, b in games:
            if a is None:
                if b is not None:
                    out.append((b, None))
            elif b is None:
                out.append((a, None))
            else:
                out.append((a, b))
        # Byes last, so table numbers run without gaps.
        out.sort(key=lambda g: g[1] is None)
        rounds.append(out)
    return rounds


def round_robin_round(
    scheduled: Iterable[tuple[K, K | None]], withdrawn: Collection[K] = ()
) -> tuple[list[Game[K]], list[K]]:
    """One round of the schedule without the withdrawn pairs: their opponents get a bye, the schedule stays."""
    games: list[Game[K]] = []
    byes: list[K] = []
    for ns, ew in scheduled:
        if ew is None:
            if ns not in withdrawn:
                byes.append(ns)
        elif ns in withdrawn or ew in withdrawn:
            byes += [p for p in (ns, ew) if p not in withdrawn]
        else:
            games.append((ns, ew))
    return games, byes


# --- Swiss -------------------------------------------------------------------------------------------------

# The hard constraints a table can break: the two pairs met before; they are of one club (when avoided).
REPEAT = "repeat"
SAME_CLUB = "same_club"
NEAREST = 10  # opponents each pair is offered in the first, sparse, matching (see swiss_match)


@dataclass(frozen=True)
class GaveWay(Generic[K]):
    """A table that breaks a hard constraint (``REPEAT`` or ``SAME_CLUB``): data the site words for the TD."""

    constraint: str
    table: int  # 1-based, as the games are listed
    pairs: Game[K]


@dataclass(frozen=True)
class SwissRound(Generic[K]):
    """A Swiss round: its games (table 1 first), its bye and the tables where a hard constraint gave way (only
    ever because every pairing had to break it). Unpacks as ``games, bye``, the shape callers always had."""

    games: list[Game[K]]
    bye: K | None
    gave_way: list[GaveWay[K]] = field(default_factory=list)

    def __iter__(self) -> Iterator[object]:
        return iter((self.games, self.bye))


def _least_cost_matching(n: int, costs: Mapping[tuple[int, int], tuple[int, ...]]) -> Matching | None:
    """The perfect matching of nodes ``0..n-1`` whose summed cost tuples are least, the tiers compared in order;
    None when the edges hold no perfect matching.

    Each tier is scaled past the most every later tier can add up to over a round, so the integer weights
    networkx maximises order matchings exactly as the tuples do (integers keep its arithmetic exact)."""
    if n == 0:
        return []
    if not costs:
        return None
    tables = n // 2
    width = len(next(iter(costs.values())))
    scale = [1] * width
    for k in range(width - 1, 0, -1):
        scale[k - 1] = scale[k] * (tables * max(c[k] for c in costs.values()) + 1)
    total = {edge: sum(s * c for s, c in zip(scale, cost, strict=True)) for edge, cost in costs.items()}
    # Every weight positive; every perfect matching has ``tables`` edges, so the heaviest is the least costly.
    ceiling = max(total.values()) + 1
    # Integer nodes in rank order and edges sorted: the same input gives the same matching.
    graph = nx.Graph()
    graph.add_nodes_from(range(n))
    graph.add_weighted_edges_from((i, j, ceiling - total[i, j]) for i, j in sorted(total))
    mate = nx.max_weight_matching(graph, maxcardinality=True)
    if len(mate) < tables:
        return None
    return sorted((min(e), max(e)) for e in mate)


def _nearest(
    n: int, edges: Iterable[tuple[int, int]], apart: Callable[[int, int], int], k: int
) -> set[tuple[int, int]]:
    """The edges that are among the ``k`` nearest (by ``apart``, then rank) of either of their ends."""
    offered: dict[int, list[tuple[int, int, tuple[int, int]]]] = {i: [] for i in range(n)}
    for i, j in edges:
        d = apart(i, j)
        offered[i].append((d, j, (i, j)))
        offered[j].append((d, i, (i, j)))
    return {e for options in offered.values() for _d, _other, e in sorted(options)[:k]}


def _largest_matching(n: int, edges: Iterable[tuple[int, int]]) -> int:
    """How many tables the largest matching of ``edges`` seats (unweighted: fast even on the whole field)."""
    graph = nx.Graph()
    graph.add_nodes_from(range(n))
    graph.add_edges_from(edges)
    return len(nx.max_weight_matching(graph, maxcardinality=True, weight=None))


def swiss_match(
    order: Sequence[K],
    played: Iterable[frozenset[K]] = (),
    clubs: Mapping[K, str] | None = None,
    *,
    avoid_same_club: bool = False,
    points: Mapping[K, int] | None = None,
    first_round: bool = False,
    nearest: int = NEAREST,
) -> list[Game[K]]:
    """Pair an even list ranked best first by maximum-weight matching; games listed best pair first, the better
    ranked pair first in each.

    A table costs, in tiers each outweighing all later ones: a repeat; two pairs of one club (when avoided); the
    match points apart, squared (round 1: two pairs of the same half of the seeding); the ranks apart, squared
    (round 1: how far from the fold, 1 v n/2+1, squared) — so neighbours meet; that rank cost again times how
    high the table sits, so a disruption sinks to the lower tables.

    The first matching offers each pair only the ``nearest`` opponents by rank it may meet (fast on a large
    field). When they cannot seat everyone, the least that must give way is counted from the largest matchings
    that keep the constraints, and a second matching over the nearest opponents of any kind, hard tiers weighed
    in, is kept only if it gives way that little; else the whole field is matched. So a constraint gives way
    only when every pairing breaks it, and no more often than it must.
    """
    n = len(order)
    if n % 2:
        raise ValueError("swiss_match needs an even number of pairs")
    met = {frozenset(p) for p in played}
    clubs = clubs or {}
    points = points or {}
    half = n // 2

    def hard(i: int, j: int) -> tuple[int, int]:
        a, b = order[i], order[j]
        club = clubs.get(a, "")
        return int(frozenset((a, b)) in met), int(avoid_same_club and bool(club) and club == clubs.get(b, ""))

    def soft(i: int, j: int) -> tuple[int, int, int]:
        if first_round:
            apart = int((i < half) == (j < half))
            rank = (j - i - half) ** 2
        else:
            apart = (points.get(order[i], 0) - points.get(order[j], 0)) ** 2
            rank = (j - i) ** 2
        return int(apart), rank, rank * (n - i)

    edges = [(i, j) for i in range(n) for j in range(i + 1, n)]
    broken = {e: hard(*e) for e in edges}
    allowed = [e for e in edges if broken[e] == (0, 0)]
    offers = _nearest(n, allowed, lambda i, j: soft(i, j)[1], nearest)
    matched = _least_cost_matching(n, {e: soft(*e) for e in offers})
    if matched is not None:
        return [(order[i], order[j]) for i, j in matched]
    # Something must give way. At least this much: half the field less the largest matching of the tables that
    # keep the constraint (for the repeats), or both (for every broken table).
    repeats = half - _largest_matching(n, [e for e in edges if broken[e][0] == 0])
    same_club = half - _largest_matching(n, allowed) - repeats
    offers |= _nearest(n, edges, lambda i, j: soft(i, j)[1], nearest)
    matched = _least_cost_matching(n, {e: broken[e] + soft(*e) for e in offers})
    gave = None if matched is None else tuple(sum(broken[e][k] for e in matched) for k in (0, 1))
    if gave != (repeats, same_club):
        # The offers could not reach that least: the whole field, where the tiers find it (slow on a large one).
        matched = _least_cost_matching(n, {e: broken[e] + soft(*e) for e in edges})
    assert matched is not None  # the whole field is a complete graph on an even number of nodes
    return [(order[i], order[j]) for i, j in matched]


def gave_way(
    games: Iterable[Game[K]],
    played: Iterable[frozenset[K]] = (),
    clubs: Mapping[K, str] | None = None,
    *,
    avoid_same_club: bool = False,
) -> list[GaveWay[K]]:
    """The tables of ``games`` that break a hard constraint: a repeat, or (when avoided) two pairs of one club."""
    met = {frozenset(p) for p in played}
    clubs = clubs or {}
    out = []
    for table, (a, b) in enumerate(games, start=1):
        if frozenset((a, b)) in met:
            out.append(GaveWay(REPEAT, table, (a, b)))
        club = clubs.get(a, "")
        if avoid_same_club and club and club == clubs.get(b, ""):
            out.append(GaveWay(SAME_CLUB, table, (a, b)))
    return out


def balance_seats(games: Iterable[Game[K]], ns_minus_ew: Mapping[K, int]) -> list[Game[K]]:
    """Orient each game: North–South to the pair that sat East–West more often (the first one on a tie)."""
    out = []
    for a, b in games:
        if ns_minus_ew.get(a, 0) > ns_minus_ew.get(b, 0):
            a, b = b, a
        out.append((a, b))
    return out


def swiss_bye(ranked: Sequence[K], had_bye: Collection[K] = ()) -> K | None:
    """Who sits out an odd round: the lowest-ranked pair without a bye yet (the lowest if all have had one)."""
    if len(ranked) % 2 == 0:
        return None
    return next((p for p in reversed(ranked) if p not in had_bye), ranked[-1])


def swiss_round(
    ranked: Sequence[K],
    *,
    first_round: bool = False,
    played: Iterable[frozenset[K]] = (),
    clubs: Mapping[K, str] | None = None,
    avoid_same_club: bool = False,
    had_bye: Collection[K] = (),
    ns_minus_ew: Mapping[K, int] | None = None,
    points: Mapping[K, int] | None = None,
) -> SwissRound[K]:
    """A Swiss round from the pairs ranked best first (seed order in round 1), with their match points when known:
    its games, its bye, if any, and the tables where a repeat or a same-club meeting could not be avoided."""
    played = list(played)
    bye = swiss_bye(ranked, had_bye)
    rest = [p for p in ranked if p != bye]
    games = swiss_match(
        rest, played, clubs, avoid_same_club=avoid_same_club, points=points, first_round=first_round
    )
    games = balance_seats(games, ns_minus_ew or {})
    return SwissRound(games, bye, gave_way(games, played, clubs, avoid_same_club=avoid_same_club))


# --- seed order (manual format) ----------------------------------------------------------------------------


def seed_order_draft(ids: Sequence[K]) -> tuple[list[Game[K]], list[K]]:
    """A draft for the TD to arrange: neighbours in seed order meet (1 v 2, 3 v 4 …); an odd last pair sits out."""
    games = [(ids[i], ids[i + 1]) for i in range(0, len(ids) - 1, 2)]
    return games, list(ids[len(games) * 2 :])
