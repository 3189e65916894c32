"""The overall ranking of a simultaneous session (issue 40 item 8): every board's traveller compares every table
at every venue — this one's and each imported venue's (``VenueResults``) — and ranks all the pairs together, NS
and EW apart, beside each venue's own ranking (``results.standings``, unchanged).

Settled where RULES §14.4 is silent: ``N`` across venues is the sum of each venue's ``N`` (how many times the
session's boards are played in all), so every board's top is ``2(N − 1)`` and a board compared fewer times is
scaled by Neuberg, as within a venue. An imported board is shown (and counted) only where this venue's own
results of it may be shown (``visibility.visible_board_ids``): the public sees nothing of a board some table
here has still to play.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from rules.matchpoints import BoardEntry, Fault
from rules.session import TravellerLine, score_session
from tournaments.duplicate.results import plays, table_lines
from tournaments.duplicate.venues import venue_name
from tournaments.duplicate.visibility import visible_board_ids
from tournaments.models import Pair, Tournament, VenueLine, VenueResults


@dataclass(frozen=True, slots=True)
class Entrant:
    """A pair across venues: its venue and name; ``pair`` is this venue's row (None for another venue's)."""

    venue: str
    name: str
    pair: Pair | None = None


@dataclass(frozen=True, slots=True)
class OverallLine:
    """One table of one venue on one board, with its matchpoints across every venue."""

    board: int
    venue: str
    round: int
    table: int
    ns: Entrant
    ew: Entrant
    points: int | None
    outcome: str | None
    ns_score: int | None
    ns_matchpoints: Fraction
    ew_matchpoints: Fraction


@dataclass(frozen=True, slots=True)
class OverallResult:
    direction: str
    place: int
    entrant: Entrant
    matchpoints: Fraction
    top: int
    percentage: Decimal
    boards: int


@dataclass(frozen=True, slots=True)
class Overall:
    plays: int  # N across venues
    venues: list[str]
    lines: list[OverallLine]
    standings: list[OverallResult]


def _key(venue: str, pair_id: object) -> tuple[str, object]:
    return (venue, pair_id)


def overall(tournament: Tournament, user=None, board_ids: Collection[int] | None = None) -> Overall:
    """Every venue's tables on the boards ``user`` may see here (of ``board_ids`` when given: one board's
    traveller), scored together."""
    shown = visible_board_ids(tournament, user)
    if board_ids is not None:
        shown &= set(board_ids)
    here = venue_name(tournament)
    imported = list(VenueResults.objects.of(tournament).order_by("venue"))
    n = plays(tournament) + sum(v.plays for v in imported)
    entrants: dict[tuple[str, object], Entrant] = {}
    rows: list[tuple[TravellerLine, dict]] = []
    for line, facts in table_lines(tournament, shown):
        m = facts["match"]
        for pair in (m.pair_ns, m.pair_ew):
            entrants[_key(here, pair.pk)] = Entrant(here, pair.name, pair)
        key = TravellerLine(line.board, _key(here, m.pair_ns.pk), _key(here, m.pair_ew.pk), line.entry)
        rows.append((key, {"venue": here, "round": m.round.number, "table": m.table, **facts}))
    venue_of = {v.pk: v.venue for v in imported}
    for v in VenueLine.objects.filter(results__in=imported, board_id__in=list(shown)).select_related("board"):
        venue = venue_of[v.results_id]
        for name in (v.ns_pair, v.ew_pair):
            entrants[_key(venue, name)] = Entrant(venue, name)
        entry = BoardEntry(v.ns_score, Fault(v.ns_fault), Fault(v.ew_fault))
        key = TravellerLine(v.board.number, _key(venue, v.ns_pair), _key(venue, v.ew_pair), entry)
        facts = {"venue": venue, "round": v.round, "table": v.table, "points": v.points}
        rows.append((key, {**facts, "outcome": v.outcome or None}))
    session = score_session([key for key, _f in rows], n)
    lines = [
        OverallLine(
            board=key.board,
            venue=f["venue"],
            round=f["round"],
            table=f["table"],
            ns=entrants[key.ns_pair],  # type: ignore[index]
            ew=entrants[key.ew_pair],  # type: ignore[index]
            points=f["points"],
            outcome=f["outcome"],
            ns_score=key.entry.ns_score,
            ns_matchpoints=session.lines[key][0],
            ew_matchpoints=session.lines[key][1],
        )
        for key, f in rows
    ]
    lines.sort(key=lambda x: (x.board, x.venue != here, x.venue, x.round, x.table))
    boards: dict[tuple[str, object], int] = {}
    for key, _f in rows:
        for direction, pair in (("NS", key.ns_pair), ("EW", key.ew_pair)):
            boards[(direction, pair)] = boards.get((direction, pair), 0) + 1
    standings = [
        OverallResult(
            direction,
            place,
            entrants[pair],  # type: ignore[index]
            session.pairs[direction][pair].matchpoints,
            session.pairs[direction][pair].tops,
            session.pairs[direction][pair].percentage,
            boards[(direction, pair)],
        )
        for direction in ("NS", "EW")
        for place, pair in session.places[direction]
    ]
    return Overall(n, [here, *venue_of.values()], lines, standings)
