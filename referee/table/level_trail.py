"""A match's levels after each played deal, for its chart: the engine's match fold, one deal at a time."""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.safestring import SafeString

from tournaments.models import Match
from tournaments.public.charts import LevelStep, levels_chart
from tournaments.scoring.fold import PLAYED, first_banker_of, fold_rows, match_deal, replay_deals
from tournaments.scoring.rulesets import ruleset_for


def level_trail(match: Match, states: Iterable[str] = PLAYED) -> tuple[str, list[LevelStep]]:
    """The start level and both sides' levels after each deal in ``states``, as the match page's header
    folds them (a correction to an early deal flows through, as in ``tournaments.scoring.fold``)."""
    rs = ruleset_for(match)
    rows = [row for row in fold_rows(match, states, None) if row["verdict__result"]]
    deals = [match_deal(row, rs) for row in rows]
    first_banker = first_banker_of(match, rows)
    steps = []
    for k, row in enumerate(rows, start=1):
        state, _notes = replay_deals(match, rs, deals[:k], first_banker)
        if state.deals < k:  # played after the match ended: left out, as the fold leaves it out
            break
        steps.append(LevelStep(row["number"], row["banker"], state.levels["NS"], state.levels["EW"]))
    return rs.start_level, steps


def match_levels_chart(match: Match) -> SafeString:
    """The match page's picture of its levels deal by deal (empty before the first played deal)."""
    start, steps = level_trail(match)
    return levels_chart(steps, start, match.pair_ns.name, match.pair_ew.name)
