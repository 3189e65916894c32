"""Following (RULES §6): is a follow legal, and why not; a random legal follow (the simulator's player).

Refusal codes: ``play_size`` (wrong number of cards), ``revoke_suit`` (did not follow the led suit while
holding it), ``revoke_tractor`` (covered fewer of the lead's tractor pairs with tractors than the hand allows),
``revoke_pair`` (fewer pairs than the hand allows, counting at most as many as the lead has).

``exact=False`` is for a hand known only from below (a live or partial record: the cards the player is seen
to play later). The check then reports only what is certain: a missing card of the led suit when the play was
short of the suit, and a shape below what the known cards already allow when they outnumber the lead.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import NamedTuple

from .cards import Card, card_counts
from .order import Trump
from .sets import owed_cards, shape_problem
from .units import Shape, cover_by_pos, pair_positions, take_runs

Hand = Sequence[int]  # 54 counts, indexed by card


class FollowProblem(NamedTuple):
    code: str
    witness: tuple[Card, ...]  # cards of the hand that show the fault (what should have been played)


def hand_counts(cards: Sequence[Card]) -> list[int]:
    """A hand as ``follow_problem`` reads it: 54 counts, indexed by card."""
    counts = [0] * 54
    for c in cards:
        counts[c] += 1
    return counts


def suit_cards(hand: Hand, suit: int, trump: Trump) -> list[Card]:
    """The hand's cards of one effective suit, with repeats (a plain loop: the hottest helper of following)."""
    out: list[Card] = []
    for c in trump.members[suit]:
        n = hand[c]
        if n:
            if n == 1:
                out.append(c)
            else:
                out += [c] * n
    return out


def follow_problem(
    hand: Hand, play: Sequence[Card], lead_suit: int, lead_shape: Shape, trump: Trump, exact: bool = True
) -> FollowProblem | None:
    """Why ``play`` is not a legal follow to a lead of ``lead_suit``/``lead_shape`` from ``hand``; None if legal.

    The count and the led suit (§6.1, any number of decks) are settled here; the shape (§6.2) here for two
    decks, by ``sets.shape_problem`` for a lead with ``kinds`` (three or four decks, §13.3)."""
    n = lead_shape.size
    if len(play) != n:
        return FollowProblem("play_size", ())
    eff = trump.eff
    in_suit = [c for c in play if eff[c] == lead_suit]
    k = len(in_suit)
    kinds = lead_shape.kinds
    if (
        k == n
        and not kinds
        and (lead_shape.pairs == 0 or (n == 2 and lead_shape.pairs == 1 and play[0] == play[1]))
    ):
        return None  # all of the suit, and the lead asks for no shape (or a pair answered by a pair)
    held = suit_cards(hand, lead_suit, trump)
    if len(held) <= n:
        if k == n and not exact:
            return None
        missing = _unplayed(held, in_suit)
        if missing and (exact or k < n):
            return FollowProblem("revoke_suit", tuple(missing))
        return None
    if k < n:
        return FollowProblem("revoke_suit", tuple(_unplayed(held, in_suit)[: n - k]))
    if kinds:
        found = shape_problem(held, play, lead_shape, trump)
        return None if found is None else FollowProblem(*found)
    if lead_shape.pairs == 1 and not lead_shape.tractors and len(play) == 2 and play[0] == play[1]:
        return None  # fast path: a pair answered by a pair
    by_h = pair_positions(held, trump)
    by_p = pair_positions(play, trump)
    pairs_h = sum(map(len, by_h.values()))
    pairs_p = sum(map(len, by_p.values()))
    lt, cap = lead_shape.tractors, lead_shape.pairs
    if lt and cover_by_pos(lt, by_p) < cover_by_pos(lt, by_h):
        return FollowProblem("revoke_tractor", _tractor_witness(held, trump))
    if min(cap, pairs_p) < min(cap, pairs_h):
        played = card_counts(play)
        unplayed = [c for v in pair_positions(held, trump).values() for c in v if played.get(c, 0) < 2]
        return FollowProblem("revoke_pair", tuple(c for c in unplayed for _ in range(2)))
    return None


def _unplayed(held: list[Card], played: list[Card]) -> list[Card]:
    """``held`` less ``played`` as multisets, in ``held``'s order (its copies of a card are adjacent).

    The same as ``Counter(held) - Counter(played)`` expanded, without building two Counters on every fault.
    """
    used = card_counts(played)
    out = []
    for c in held:
        n = used.get(c, 0)
        if n:
            used[c] = n - 1
        else:
            out.append(c)
    return out


def _tractor_witness(held: Sequence[Card], trump: Trump) -> tuple[Card, ...]:
    runs = take_runs(pair_positions(held, trump))
    if not runs:
        return ()
    run = max(runs, key=len)
    return tuple(c for _p, c in reversed(run) for _ in range(2))


def random_follow(
    hand: Sequence[Card], lead_suit: int, shape: Shape, trump: Trump, rng: random.Random
) -> tuple[Card, ...] | None:
    """A random legal follow (the simulator's player); where the greedy build misses, the checker's witness.

    What the lead asks is built first (two decks here, ``sets.owed_cards`` for a lead with ``kinds``), the rest
    filled from the suit at random."""
    n = shape.size
    eff = trump.eff
    held = [c for c in hand if eff[c] == lead_suit]
    others = [c for c in hand if eff[c] != lead_suit]
    if len(held) <= n:
        rng.shuffle(others)
        return tuple(held + others[: n - len(held)])
    if shape.kinds:
        play = owed_cards(held, shape, trump, rng)
    elif shape.pairs == 0:
        return tuple(rng.sample(held, n))
    else:
        play = _owed_pairs(held, shape, trump, rng)
    used = card_counts(play)
    # held less play, copies side by side (the order the seeded deals were built with)
    pool = [c for c, k in card_counts(held).items() for _ in range(k - used.get(c, 0))]
    rng.shuffle(pool)
    play += pool[: n - len(play)]
    result = tuple(play)
    found = follow_problem(hand_counts(hand), result, lead_suit, shape, trump)
    if found is None:
        return result
    return witness_follow(hand, found.witness, lead_suit, shape, trump)


def witness_follow(
    hand: Sequence[Card], witness: Sequence[Card], lead_suit: int, shape: Shape, trump: Trump
) -> tuple[Card, ...] | None:
    """A refusal's witness (the units of the hand's best forming) filled up from the led suit: the legal follow
    every refused play has, or None if it were not legal. The simulator's player falls back on it where its
    greedy random build missed (its placement spoiled the forming the hand's best needs)."""
    rest = [c for c in hand if trump.eff[c] == lead_suit]
    for c in witness:
        if c not in rest:
            return None
        rest.remove(c)
    play = tuple(witness) + tuple(rest[: shape.size - len(witness)])
    if len(play) != shape.size or follow_problem(hand_counts(hand), play, lead_suit, shape, trump):
        return None
    return play


def _owed_pairs(held: Sequence[Card], shape: Shape, trump: Trump, rng: random.Random) -> list[Card]:
    """Two decks: a random piece of the longest tractors for each lead tractor, then pairs up to the lead's."""
    by_pos = pair_positions(held, trump)
    runs = [[c for _p, c in reversed(r)] for r in take_runs(by_pos)]  # high to low
    loose = [c for v in by_pos.values() for c in v]
    chosen: list[Card] = []
    pairs_used = 0
    for t in shape.tractors:
        runs.sort(key=len, reverse=True)
        if not runs or len(runs[0]) < 2:
            break
        r = runs.pop(0)
        piece = min(t, len(r))
        start = rng.randrange(len(r) - piece + 1)
        chosen += r[start : start + piece]
        pairs_used += piece
        for part in (r[:start], r[start + piece :]):
            if len(part) >= 2:
                runs.append(part)
            else:
                loose.extend(part)
    loose.extend(c for r in runs for c in r)
    rng.shuffle(loose)
    need = min(shape.pairs, pairs_used + len(loose)) - pairs_used
    chosen += loose[: max(0, need)]
    return [c for c in chosen for _ in range(2)]
