"""Random but legal deals (for the site's demo, load tests, the benchmark and property tests).

``simulate_deal`` shuffles, deals, lets the banker bury a random kitty, and plays every trick with random
legal plays: leads are random units, sometimes throws; a throw that another hand can beat is challenged by an
opponent holding a beating unit and reduced to its forced unit, exactly as a table judge would record it (a throw
only the thrower's partner could stop is not made: partners do not challenge). The same seed gives the same
deal. The record it returns is a valid ``tractor-deal/1`` document that ``judge`` finds ok.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from .cards import Card, format_cards, make_deck
from .follow import random_follow
from .order import TRUMP, Trump
from .ranks import parse_rank
from .record import FORMAT
from .ruleset import Ruleset
from .seats import SEATS, play_order, side_of
from .sets import lead_shape
from .throw import ThrowCheck, check_throw
from .trick import winner_index
from .units import Unit, decompose

TRUMP_CHOICES = ("S", "H", "C", "D", "NT")


def _remove(hand: list[Card], cards: tuple[Card, ...] | list[Card]) -> None:
    for c in cards:
        hand.remove(c)


def simulate_deal(
    ruleset: Ruleset | str | dict[str, Any] = "standard",
    *,
    banker: str = "N",
    level: str = "2",
    trump: str | None = None,
    seed: int | str = 0,
    throw_rate: float = 0.12,
) -> dict[str, Any]:
    """A complete, legal DEAL-RECORD dict; ``trump`` None picks one at random (``NT`` included)."""
    rs = Ruleset.from_spec(ruleset)
    rng = random.Random(seed)
    level = parse_rank(level)
    if banker not in SEATS:
        raise ValueError(f"bad seat {banker!r}")
    trump_text = trump if trump is not None else rng.choice(TRUMP_CHOICES)
    t = rs.trump(level, trump_text)
    deck = list(make_deck(rs.decks))
    rng.shuffle(deck)
    hand_size = rs.hand_size
    hands = {s: deck[i * hand_size : (i + 1) * hand_size] for i, s in enumerate(SEATS)}
    return _play_out(rs, rng, hands, deck[4 * hand_size :], banker, level, t, throw_rate)


def simulate_from_hands(
    ruleset: Ruleset | str | dict[str, Any],
    hands: Mapping[str, Sequence[Card]],
    dealt_kitty: Sequence[Card],
    *,
    banker: str,
    level: str,
    trump: str,
    seed: int | str = 0,
    throw_rate: float = 0.12,
) -> dict[str, Any]:
    """A complete, legal DEAL-RECORD dict played from fixed hands (a duplicate board, RULES §14.1): the banker
    takes the dealt kitty, buries at random, and every trick is played with random legal plays. The record
    carries the hands as play began (after the bury)."""
    rs = Ruleset.from_spec(ruleset)
    rng = random.Random(seed)
    t = rs.trump(parse_rank(level), trump)
    own = {s: list(hands[s]) for s in SEATS}
    return _play_out(
        rs, rng, own, list(dealt_kitty), banker, parse_rank(level), t, throw_rate, with_hands=True
    )


def _play_out(
    rs: Ruleset,
    rng: random.Random,
    hands: dict[str, list[Card]],
    rest: list[Card],
    banker: str,
    level: str,
    t: Trump,
    throw_rate: float,
    *,
    with_hands: bool = False,
) -> dict[str, Any]:
    """The banker buries at random from hand and ``rest``, then every trick is played out."""
    pool = hands[banker] + rest
    rng.shuffle(pool)
    kitty, hands[banker] = pool[: rs.kitty_size], pool[rs.kitty_size :]
    start = {s: format_cards(hands[s], t) for s in SEATS}
    tricks: list[dict[str, Any]] = []
    leader = banker
    while hands[leader]:
        trick = _play_trick(hands, leader, t, rs, rng, throw_rate)
        tricks.append(trick["record"])
        leader = trick["winner"]
    record: dict[str, Any] = {
        "format": FORMAT,
        "ruleset": rs.to_spec(),
        "banker": banker,
        "level": level,
        "trump": t.trump_text,
        "kitty": format_cards(kitty, t),
        "partial": False,
        "tricks": tricks,
        "penalties": [],
    }
    if with_hands:
        record["hands"] = start
    return record


def _opponent_challenge(
    units: list[Unit], others: dict[str, list[Card]], leader: str, chk: ThrowCheck, t: Trump
) -> ThrowCheck | None:
    """The same failed throw challenged by an opponent (only opponents challenge at the table), or None when no
    opponent can force the same unit."""
    opponents = {s: cards for s, cards in others.items() if side_of(s) != side_of(leader)}
    by_opponent = check_throw(units, opponents, t)
    return by_opponent if not by_opponent.stands and by_opponent.forced == chk.forced else None


def _play_trick(
    hands: dict[str, list[Card]], leader: str, t: Trump, rs: Ruleset, rng: random.Random, throw_rate: float
) -> dict[str, Any]:
    eff = t.eff
    hand = hands[leader]
    suits = sorted({eff[c] for c in hand})
    suit = rng.choice(suits)
    held = [c for c in hand if eff[c] == suit]
    units = decompose(held, t)
    throw: dict[str, Any] | None = None
    lead: tuple[Card, ...]
    if len(units) >= 2 and rng.random() < throw_rate and (suit != TRUMP or rs.trump_throws):
        picked = rng.sample(units, rng.randint(2, min(4, len(units))))
        attempt = tuple(c for u in picked for c in u.cards)
        att_units = decompose(attempt, t)
        others = {s: [c for c in hands[s] if eff[c] == suit] for s in SEATS if s != leader}
        chk = check_throw(att_units, others, t) if len(att_units) > 1 else None
        failed = chk if chk is not None and not chk.stands and chk.challenger is not None else None
        partner_only = failed is not None and side_of(str(failed.challenger)) == side_of(leader)
        if partner_only and failed is not None:
            chk = _opponent_challenge(att_units, others, leader, failed, t)
        if partner_only and chk is None:  # only the partner could stop it, and partners never challenge
            lead = rng.choice(units).cards
        elif chk is None or chk.stands:
            lead = attempt
        else:
            forced, beater = chk.forced, chk.beater
            assert forced is not None and beater is not None  # a failed throw names both (``check_throw``)
            lead = forced.cards
            throw = {
                "attempted": format_cards(attempt, t),
                "challenger": chk.challenger,
                "shown": format_cards(beater.cards, t),
            }
    elif t.max_set > 2 and rng.random() < 0.5:  # three or four decks: lead the largest unit often
        lead = max(units, key=lambda u: (u.rank_key, u.top)).cards
    else:
        lead = rng.choice(units).cards
    for attempt_no in range(2):
        shape = lead_shape(decompose(lead, t), rs, t)
        plays: list[tuple[str, tuple[Card, ...]]] = [(leader, tuple(lead))]
        for s in play_order(leader, rs.clockwise)[1:]:
            p = random_follow(hands[s], suit, shape, t, rng)
            if p is None:
                break
            plays.append((s, p))
        if len(plays) == 4:
            break
        # a follower the greedy builder could not serve: lead a single card instead (rare)
        lead, throw = (rng.choice(held),), None
        assert attempt_no == 0
    w = winner_index([p for _s, p in plays], t, shape)
    for s, p in plays:
        _remove(hands[s], p)
    rec: dict[str, Any] = {"plays": [[s, format_cards(p, t)] for s, p in plays]}
    if throw is not None:
        rec["throw"] = throw
    return {"record": rec, "winner": plays[w][0]}
