"""A duplicate team match scored (RULES §14.5): two tables, the same boards, scale points (级分) per board, the
match won on their sum.

Team A is the home team: North–South at table 1 and East–West at table 2 (``services.seat`` seats the home pair
North–South at the odd tables). On each board its difference is ``d`` = NS score at table 1 − NS score at
table 2, each table's NS score the engine's (``rules.table_result`` from the confirmed deal's ``P`` and the
judge's calls), read on the scale by ``rules.scale_points``. The match's points are win 2, draw 1, loss 0, or,
when the event scores victory points, the director's victory-point table (``victory_table``) read on the scale
points' margin, in hundredths as every victory point of the team pages.

A board without a result at one of the tables — not played, fouled (an artificial score there), both sides at
fault — scores as the director rules it (``BoardRuling``): 0, or 2 to the side not at fault; 0 until a ruling.
A board not yet played at both tables scores 0 for now. What of it may be shown is the caller's
(``visibility``): a board not in ``visible`` is hidden, and the match is ``complete`` only when every board is.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from rules.ruleset import Ruleset
from rules.scale_points import board_difference, match_points, scale_points
from rules.table_result import table_result
from rules.teams import VICTORY_POINTS, TeamResult
from tournaments.duplicate.movement import boards_of
from tournaments.duplicate.results import _calls
from tournaments.duplicate.victory_table import table_of
from tournaments.models import BoardRuling, Deal, TeamMatch, team_event

RULED: dict[str, int] = {
    BoardRuling.Award.NONE.value: 0,
    BoardRuling.Award.HOME.value: 2,
    BoardRuling.Award.AWAY.value: -2,
}


@dataclass(frozen=True, slots=True)
class BoardSwing:
    """One board of the match: each table's NS score (None: no result there), team A's signed scale points, the
    director's ruling when it decided them, and whether it may be shown."""

    board: int
    ns_table1: int | None
    ns_table2: int | None
    difference: int | None
    scale: int
    ruling: str = ""
    shown: bool = True


@dataclass(frozen=True, slots=True)
class TeamScale:
    """The match: its boards, each team's scale points and its points (home first): match points, or victory
    points in hundredths when ``victory``; ``complete``: every board may be shown."""

    boards: tuple[BoardSwing, ...]
    home: int
    away: int
    points: tuple[int, int]
    victory: bool = False
    complete: bool = True


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


def board_swing(number: int, one: int | None, two: int | None, ruling: str, decks: int) -> BoardSwing:
    """One board from both tables' NS scores; where a table has none, the director's ruling if there is one."""
    if one is not None and two is not None:
        d = board_difference(one, two)
        return BoardSwing(number, one, two, d, scale_points(d, decks))
    return BoardSwing(number, one, two, None, RULED.get(ruling, 0), ruling)


def duplicate_team_result(team_match: TeamMatch, visible: Collection[int] | None = None) -> TeamScale:
    """The match's scale points board by board and its result (RULES §14.5); ``visible``: the ids of the boards
    that may be shown (None: all), the others hidden and left out of the sums."""
    tournament = team_match.round.tournament
    rs = Ruleset.from_spec(tournament.ruleset)
    first = team_match.tables.select_related("match__round__tournament").get(number=1).match
    scores = table_scores(team_match, rs)
    rulings = dict(team_match.board_rulings.values_list("board_id", "award"))
    swings = []
    for board in boards_of(first):
        if visible is not None and board.pk not in visible:
            swings.append(BoardSwing(board.number, None, None, None, 0, shown=False))
            continue
        one, two = scores.get((1, board.pk)), scores.get((2, board.pk))
        swings.append(board_swing(board.number, one, two, rulings.get(board.pk, ""), rs.decks))
    home = sum(s.scale for s in swings if s.scale > 0)
    away = -sum(s.scale for s in swings if s.scale < 0)
    event = team_event(tournament)
    victory = event is not None and event.scoring == VICTORY_POINTS
    if victory:  # the director's table, else the default for the match's boards (the form shows the same)
        assert event is not None
        points = match_points(home, away, table_of(event.victory_table, len(swings)))
    else:
        points = match_points(home, away)
    return TeamScale(tuple(swings), home, away, points, victory, all(s.shown for s in swings))


def as_team_result(scale: TeamScale) -> TeamResult:
    """The match as the team standings read any team match (``rules.teams.TeamResult``): its score the match
    points (2 / 1 / 0) or victory points (hundredths), its table points the scale points, its difference the
    scale points' margin."""
    home, away = scale.points
    winner = None if home == away else ("home" if home > away else "away")
    return TeamResult(home, away, winner, scale.home, scale.away, scale.home - scale.away)
