"""The knockout bracket: seeds placed so the best can meet only late, byes to the top seeds, each round from the
previous round's winners, and the final placings — plain ids in, games out (no database).

A bracket is its *lines*: the pair at each position of the first round, in bracket order, None where a seed is
missing (the field is not a power of two: the seed the missing one would have met has a bye). Positions 0 and 1
meet, then the winner of 0–1 meets the winner of 2–3, and so on: each round's lines are the previous round's
winners in order (``advance``). ``tournaments.pairing.knockout`` stores the first round's lines and calls these
functions; the pages draw the bracket from ``bracket_rounds``.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, Optional, TypeVar

K = TypeVar("K", bound=Hashable)  # a pair's or a team's id: any hashable the caller uses
Game = tuple[K, K]
Line = Optional[K]  # noqa: UP045 (a generic alias: ``K | None`` is not one)


class KnockoutError(ValueError):
    """A bracket that cannot be made: fewer than two pairs, or a pair seeded twice."""


def bracket_size(n: int) -> int:
    """The smallest power of two that holds ``n`` pairs (at least 2)."""
    if n < 2:
        raise KnockoutError("a knockout needs at least two pairs")
    return 1 << (n - 1).bit_length()


def rounds_of(n: int) -> int:
    """How many rounds a knockout of ``n`` pairs has: log2 of its bracket, the final the last."""
    return bracket_size(n).bit_length() - 1


def slot_seeds(size: int) -> list[int]:
    """The seed at each position of a bracket of ``size`` (a power of two): 1–8, 4–5, 3–6, 2–7 for 8.

    Built by doubling: each seed s of the smaller bracket meets ``size + 1 - s``, so the sum of a table's seeds
    is constant, 1 and 2 are in opposite halves, 1–4 in different quarters, and so on down."""
    if size < 2 or size & (size - 1):
        raise KnockoutError("a bracket's size is a power of two")
    seeds = [1, 2]
    while len(seeds) < size:
        total = 2 * len(seeds) + 1
        seeds = [x for i, s in enumerate(seeds) for x in ((s, total - s) if i % 2 == 0 else (total - s, s))]
    return seeds


def seeded_lines(seeded: Sequence[K]) -> list[Line[K]]:
    """The first round's lines of the pairs in seed order (best first): None where the seed is missing."""
    if len(set(seeded)) != len(seeded):
        raise KnockoutError("a pair is seeded twice")
    size = bracket_size(len(seeded))
    return [seeded[s - 1] if s <= len(seeded) else None for s in slot_seeds(size)]


def seed_numbers(lines: Sequence[Line[K]]) -> dict[K, int]:
    """Each pair's seed: the seed of its position in the first round (a swap at the desk swaps the seeds)."""
    return {p: s for p, s in zip(lines, slot_seeds(len(lines)), strict=True) if p is not None}


def pair_lines(lines: Sequence[Line[K]], seeds: Mapping[K, int]) -> tuple[list[Game[K]], list[K]]:
    """One round from its lines: the games in bracket order (the better seed first, North–South) and the byes
    (a pair whose opponent's seed is missing). A position not known yet (None beside None) gives nothing."""
    games: list[Game[K]] = []
    byes: list[K] = []
    for a, b in zip(lines[0::2], lines[1::2], strict=True):
        if a is not None and b is not None:
            games.append((a, b) if seeds.get(a, 0) <= seeds.get(b, 0) else (b, a))
        elif a is not None:
            byes.append(a)
        elif b is not None:
            byes.append(b)
    return games, byes


def advance(lines: Sequence[Line[K]], winners: Collection[K], *, first: bool = False) -> list[Line[K]]:
    """The next round's lines: each position pair's winner, None while their game is undecided. In the first
    round a pair without an opponent (a bye) goes through."""
    out: list[Line[K]] = []
    for a, b in zip(lines[0::2], lines[1::2], strict=True):
        if first and (a is None or b is None):
            out.append(a if b is None else b)
        else:
            out.append(a if a in winners else b if b in winners else None)
    return out


@dataclass(frozen=True)
class Tie(Generic[K]):
    """One position pair of a round, as the bracket's picture shows it: its two lines and who went through."""

    a: Line[K]
    b: Line[K]
    winner: Line[K] = None

    @property
    def bye(self) -> bool:
        return (self.a is None) != (self.b is None) and self.winner is not None

    def loser(self) -> K | None:
        """The pair that lost this tie, once both lines are known and it is won (a bye has none)."""
        a, b = self.a, self.b
        if a is None or b is None or self.winner is None:
            return None
        return a if self.winner == b else b


def bracket_rounds(lines: Sequence[Line[K]], won: Sequence[Collection[K]]) -> list[list[Tie[K]]]:
    """Every round of the bracket, the first to the final, with who won so far (``won[r]``: the winners of
    round r + 1; missing or partial rounds leave their ties open)."""
    rounds: list[list[Tie[K]]] = []
    current = list(lines)
    for r in range(len(lines).bit_length() - 1):
        winners = won[r] if r < len(won) else ()
        nxt = advance(current, winners, first=r == 0)
        rounds.append(
            [
                Tie(a, b, w)
                for (a, b), w in zip(zip(current[0::2], current[1::2], strict=True), nxt, strict=True)
            ]
        )
        current = nxt
    return rounds


def semifinal_losers(lines: Sequence[Line[K]], won: Sequence[Collection[K]]) -> list[K]:
    """The two pairs that lost a semi-final (the third-place match's), once both semi-finals are decided and
    both were played; else fewer."""
    rounds = bracket_rounds(lines, won)
    if len(rounds) < 2:
        return []
    return [loser for t in rounds[-2] if (loser := t.loser()) is not None]


@dataclass(frozen=True)
class Placing:
    """A pair's final place: ``place`` shared down to ``last`` (5–8: out in the quarter-finals)."""

    place: int
    last: int


def placings(
    lines: Sequence[Line[K]],
    won: Sequence[Collection[K]],
    third_place: tuple[K, K, K | None] | None = None,
    *,
    third_place_match: bool = False,
) -> dict[K, Placing]:
    """Final places of the pairs the bracket has placed so far: the final's winner 1 and loser 2; the
    semi-finals' losers 3 and 4 by the third-place match ``(a, b, winner)`` (with ``third_place_match``, not
    placed until it is won), or 3–4 shared without one; a loser of an earlier round shares the places its round
    decides (5–8, 9–16 …, cut at the field's size)."""
    field = sum(1 for p in lines if p is not None)
    rounds = bracket_rounds(lines, won)
    out: dict[K, Placing] = {}
    for r, ties in enumerate(rounds):
        first = (len(lines) >> (r + 1)) + 1  # the losers of this round: 2 in the final, 3 in the semis …
        for t in ties:
            if (loser := t.loser()) is not None:
                out[loser] = Placing(first, min(2 * first - 2, field))
        if r == len(rounds) - 1 and (champion := ties[0].winner) is not None:
            out[champion] = Placing(1, 1)
    losers = semifinal_losers(lines, won)
    if third_place_match and len(losers) == 2:
        for p in losers:
            out.pop(p, None)
    if third_place is not None and (winner := third_place[2]) is not None:
        a, b = third_place[:2]
        out[winner] = Placing(3, 3)
        out[b if winner == a else a] = Placing(4, 4)
    return out
