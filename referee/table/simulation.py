"""Play matches with the rules simulator, recording every deal through the recording service."""

from __future__ import annotations

import random

from django.db import transaction

from referee.table.recording.records import record_deal
from rules.seats import SEATS, side_of
from rules.simulate import simulate_deal, simulate_from_hands
from tournaments.duplicate.movement import is_duplicate_match, next_board
from tournaments.models import Match, Round
from tournaments.scoring.fold import table_state
from tournaments.scoring.rulesets import ruleset_for

MAX_DEALS = 60


def simulate_match(match: Match, operator, *, seed: int | str = 0, max_deals: int = MAX_DEALS) -> int:
    """Deal and record random legal deals until the match ends (or ``max_deals``); returns deals recorded."""
    if is_duplicate_match(match):
        return simulate_boards(match, operator, seed=seed)
    rng = random.Random(f"{seed}-{match.pk}")
    rs = ruleset_for(match)
    recorded = 0
    while recorded < max_deals:
        state = table_state(match)
        if state.over:
            break
        banker = state.banker or rng.choice(SEATS)
        record = simulate_deal(
            rs, banker=banker, level=state.levels[side_of(banker)], seed=f"{seed}-{match.pk}-{state.deals}"
        )
        record["ruleset"] = match.round.tournament.ruleset
        record_deal(match, record, operator)
        recorded += 1
    return recorded


def simulate_boards(match: Match, operator, *, seed: int | str = 0) -> int:
    """Play every board of a duplicate table's round from its hands with the engine's legal plays (a called
    board with no show: its fallback suit), recording each through the recording service."""
    rs = ruleset_for(match)
    recorded = 0
    while (board := next_board(match)) is not None and not table_state(match).over:
        engine = board.engine_board
        record = simulate_from_hands(
            rs,
            engine.hands,
            engine.kitty,
            banker=board.banker,
            level=board.level,
            trump=board.fallback if board.trump == "called" else board.trump,
            seed=f"{seed}-{match.pk}-{board.number}",
        )
        record["ruleset"] = match.round.tournament.ruleset
        record_deal(match, record, operator)
        recorded += 1
    return recorded


def simulate_round(
    tournament,
    number: int,
    operator,
    *,
    seed: int | str = 0,
    max_deals: int = MAX_DEALS,
    skip_tables: frozenset[int] = frozenset(),
) -> dict[int, int]:
    """Play every match of round ``number`` (except ``skip_tables``); returns deals recorded per table."""
    rnd = Round.objects.get(tournament=tournament, number=number)
    done = {}
    for match in rnd.matches.select_related("round__tournament").order_by("table"):
        if match.table in skip_tables:
            continue
        with transaction.atomic():
            done[match.table] = simulate_match(match, operator, seed=seed, max_deals=max_deals)
    return done
