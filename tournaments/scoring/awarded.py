"""The director's awarded result put on the match when its deals are folded again (``fold.recompute_match`` asks
``apply_to_match`` last, so an adjustment survives every later confirm, reopen or re-scoring)."""

from __future__ import annotations

from dataclasses import replace

from django.utils import timezone

from rules.match import MatchEnd, MatchState
from rules.ruleset import Ruleset
from rules.standings import ladder_positions
from tournaments.models import Adjustment, Match


def side_by_levels(match: Match, level_ns: str, level_ew: str) -> str | None:
    """The side on the higher level (its rung on the ladder), None when level."""
    positions = ladder_positions(Ruleset.from_spec(match.round.tournament.ruleset))
    ns, ew = positions.get(level_ns, 0), positions.get(level_ew, 0)
    return None if ns == ew else ("NS" if ns > ew else "EW")


def winner_by_levels(match: Match, level_ns: str, level_ew: str):
    """The pair on the higher level, None when level."""
    side = side_by_levels(match, level_ns, level_ew)
    return match.pair_of(side) if side else None


def ruled_state(match: Match, state: MatchState) -> MatchState:
    """The match's state as the director's standing ruling leaves it: assigned levels (or both sides losing) end
    it at once, whatever was played, so no deal starts after the ruling and every page, the API, the workbook
    and ``match_state`` tell the ruling. A forfeit is the fold's own (``forfeited_by``); none: ``state``."""
    adjustment = Adjustment.objects.match_result(match)
    if adjustment is None or adjustment.kind == Adjustment.Kind.FORFEIT:
        return state
    levels = dict(state.levels)
    winner = None
    if adjustment.kind == Adjustment.Kind.LEVELS:
        levels = {"NS": adjustment.level_ns, "EW": adjustment.level_ew}
        winner = side_by_levels(match, adjustment.level_ns, adjustment.level_ew)
    end = MatchEnd(how=Match.EndedBy.ADJUSTED.value, winner=winner, levels=levels, deals=state.deals)
    return replace(state, levels=levels, banker=None, end=end, overtime=False)


def apply_to_match(match: Match) -> Adjustment | None:
    """Put the awarded result on the match (not saved: the fold saves it). A forfeit needs nothing here: it is
    the match's ``forfeited_by``, which the engine's fold reads."""
    adjustment = Adjustment.objects.match_result(match)
    if adjustment is None or adjustment.kind == Adjustment.Kind.FORFEIT:
        return adjustment
    if adjustment.kind == Adjustment.Kind.LEVELS:
        match.level_ns, match.level_ew = adjustment.level_ns, adjustment.level_ew
        match.winner = winner_by_levels(match, adjustment.level_ns, adjustment.level_ew)
    else:  # both sides lose
        match.winner = None
    match.state = Match.State.FINISHED
    match.ended_by = Match.EndedBy.ADJUSTED
    match.ended_at = match.ended_at or timezone.now()
    return adjustment
