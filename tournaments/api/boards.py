"""A duplicate session's answers (issue 40 item 7): its boards with their travellers, and its standings in
each direction.

What is shown is ``tournaments.duplicate.visibility``'s: the seed once the session is over, a board's hands,
kitty and traveller once every table due to play it has played it (the fingerprint always, as every sheet
prints it before play). Matchpoints are exact fractions in the engine; the answer writes a whole number as one,
any other to 4 decimals.
"""

from __future__ import annotations

from fractions import Fraction

from tournaments.duplicate.overall import OverallResult, overall
from tournaments.duplicate.results import PairResult, TravellerRow, standings, travellers
from tournaments.duplicate.team_travellers import TeamTravellerRow, team_travellers
from tournaments.duplicate.visibility import published_seed, visible_board_ids
from tournaments.models import Board, Pair, Team, Tournament


def number(value: Fraction) -> int | float:
    """An exact figure as JSON: a whole number as an int, otherwise rounded to 4 decimals."""
    return int(value) if value.denominator == 1 else round(float(value), 4)


def pair_ref(pair: Pair) -> dict:
    return {"id": pair.pk, "name": pair.name}


def team_ref(team: Team | None) -> dict | None:
    return {"id": team.pk, "name": team.name} if team is not None else None


def traveller_line(r: TravellerRow | TeamTravellerRow) -> dict:
    """One table's line: a pairs' line with its matchpoints; a team board's (``TeamTravellerRow``) with its
    team match, both pairs' teams and the board's scale points in the match, its matchpoints null."""
    line: dict = {"round": r.round, "table": r.table}
    if isinstance(r, TeamTravellerRow):
        line["match"] = r.match
    line |= {
        "ns_pair": pair_ref(r.ns_pair),
        "ew_pair": pair_ref(r.ew_pair),
        "points": r.points,
        "outcome": r.outcome,
        "ns_score": r.ns_score,
    }
    if isinstance(r, TeamTravellerRow):
        return line | {
            "ns_team": team_ref(r.ns_team),
            "ew_team": team_ref(r.ew_team),
            "ns_matchpoints": None,
            "ew_matchpoints": None,
            "ns_scale_points": r.ns_scale,
            "ew_scale_points": r.ew_scale,
        }
    return line | {"ns_matchpoints": number(r.ns_matchpoints), "ew_matchpoints": number(r.ew_matchpoints)}


def board_entry(board: Board, rows: list | None) -> dict:
    """One board as the boards file writes it, with its traveller; hands and kitty None while it is not
    complete."""
    shown = rows is not None
    entry: dict = {
        "number": board.number,
        "ruleset": board.ruleset,
        "level": board.level,
        "banker": board.banker,
        "trump": board.trump,
    }
    if board.trump == Board.Trump.CALLED:
        entry["fallback"] = board.fallback
    entry["hands"] = dict(board.hands) if shown else None
    entry["kitty"] = board.kitty if shown else None
    entry["fingerprint"] = board.fingerprint
    entry["traveller"] = [traveller_line(r) for r in rows or ()]
    return entry


def boards(tournament: Tournament) -> dict:
    """``GET /api/v1/tournaments/{slug}/boards/``: the public's view of every board of the session."""
    complete = visible_board_ids(tournament)
    teams = tournament.format == Tournament.Format.DUPLICATE_TEAMS
    rows: dict = (team_travellers if teams else travellers)(tournament, complete)
    return {
        "seed": published_seed(tournament),
        "boards": [
            board_entry(b, rows.get(b.number, []) if b.pk in complete else None)
            for b in Board.objects.of(tournament).order_by("number")
        ],
    }


def standing_line(line: PairResult) -> dict:
    return {
        "rank": line.place,
        "direction": line.direction,
        "pair": pair_ref(line.pair),
        "withdrawn": line.pair.withdrawn,
        "matchpoints": number(line.matchpoints),
        "top": line.top,
        "percentage": f"{line.percentage:.2f}",
        "boards": line.boards,
    }


def duplicate_standings(tournament: Tournament) -> dict:
    """A duplicate's standings: NS and EW pairs ranked apart, over the complete boards only."""
    lines = [standing_line(line) for line in standings(tournament)]
    return {"up_to_round": None, "tie_breaks": [], "lines": lines, "placings": []}


def overall_line(line: OverallResult) -> dict:
    """A pair's line across venues: its venue, and ``pair`` with its id here (None for another venue's pair)."""
    pair = line.entrant.pair
    return {
        "rank": line.place,
        "direction": line.direction,
        "venue": line.entrant.venue,
        "pair": {"id": pair.pk if pair else None, "name": line.entrant.name},
        "matchpoints": number(line.matchpoints),
        "top": line.top,
        "percentage": f"{line.percentage:.2f}",
        "boards": line.boards,
    }


def overall_standings(tournament: Tournament) -> dict:
    """``…/standings/?scope=all``: every venue's pairs ranked together (issue 40 item 8), over the boards every
    table here has played."""
    session = overall(tournament)
    return {
        "up_to_round": None,
        "tie_breaks": [],
        "lines": [overall_line(line) for line in session.standings],
        "placings": [],
        "scope": "all",
        "venues": session.venues,
        "plays": session.plays,
    }
