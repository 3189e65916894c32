"""The Swiss pairing benchmark: whole events simulated round by round, each draw timed and its quality counted.

Pairs are seeded 1..n, in clubs of four spread at random over the seeding, with same-club avoidance on; each
match is a random win, draw or loss (2, 1, 0 match points); the ranking is match points, then seed. Reported per
field: tables that repeat a meeting, same-club tables, the mean match-point difference per table and the time per
draw (mean and max). ``draw`` is any function with ``swiss_round``'s keywords, so another pairing can be compared.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from rules.pairing import swiss_round

FIELDS = (64, 128, 256)
ROUNDS = 9
CLUB_SIZE = 4
WIN, DRAW = 2, 1


@dataclass(frozen=True)
class EventFigures:
    pairs: int
    rounds: int
    repeats: int
    same_club: int
    mean_difference: float
    mean_seconds: float
    max_seconds: float


def simulate_event(
    n: int, rounds: int = ROUNDS, seed: int = 0, draw: Callable[..., Iterable[Any]] = swiss_round
) -> EventFigures:
    """One Swiss event of ``n`` pairs over ``rounds`` rounds; only the draws are timed."""
    rng = random.Random(seed * 1_000_003 + n)
    pairs = list(range(1, n + 1))
    shuffled = pairs[:]
    rng.shuffle(shuffled)
    clubs = {p: f"club{i // CLUB_SIZE}" for i, p in enumerate(shuffled)}
    points = dict.fromkeys(pairs, 0)
    played: set[frozenset] = set()
    had_bye: set[Hashable] = set()
    repeats = same_club = difference = tables = 0
    seconds: list[float] = []
    for number in range(1, rounds + 1):
        ranked = sorted(pairs, key=lambda p: (-points[p], p))
        t0 = time.perf_counter()
        games, bye = draw(
            ranked,
            first_round=number == 1,
            played=set(played),
            clubs=clubs,
            avoid_same_club=True,
            had_bye=set(had_bye),
            points=dict(points),
        )
        seconds.append(time.perf_counter() - t0)
        if bye is not None:
            had_bye.add(bye)
            points[bye] += WIN
        for a, b in games:
            repeats += frozenset((a, b)) in played
            same_club += clubs[a] == clubs[b]
            difference += abs(points[a] - points[b])
            tables += 1
            played.add(frozenset((a, b)))
            outcome = rng.random()
            if outcome < 0.45:
                points[a] += WIN
            elif outcome < 0.55:
                points[a] += DRAW
                points[b] += DRAW
            else:
                points[b] += WIN
    return EventFigures(
        n, rounds, repeats, same_club, difference / tables, sum(seconds) / len(seconds), max(seconds)
    )


def report(figures: Sequence[EventFigures]) -> str:
    """The figures as a plain-text table."""
    lines = ["pairs  rounds  repeats  same-club  mean diff/table  draw mean (s)  draw max (s)"]
    for f in figures:
        lines.append(
            f"{f.pairs:5}  {f.rounds:6}  {f.repeats:7}  {f.same_club:9}  {f.mean_difference:15.3f}"
            f"  {f.mean_seconds:13.3f}  {f.max_seconds:12.3f}"
        )
    return "\n".join(lines)


def run(
    fields: Sequence[int] = FIELDS,
    rounds: int = ROUNDS,
    seed: int = 0,
    draw: Callable[..., Iterable[Any]] = swiss_round,
) -> list[EventFigures]:
    return [simulate_event(n, rounds, seed, draw) for n in fields]
