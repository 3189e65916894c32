"""Team competitions: a team match's tables, its result (table points or victory points on a continuous scale),
a league's double round robin, team standings with their tie-breaks, a team Swiss round — plain ids in, plain
data out (no database).

A team match is ``k`` tables: the home team's pair i meets the away team's pair i at table i, the home pair
North–South at the odd tables and East–West at the even ones, so each team sits each way equally often.

The victory-point scale is the WBF's continuous one (2013) with the level difference in place of IMPs: the
winner's share is ``half + half × (1 − τ^(3m/B)) / (1 − τ³)``, τ = (√5 − 1)/2, ``m`` the margin, ``B`` the
blitz margin (``blitz_per_table × √k``), capped at the whole scale; the loser takes the rest, so every match
shares the same total. Victory points are kept in hundredths (integers) so sums and ties are exact.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from .pairing import K, SwissRound, circle_schedule, swiss_round

TABLE_POINTS = "table_points"  # the team's score is the sum of its tables' match points
VICTORY_POINTS = "victory_points"  # the level difference over the tables, on the continuous VP scale
METHODS = (TABLE_POINTS, VICTORY_POINTS)
TEAM_TIEBREAKS: tuple[str, ...] = ("table_points", "level_diff", "head_to_head")
TAU = (math.sqrt(5) - 1) / 2
MIN_ROSTER, MAX_ROSTER = 2, 8


class TeamsError(ValueError):
    """A team match or league that cannot be: a line-up of the wrong size, a team meeting itself, a bad method."""


# --- a team match's tables ---------------------------------------------------------------------------------


def home_sits_north_south(table: int) -> bool:
    """Whether the home pair sits North–South at this table (1-based): at the odd ones; the sides alternate."""
    return table % 2 == 1


def seat_tables(home: Sequence[K], away: Sequence[K]) -> list[tuple[K, K]]:
    """The tables of a team match from the two line-ups in table order: ``(north_south, east_west)`` per table."""
    if len(home) != len(away) or not home:
        raise TeamsError("both line-ups name one pair per table")
    if len(set(home)) != len(home) or len(set(away)) != len(away):
        raise TeamsError("a pair plays one table of a team match")
    return [
        (h, a) if home_sits_north_south(i) else (a, h)
        for i, (h, a) in enumerate(zip(home, away, strict=True), 1)
    ]


# --- the result --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TableScore:
    """One finished table, from the home team's side: the match points each team's pair took and their final
    ladder positions (``rules.standings.ladder_position``)."""

    home_points: int
    away_points: int
    level_home: int = 0
    level_away: int = 0


@dataclass(frozen=True, slots=True)
class VictoryScale:
    """The continuous scale: its whole (20 VP, in hundredths) and the blitz margin per table, in levels."""

    whole: int = 2000
    blitz_per_table: float = 6.0

    def __post_init__(self) -> None:
        if self.whole <= 0 or self.whole % 2 or self.blitz_per_table <= 0:
            raise TeamsError("a victory-point scale needs an even whole and a positive blitz margin")


def victory_points(margin: int, tables: int, scale: VictoryScale | None = None) -> tuple[int, int]:
    """The winner's and the loser's victory points (hundredths) for a level margin over ``tables`` tables."""
    sc = scale or VictoryScale()
    if tables < 1:
        raise TeamsError("a team match has at least one table")
    half = sc.whole // 2
    m = abs(margin)
    blitz = sc.blitz_per_table * math.sqrt(tables)
    share = half + half * (1 - TAU ** (3 * m / blitz)) / (1 - TAU**3)
    win = min(sc.whole, round(share))
    return win, sc.whole - win


@dataclass(frozen=True, slots=True)
class TeamResult:
    """A team match's result: each team's score (table points, or VP in hundredths), the winner ("home", "away"
    or None for a draw), and the sums the tie-breaks read."""

    home_score: int
    away_score: int
    winner: str | None
    table_points_home: int
    table_points_away: int
    level_diff: int  # home's levels less away's, over the tables


def team_result(
    tables: Iterable[TableScore], method: str = TABLE_POINTS, scale: VictoryScale | None = None
) -> TeamResult:
    """Combine the finished tables: the summed table points, or the level difference as victory points."""
    if method not in METHODS:
        raise TeamsError(f"unknown team scoring {method!r} (known: {', '.join(METHODS)})")
    tables = list(tables)
    tp_home = sum(t.home_points for t in tables)
    tp_away = sum(t.away_points for t in tables)
    diff = sum(t.level_home - t.level_away for t in tables)
    if method == TABLE_POINTS:
        home, away = tp_home, tp_away
    else:
        win, lose = victory_points(diff, max(len(tables), 1), scale)
        home, away = (win, lose) if diff >= 0 else (lose, win)
    winner = None if home == away else ("home" if home > away else "away")
    return TeamResult(home, away, winner, tp_home, tp_away, diff)


# --- a league's fixtures -----------------------------------------------------------------------------------


def double_round_robin(ids: Sequence[K]) -> list[list[tuple[K, K | None]]]:
    """Every team meets every other twice, once at home: the first leg by the circle method (home and away
    alternating), the second leg the same match days with home and away swapped. ``(home, None)`` is a bye."""
    first = circle_schedule(ids)
    second: list[list[tuple[K, K | None]]] = [
        [(a, None) if b is None else (b, a) for a, b in day] for day in first
    ]
    return first + second


# --- standings ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TeamMatchResult:
    """A finished team match between teams ``home`` and ``away`` (``away`` None: a bye worth ``bye_score``)."""

    home: str
    away: str | None
    result: TeamResult | None = None
    bye_score: int = 0


@dataclass(frozen=True, slots=True)
class TeamRow:
    """One team's line: rank (equal keys share it), its score and record, and the tie-break values."""

    rank: int
    team: str
    score: int
    played: int
    wins: int
    draws: int
    losses: int
    tiebreaks: Mapping[str, int] = field(default_factory=dict)


def team_standings(
    results: Iterable[TeamMatchResult],
    tiebreaks: Sequence[str] = TEAM_TIEBREAKS,
    *,
    teams: Iterable[str] = (),
) -> list[TeamRow]:
    """A zone's table: by score, then the tie-breaks in order (table points, level difference, head-to-head —
    the score taken against the teams still tied on every earlier key, settled again inside a smaller tie)."""
    unknown = [tb for tb in tiebreaks if tb not in TEAM_TIEBREAKS]
    if unknown:
        raise TeamsError(f"unknown tie-breaks {unknown!r}")
    teams = tuple(teams)
    score: dict[str, int] = defaultdict(int)
    rec: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    cols: dict[str, dict[str, int]] = {tb: defaultdict(int) for tb in TEAM_TIEBREAKS}
    h2h: dict[tuple[str, str], int] = defaultdict(int)
    met: dict[str, set[str]] = defaultdict(set)
    for t in teams:
        score[t] += 0
    for r in results:
        if r.away is None:
            score[r.home] += r.bye_score
            continue
        if r.home == r.away:
            raise TeamsError(f"team {r.home!r} cannot play itself")
        res = r.result
        if res is None:
            continue
        for me, opp, mine, tp, diff, side in (
            (r.home, r.away, res.home_score, res.table_points_home, res.level_diff, "home"),
            (r.away, r.home, res.away_score, res.table_points_away, -res.level_diff, "away"),
        ):
            score[me] += mine
            k = 1 if res.winner is None else (0 if res.winner == side else 2)
            rec[me][k] += 1
            cols["table_points"][me] += tp
            cols["level_diff"][me] += diff
            h2h[(me, opp)] += mine
            met[me].add(opp)
    keys: dict[str, tuple[int, ...]] = {t: (score[t],) for t in score}
    for tb in tiebreaks:
        if tb == "head_to_head":
            groups: dict[tuple[int, ...], list[str]] = defaultdict(list)
            for t, key in keys.items():
                groups[key].append(t)
            for group in groups.values():
                for t, beaten in _head_to_head(group, h2h, met).items():
                    cols["head_to_head"][t] = beaten[0]
                    keys[t] += beaten
        else:
            for t in keys:
                keys[t] += (cols[tb][t],)
    given = {t: i for i, t in enumerate(dict.fromkeys(teams))}
    order = sorted(keys, key=lambda t: (tuple(-v for v in keys[t]), given.get(t, len(given)), t))
    rows: list[TeamRow] = []
    for i, t in enumerate(order):
        rank = rows[-1].rank if rows and keys[order[i - 1]] == keys[t] else i + 1
        w, d, lo = rec[t]
        rows.append(TeamRow(rank, t, score[t], w + d + lo, w, d, lo, {tb: cols[tb][t] for tb in tiebreaks}))
    return rows


def _head_to_head(
    group: list[str], h2h: Mapping[tuple[str, str], int], met: Mapping[str, set[str]]
) -> dict[str, tuple[int, ...]]:
    """The score among a tied group, applied again to a smaller group still tied inside it; a lone team 0."""
    if len(group) == 1:
        return {group[0]: (0,)}
    members = set(group)
    vals = {t: sum(h2h[(t, o)] for o in met[t] & members) for t in group}
    sub: dict[int, list[str]] = defaultdict(list)
    for t in group:
        sub[vals[t]].append(t)
    out: dict[str, tuple[int, ...]] = {}
    for v, ts in sub.items():
        if 1 < len(ts) < len(group):
            for t, beaten in _head_to_head(ts, h2h, met).items():
                out[t] = (v, *beaten)
        else:
            for t in ts:
                out[t] = (v,)
    return out


# --- team Swiss and playoffs -------------------------------------------------------------------------------


def team_swiss_round(
    ranked: Sequence[K],
    *,
    first_round: bool = False,
    played: Iterable[frozenset[K]] = (),
    had_bye: Collection[K] = (),
    home_minus_away: Mapping[K, int] | None = None,
    scores: Mapping[K, int] | None = None,
) -> SwissRound[K]:
    """A team Swiss round by the pairs' matching (``rules.pairing.swiss_round``): teams ranked best first, no
    repeat where any pairing avoids one; home goes to the team that was away more often."""
    return swiss_round(
        ranked,
        first_round=first_round,
        played=played,
        had_bye=had_bye,
        ns_minus_ew=home_minus_away,
        points=scores,
    )


BY_SCORE = "by_score"  # each tier of the playoff field ranked across the zones by score, then table points
BY_ZONE_ORDER = "zone_order"  # each tier in the zones' own order (zone A's winner seed 1, zone B's seed 2 …)
CROSSOVER = "crossover"  # the winners ranked by score, every later tier in the winners' zones' order: A1–B2
SEEDINGS = (CROSSOVER, BY_SCORE, BY_ZONE_ORDER)


def shared_places(tables: Mapping[str, Sequence[TeamRow]], per_zone: int) -> dict[str, list[str]]:
    """Each zone whose last qualifying place is shared on every criterion (the team at place ``per_zone``
    has the rank of the team after it): the teams that share it. Somebody must choose who goes through."""
    out: dict[str, list[str]] = {}
    for zone, rows in tables.items():
        if len(rows) > per_zone and rows[per_zone - 1].rank == rows[per_zone].rank:
            rank = rows[per_zone - 1].rank
            out[zone] = [r.team for r in rows if r.rank == rank]
    return out


def _chosen_first(rows: Sequence[TeamRow], per_zone: int, chosen: Sequence[str]) -> list[TeamRow]:
    """A zone's table with the teams chosen for a shared last place moved ahead of the others sharing it."""
    if not chosen or len(rows) <= per_zone:
        return list(rows)
    rank = rows[per_zone - 1].rank
    tied = [r for r in rows if r.rank == rank]
    tied.sort(key=lambda r: r.team not in chosen)
    ahead = [r for r in rows if r.rank < rank]
    return ahead + tied + [r for r in rows if r.rank > rank]


def zone_leaders(
    tables: Mapping[str, Sequence[TeamRow]],
    per_zone: int = 1,
    seeding: str = CROSSOVER,
    chosen: Mapping[str, Sequence[str]] | None = None,
) -> list[str]:
    """The playoff field in seed order: every zone's winner first (zones ranked by their winners' score, or in
    the zones' order), then every zone's second, and so on — so the bracket (``rules.knockout.seeded_lines``)
    keeps zone mates apart. ``CROSSOVER`` orders every later tier as the winners' zones, so two zones cross
    (A1–B2, B1–A2) whoever finished second best. ``chosen``: for a zone whose last qualifying place is shared
    (``shared_places``), the teams the director chose for it; refused when a shared place has no choice."""
    if seeding not in SEEDINGS:
        raise TeamsError(f"unknown playoff seeding {seeding!r} (known: {', '.join(SEEDINGS)})")
    chosen = chosen or {}
    open_ = [
        z for z, teams in shared_places(tables, per_zone).items() if not set(chosen.get(z, ())) & set(teams)
    ]
    if open_:
        raise TeamsError(f"the last qualifying place of zones {open_!r} is shared: choose who goes through")
    tables = {z: _chosen_first(rows, per_zone, chosen.get(z, ())) for z, rows in tables.items()}
    zones = list(tables)
    out: list[str] = []
    for place in range(per_zone):
        tier = [(z, tables[z][place]) for z in zones if len(tables[z]) > place]
        if seeding == BY_SCORE or (seeding == CROSSOVER and place == 0):
            tier.sort(key=lambda zr: (-zr[1].score, -zr[1].tiebreaks.get("table_points", 0), zr[1].team))
        if seeding == CROSSOVER and place == 0:
            zones = [z for z, _row in tier] + [z for z in zones if z not in {z for z, _row in tier}]
        out += [r.team for _z, r in tier]
    return out


def playoff_winner(result: TeamResult, home_seed: int, away_seed: int) -> tuple[str, str]:
    """Who goes through a playoff team match, and why: the winner (``"score"``); a drawn team match goes to the
    side with more table points (``"table_points"``), then the better level difference (``"level_diff"``),
    then the better (lower) seed (``"seed"``)."""
    if result.winner is not None:
        return result.winner, "score"
    if result.table_points_home != result.table_points_away:
        return ("home" if result.table_points_home > result.table_points_away else "away"), "table_points"
    if result.level_diff:
        return ("home" if result.level_diff > 0 else "away"), "level_diff"
    return ("home" if home_seed <= away_seed else "away"), "seed"
