"""A series' standings: each player's and each pair's placing points from each tournament, best k of n counted.

A tournament counts once the director has finished it: its final standings (``compute_standings``) give each
pair its placing (a knockout's, or a stage's followed by a knockout, its bracket's placings: the final's winner
first), and the series' points table its points. Pairs that share a placing (equal on every
tie-break) each get the points of that shared placing, the higher: two pairs tied for 2nd both get 2nd's points
(no halves to explain at the club). A player gets their pair's points; a pair is its two players, whatever it
was called. Of each one's results the best ``best_of`` count (all of them when it is empty); rows are ranked by
that total, equal totals sharing a rank.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tournaments.models import Pair, Player, Series, Tournament
from tournaments.pairing.bracket import final_ranks
from tournaments.season import ratings
from tournaments.standings.compute import compute_standings


@dataclass
class Row:
    """One player or pair of the series: points per tournament (None: did not play it), the best counted."""

    key: tuple[int, ...]
    name: str
    players: list[Player]
    points: dict[int, int] = field(default_factory=dict)
    counted: set[int] = field(default_factory=set)
    total: int = 0
    rank: int = 0
    rating: int | None = None
    line: list[tuple[int | None, bool]] = field(default_factory=list)  # ``cells`` of the series' tournaments

    def cells(self, tournaments: list[Tournament]) -> list[tuple[int | None, bool]]:
        """(points or None, counted) for each tournament in order: what a page or a sheet writes."""
        return [(self.points.get(t.pk), t.pk in self.counted) for t in tournaments]


@dataclass
class SeriesStandings:
    tournaments: list[Tournament]  # every tournament of the series, by date
    counted: list[Tournament]  # those finished: their placings count
    players: list[Row]
    pairs: list[Row]


def series_tournaments(series: Series) -> list[Tournament]:
    return list(series.tournaments.filter(is_public=True).order_by("start_date", "created_at", "pk"))


def placings(series: Series, tournament: Tournament) -> list[tuple[Pair, int, int]]:
    """(pair, rank, points) of a finished tournament's final placings: the bracket's when it has one."""
    ranked = final_ranks(tournament) or [(line.pair, line.rank) for line in compute_standings(tournament)]
    return [(pair, rank, series.points_for(rank)) for pair, rank in ranked]


def _best(row: Row, best_of: int | None, order: list[int]) -> None:
    """Count the row's best results (an earlier tournament first among equal points)."""
    results = sorted(row.points.items(), key=lambda item: (-item[1], order.index(item[0])))
    kept = results if not best_of else results[:best_of]
    row.counted = {pk for pk, _points in kept}
    row.total = sum(points for _pk, points in kept)


def _ranked(rows: dict, best_of: int | None, order: list[int]) -> list[Row]:
    for row in rows.values():
        _best(row, best_of, order)
    ordered = sorted(rows.values(), key=lambda r: (-r.total, r.name, r.key))
    for i, row in enumerate(ordered):
        row.rank = ordered[i - 1].rank if i and ordered[i - 1].total == row.total else i + 1
    return ordered


def series_standings(series: Series) -> SeriesStandings:
    """The series' player and pair standings, with each player's rating now."""
    everything = series_tournaments(series)
    counted = [t for t in everything if t.is_finished]
    order = [t.pk for t in everything]
    players: dict[tuple[int, ...], Row] = {}
    pairs: dict[tuple[int, ...], Row] = {}
    for tournament in counted:
        for pair, _rank, points in placings(series, tournament):
            members = [pair.player1, pair.player2]
            for player in members:
                row = players.setdefault((player.pk,), Row((player.pk,), player.name, [player]))
                # One person in two pairs of one tournament (entered twice): their better placing.
                row.points[tournament.pk] = max(points, row.points.get(tournament.pk, 0))
            key = tuple(sorted(p.pk for p in members))
            row = pairs.setdefault(key, Row(key, pair.name, members))
            row.name, row.players = pair.name, members  # the latest name the pair played under
            row.points[tournament.pk] = max(points, row.points.get(tournament.pk, 0))
    rated = ratings.current()
    for row in players.values():
        row.rating = rated.of(row.key[0])
    standings = SeriesStandings(
        everything, counted, _ranked(players, series.best_of, order), _ranked(pairs, series.best_of, order)
    )
    for row in [*standings.players, *standings.pairs]:
        row.line = row.cells(everything)
    return standings
