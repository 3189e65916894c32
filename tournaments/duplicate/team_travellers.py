"""A duplicate-teams board's traveller (issue 40 item 7, RULES §14.5): each team match's two tables on the board,
their pairs with their teams, each table's result and NS score, and the board's scale points in the match.

A team board is compared within its match only (team A North–South at table 1, East–West at table 2), so its
traveller carries scale points where a pairs' traveller carries matchpoints: on each table's line, the scale
points the NS pair's team and the EW pair's team took on the board in that match (both lines of a match carry
the same two figures, seen from each table). The table facts are ``results.table_lines``' and the scale points
``team_scale.duplicate_team_result``'s, so every page, the API and the workbook read the same numbers; which
boards are read is the caller's (``visibility.visible_board_ids``).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from tournaments.duplicate.results import table_lines
from tournaments.duplicate.team_scale import duplicate_team_result
from tournaments.models import Pair, Team, TeamPair, TeamTable, Tournament


@dataclass(frozen=True, slots=True)
class TeamTravellerRow:
    """One table's line on a team board: ``match`` the team match's number in its round, ``table`` the hall's
    table; ``points``, ``outcome`` and ``ns_score`` None where the director gave an artificial score."""

    board: int
    round: int
    match: int
    table: int
    ns_pair: Pair
    ew_pair: Pair
    ns_team: Team | None
    ew_team: Team | None
    points: int | None
    outcome: str | None
    ns_score: int | None
    ns_scale: int
    ew_scale: int
    artificial: bool = False


def pair_teams(tournament: Tournament) -> dict[int, Team]:
    """Each pair's team, by the pair's id."""
    rows = TeamPair.objects.filter(team__tournament=tournament).select_related("team")
    return {tp.pair_id: tp.team for tp in rows}


def match_scales(tables: Collection[TeamTable], board_ids: Collection[int]) -> dict[tuple[int, int], int]:
    """By (team match id, board number), the home team's signed scale points on the board."""
    fixtures = {t.team_match_id: t.team_match for t in tables}
    out: dict[tuple[int, int], int] = {}
    for pk, fixture in fixtures.items():
        for swing in duplicate_team_result(fixture, board_ids).boards:
            if swing.shown:
                out[(pk, swing.board)] = swing.scale
    return out


def team_travellers(tournament: Tournament, board_ids: Collection[int]) -> dict[int, list[TeamTravellerRow]]:
    """By board number, each table's line with its match's scale points (round, match, then table order)."""
    lines = table_lines(tournament, board_ids)
    match_ids = [facts["match"].pk for _line, facts in lines]
    seated = TeamTable.objects.filter(match_id__in=match_ids).select_related("team_match__round__tournament")
    tables = {t.match_id: t for t in seated}
    scales = match_scales(list(tables.values()), board_ids)
    teams = pair_teams(tournament)
    out: dict[int, list[TeamTravellerRow]] = {}
    for line, facts in lines:
        m = facts["match"]
        table = tables.get(m.pk)
        if table is None:  # a table outside any team match: not a team board's line
            continue
        home_scale = scales.get((table.team_match_id, line.board), 0)
        ns_team, ew_team = teams.get(m.pair_ns_id), teams.get(m.pair_ew_id)
        ns_home = ns_team is not None and ns_team.pk == table.team_match.home_id
        ns_scale = home_scale if ns_home else -home_scale
        out.setdefault(line.board, []).append(
            TeamTravellerRow(
                board=line.board,
                round=m.round.number,
                match=table.team_match.number,
                table=m.table,
                ns_pair=m.pair_ns,
                ew_pair=m.pair_ew,
                ns_team=ns_team,
                ew_team=ew_team,
                points=facts["points"],
                outcome=facts["outcome"],
                ns_score=line.entry.ns_score,
                ns_scale=max(ns_scale, 0),
                ew_scale=max(-ns_scale, 0),
                artificial=facts["artificial"],
            )
        )
    for rows in out.values():
        rows.sort(key=lambda r: (r.round, r.match, r.table))
    return out
