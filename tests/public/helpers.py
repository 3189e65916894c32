"""Matches played deal by deal through the recording service (simulated legal deals), and reading the SVGs."""

from __future__ import annotations

import re

from referee.table.recording import records
from rules.seats import side_of
from rules.simulate import simulate_deal
from tournaments.models import Deal, Match
from tournaments.scoring.fold import table_state


def play_deals(match: Match, user, count: int) -> list[Deal]:
    """Record ``count`` whole deals (or until the match ends), each at the banker and level the match gives."""
    deals = []
    for seed in range(count):
        state = table_state(match)
        if state.over:
            break
        banker = state.banker or "N"
        record = simulate_deal(
            match.round.tournament.ruleset, banker=banker, level=state.levels[side_of(banker)], seed=seed
        )
        deals.append(records.record_deal(match, record, user))
    return deals


def attrs(svg: str, tag: str, css: str = "") -> list[dict[str, str]]:
    """The attributes of every ``tag`` element (whose class contains ``css``) in an SVG string."""
    found = []
    for match in re.finditer(rf"<{tag}\b([^>]*)>", svg):
        pairs = dict(re.findall(r'([\w-]+)="([^"]*)"', match.group(1)))
        if css in pairs.get("class", "").split() or not css:
            found.append(pairs)
    return found
