"""Team results from the database: each team match's tables read in one query and combined by the engine
(``rules.teams``), and a zone's table (or a team Swiss's standings) from them. Nothing is stored: a table's
match corrected at the desk flows through to its team match and the zone at once."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from rules.match import TIME_POINTS, time_points
from rules.ruleset import Ruleset, RulesetError
from rules.standings import ladder_positions
from rules.teams import (
    TABLE_POINTS,
    TableScore,
    TeamMatchResult,
    TeamResult,
    VictoryScale,
    team_result,
    team_standings,
)
from tournaments.duplicate.team_scale import as_team_result, duplicate_team_result
from tournaments.duplicate.visibility import complete_board_ids
from tournaments.models import Match, Team, TeamMatch, TeamTable, Tournament, Zone, team_event

TIE_BREAKS = ("table_points", "level_diff", "head_to_head")


@dataclass
class Standing:
    """One team's line of a zone's table."""

    rank: int
    team: Team
    score: int
    played: int
    wins: int
    draws: int
    losses: int
    tiebreaks: dict[str, int] = field(default_factory=dict)


def shown(score: int | None, scoring: str) -> str:
    """A score as the pages print it: table points as they are, victory points with two decimals."""
    if score is None:
        return ""
    return str(score) if scoring == TABLE_POINTS else f"{score / 100:.2f}"


def _ruleset(tournament: Tournament) -> Ruleset | None:
    try:
        return Ruleset.from_spec(tournament.ruleset)
    except RulesetError:
        return None


def _positions(tournament: Tournament) -> dict[str, int]:
    try:
        return ladder_positions(Ruleset.from_spec(tournament.ruleset))
    except RulesetError:
        return {}


def results(tournament: Tournament, team_matches=None) -> dict[int, TeamResult | None]:
    """Each team match's result (None until every one of its tables is finished), in one query of the tables."""
    event = team_event(tournament)
    tables = TeamTable.objects.filter(team_match__round__tournament=tournament)
    if team_matches is not None:
        tables = tables.filter(team_match__in=team_matches)
    rows = tables.values_list(
        "team_match_id", "number", "match__state", "match__winner_id", "match__pair_ns_id",
        "match__level_ns", "match__level_ew", "team_match__home_id", "match__ended_by",
    )  # fmt: skip
    pos = _positions(tournament)
    rs = _ruleset(tournament)
    event_points = tournament.points_win, tournament.points_draw, tournament.points_loss
    timed_points = TIME_POINTS["win"], TIME_POINTS["draw"], TIME_POINTS["loss"]
    scores: dict[int, list[TableScore]] = defaultdict(list)
    open_ = set()
    for tm, number, state, winner, ns, lv_ns, lv_ew, _home, ended_by in rows:
        if state != Match.State.FINISHED:
            open_.add(tm)
            continue
        home_ns = number % 2 == 1
        home_won = winner is not None and (winner == ns) == home_ns
        away_won = winner is not None and not home_won
        # A table the time rule scored itself (``points``) counts 2 / 1 / 0, whatever the event's points.
        timed = rs is not None and time_points(rs, ended_by, None) is not None
        win, draw, loss = timed_points if timed else event_points
        hp = win if home_won else loss if away_won else draw
        ap = win if away_won else loss if home_won else draw
        lh, la = (pos.get(lv_ns, 0), pos.get(lv_ew, 0)) if home_ns else (pos.get(lv_ew, 0), pos.get(lv_ns, 0))
        scores[tm].append(TableScore(hp, ap, lh, la))
    want = event.tables if event else None
    method = event.scoring if event else TABLE_POINTS
    scale = VictoryScale(blitz_per_table=event.blitz_per_table) if event else None
    out: dict[int, TeamResult | None] = {}
    for tm, ts in scores.items():
        complete = tm not in open_ and (want is None or len(ts) == want)
        out[tm] = team_result(ts, method, scale) if complete else None
    if tournament.format == Tournament.Format.DUPLICATE_TEAMS:  # won on scale points (RULES §14.5)
        finished = TeamMatch.objects.filter(pk__in=[tm for tm, res in out.items() if res is not None])
        played_out = complete_board_ids(tournament) if finished else set()
        for team_match in finished.select_related("round__tournament"):
            # A result only once every table due to play its boards has (``visibility``), for everyone.
            swings = duplicate_team_result(team_match, played_out)
            out[team_match.pk] = as_team_result(swings) if swings.complete else None
    return out


def zone_table(tournament: Tournament, zone: Zone | None) -> list[Standing]:
    """A zone's table (every team of the tournament for ``zone`` None) by score, then table points, level
    difference and head-to-head; the league's matches only, never the playoffs'."""
    rows_of = tournament.teams.all() if zone is None else zone.teams.all()
    teams = {str(t.pk): t for t in rows_of.order_by("seed", "name")}
    fixtures = TeamMatch.objects.filter(round__tournament=tournament)
    if zone is not None:
        fixtures = fixtures.filter(zone=zone)
    event = team_event(tournament)
    if event is not None and event.playoff_start is not None:  # the playoffs are no league matches
        fixtures = fixtures.filter(round__number__lt=event.playoff_start)
    pairs = dict(fixtures.values_list("pk", "home_id").order_by())
    aways = dict(fixtures.values_list("pk", "away_id").order_by())
    found = results(tournament, fixtures)
    plain = [
        TeamMatchResult(str(pairs[tm]), str(aways[tm]), res)
        for tm, res in found.items()
        if res is not None and tm in pairs
    ]
    rows = team_standings(plain, TIE_BREAKS, teams=list(teams))
    return [
        Standing(r.rank, teams[r.team], r.score, r.played, r.wins, r.draws, r.losses, dict(r.tiebreaks))
        for r in rows
        if r.team in teams
    ]


def current_day(tournament: Tournament, days: list[int] | None = None) -> int | None:
    """The match day the pages show first: the first with a fixture still without its result, else the last."""
    if days is None:
        days = list(
            tournament.rounds.filter(team_matches__isnull=False)
            .distinct()
            .order_by("number")
            .values_list("number", flat=True)
        )
    finished = results(tournament)
    open_days = TeamMatch.objects.filter(round__tournament=tournament).exclude(
        pk__in=[pk for pk, r in finished.items() if r is not None]
    )
    day = open_days.order_by("round__number").values_list("round__number", flat=True).first()
    return day if day is not None else (days[-1] if days else None)
