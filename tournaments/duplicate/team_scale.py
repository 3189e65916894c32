"""A duplicate team match scored (RULES §14.5): two tables, the same boards, scale points (级分) per board, the
match won on their sum.

Team A is the home team: North–South at table 1 and East–West at table 2 (``services.seat`` seats the home pair
North–South at the odd tables). On each board its difference is ``d`` = NS score at table 1 − NS score at
table 2, each table's NS score the engine's (``rules.table_result`` from the confirmed deal's ``P`` and the
judge's calls), read on the scale by ``rules.scale_points``; the match's points are win 2, draw 1, loss 0.

Settled where the rules leave a choice: a board not played at either table, fouled there (an artificial score)
or not yet confirmed scores 0 for now; the 2 the director may give the side not at fault is the director's
artificial score, not read here yet.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.ruleset import Ruleset
from rules.scale_points import board_difference, match_points, scale_points
from rules.table_result import table_result
from rules.teams import TeamResult
from tournaments.duplicate.movement import boards_of
from tournaments.duplicate.results import _calls
from tournaments.models import Deal, TeamMatch


@dataclass(frozen=True, slots=True)
class BoardSwing:
    """One board of the match: each table's NS score (None: no result there) and team A's signed scale points."""

    board: int
    ns_table1: int | None
    ns_table2: int | None
    difference: int | None
    scale: int


@dataclass(frozen=True, slots=True)
class TeamScale:
    """The match: its boards, each team's scale points and match points (home first)."""

    boards: tuple[BoardSwing, ...]
    home: int
    away: int
    points: tuple[int, int]


def table_scores(team_match: TeamMatch, rs: Ruleset) -> dict[tuple[int, int], int | None]:
    """Each table's NS score on each board it has confirmed, by (table number, board id)."""
    tables = {t.match_id: t.number for t in team_match.tables.all()}
    deals = list(Deal.objects.filter(match_id__in=tables, board__isnull=False, state=Deal.State.CONFIRMED))
    calls = _calls([d.pk for d in deals])
    scores: dict[tuple[int, int], int | None] = {}
    for d in deals:
        assert d.board_id is not None  # filtered on it
        result = table_result(rs, d.banker, d.attackers_total or 0, calls.get(d.pk, ()))
        scores[(tables[d.match_id], d.board_id)] = result.ns_score
    return scores


def duplicate_team_result(team_match: TeamMatch) -> TeamScale:
    """The match's scale points board by board and its result (RULES §14.5)."""
    tournament = team_match.round.tournament
    rs = Ruleset.from_spec(tournament.ruleset)
    first = team_match.tables.select_related("match__round__tournament").get(number=1).match
    scores = table_scores(team_match, rs)
    swings = []
    for board in boards_of(first):
        one, two = scores.get((1, board.pk)), scores.get((2, board.pk))
        d = board_difference(one, two) if one is not None and two is not None else None
        swings.append(
            BoardSwing(board.number, one, two, d, scale_points(d, rs.decks) if d is not None else 0)
        )
    home = sum(s.scale for s in swings if s.scale > 0)
    away = -sum(s.scale for s in swings if s.scale < 0)
    return TeamScale(tuple(swings), home, away, match_points(home, away))


def as_team_result(scale: TeamScale) -> TeamResult:
    """The match as the team standings read any team match (``rules.teams.TeamResult``): its score the match
    points (2 / 1 / 0), its table points the scale points, its difference the scale points' margin."""
    home, away = scale.points
    winner = None if home == away else ("home" if home > away else "away")
    return TeamResult(home, away, winner, scale.home, scale.away, scale.home - scale.away)
