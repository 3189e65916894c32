"""Draw generators: who meets whom in a round (round robin, Swiss, seed order) — plain ids in, plain games out.

No database here (as Tabbycat keeps its draw generators apart from the managers that read and write rounds):
``tournaments.pairing.services`` gathers the pairs, the games already played, the byes and the seats, calls these
functions and writes the round. A game is ``(north_south, east_west)``; a bye is a pair with no opponent.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Iterable, Mapping, Sequence

Game = tuple[Hashable, Hashable]


# --- round robin -------------------------------------------------------------------------------------------


def circle_schedule(ids: Sequence[Hashable]) -> list[list[tuple[Hashable, Hashable | None]]]:
    """A full round robin by the circle method: ``len(ids) - 1`` rounds (``len(ids)`` when odd).

    Each round is a list of ``(north_south, east_west)``; ``east_west`` None is a bye. The team at an odd position
    of the circle sits North–South, so everyone alternates seats from round to round and, over the whole event,
    sits North–South and East–West equally often (within one).
    """
    teams: list[Hashable | None] = list(ids)
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
        out = []
        for a, b in games:
            if a is None or b is None:
                out.append((a if b is None else b, None))
            else:
                out.append((a, b))
        # Byes last, so table numbers run without gaps.
        out.sort(key=lambda g: g[1] is None)
        rounds.append(out)
    return rounds


def round_robin_round(
    scheduled: Iterable[tuple[Hashable, Hashable | None]], withdrawn: Collection[Hashable] = ()
) -> tuple[list[Game], list[Hashable]]:
    """One round of the schedule without the withdrawn pairs: their opponents get a bye, the schedule stays."""
    games: list[Game] = []
    byes: list[Hashable] = []
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


class _Budget(Exception):
    pass


def swiss_pairs(
    order: Sequence[Hashable],
    played: Iterable[frozenset] = (),
    clubs: Mapping[Hashable, str] | None = None,
    *,
    avoid_same_club: bool = False,
    budget: int = 200_000,
) -> list[Game]:
    """Pair an even list ranked best first: neighbours meet, never again while avoidable.

    Tries, in turn: no rematch and (when asked) no two pairs of one club; no rematch; anything (neighbours).
    Backtracking is bounded by ``budget`` steps per attempt.
    """
    if len(order) % 2:
        raise ValueError("swiss_pairs needs an even number of pairs")
    met = set(played)
    clubs = clubs or {}

    def same_club(a, b) -> bool:
        ca, cb = clubs.get(a, ""), clubs.get(b, "")
        return bool(ca) and ca == cb

    attempts = []
    if avoid_same_club:
        attempts.append(lambda a, b: frozenset((a, b)) not in met and not same_club(a, b))
    attempts.append(lambda a, b: frozenset((a, b)) not in met)
    for allowed in attempts:
        steps = [0]

        def solve(rest: list, allowed=allowed, steps=steps):
            if not rest:
                return []
            a = rest[0]
            for j in range(1, len(rest)):
                steps[0] += 1
                if steps[0] > budget:
                    raise _Budget
                b = rest[j]
                if allowed(a, b):
                    tail = solve(rest[1:j] + rest[j + 1 :])
                    if tail is not None:
                        return [(a, b), *tail]
            return None

        try:
            found = solve(list(order))
        except (_Budget, RecursionError):
            found = None
        if found is not None:
            return found
    return [(order[i], order[i + 1]) for i in range(0, len(order), 2)]


def balance_seats(games: Iterable[Game], ns_minus_ew: Mapping[Hashable, int]) -> list[Game]:
    """Orient each game: North–South to the pair that sat East–West more often (the first one on a tie)."""
    out = []
    for a, b in games:
        if ns_minus_ew.get(a, 0) > ns_minus_ew.get(b, 0):
            a, b = b, a
        out.append((a, b))
    return out


def first_round_order(ranked: Sequence[Hashable]) -> list[Hashable]:
    """Round 1 of a Swiss: top half against bottom half (1 v n/2+1, 2 v n/2+2 …), as neighbours."""
    half = len(ranked) // 2
    out: list[Hashable] = []
    for top, bottom in zip(ranked[:half], ranked[half:], strict=True):
        out += [top, bottom]
    return out


def first_round_pairs(
    ranked: Sequence[Hashable],
    clubs: Mapping[Hashable, str],
    played: Iterable[frozenset] = (),
    budget: int = 200_000,
) -> list[Game] | None:
    """Round 1 with same-club avoidance: the fold (1 v n/2+1 …), each top pair taking the nearest bottom pair
    of another club — so a conflict swaps two neighbours in the bottom half and the rest of the fold stays.
    None when no such draw exists (the caller falls back to the general search)."""
    half = len(ranked) // 2
    top, bottom = ranked[:half], ranked[half:]
    met = set(played)
    steps = [0]

    def allowed(a, b) -> bool:
        ca, cb = clubs.get(a, ""), clubs.get(b, "")
        return not (ca and ca == cb) and frozenset((a, b)) not in met

    def solve(i: int, free: list[int]) -> list[Game] | None:
        if i == half:
            return []
        for j in sorted(free, key=lambda j: (abs(j - i), j)):
            steps[0] += 1
            if steps[0] > budget:
                raise _Budget
            if allowed(top[i], bottom[j]):
                tail = solve(i + 1, [k for k in free if k != j])
                if tail is not None:
                    return [(top[i], bottom[j]), *tail]
        return None

    try:
        return solve(0, list(range(half)))
    except (_Budget, RecursionError):
        return None


def swiss_bye(ranked: Sequence[Hashable], had_bye: Collection[Hashable] = ()) -> Hashable | None:
    """Who sits out an odd round: the lowest-ranked pair without a bye yet (the lowest if all have had one)."""
    if len(ranked) % 2 == 0:
        return None
    return next((p for p in reversed(ranked) if p not in had_bye), ranked[-1])


def swiss_round(
    ranked: Sequence[Hashable],
    *,
    first_round: bool = False,
    played: Iterable[frozenset] = (),
    clubs: Mapping[Hashable, str] | None = None,
    avoid_same_club: bool = False,
    had_bye: Collection[Hashable] = (),
    ns_minus_ew: Mapping[Hashable, int] | None = None,
) -> tuple[list[Game], Hashable | None]:
    """A Swiss round from the pairs ranked best first (seed order in round 1): its games and its bye, if any."""
    bye = swiss_bye(ranked, had_bye)
    rest = [p for p in ranked if p != bye]
    order = first_round_order(rest) if first_round else rest
    games = first_round_pairs(rest, clubs or {}, played) if first_round and avoid_same_club else None
    if games is None:
        games = swiss_pairs(order, played, clubs, avoid_same_club=avoid_same_club)
    return balance_seats(games, ns_minus_ew or {}), bye


# --- seed order (manual format) ----------------------------------------------------------------------------


def seed_order_draft(ids: Sequence[Hashable]) -> tuple[list[Game], list[Hashable]]:
    """A draft for the TD to arrange: neighbours in seed order meet (1 v 2, 3 v 4 …); an odd last pair sits out."""
    games = [(ids[i], ids[i + 1]) for i in range(0, len(ids) - 1, 2)]
    return games, list(ids[len(games) * 2 :])
