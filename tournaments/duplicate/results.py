"""A duplicate session scored from the database (RULES §14.3–14.4): each table's result on each board, the
travellers with their matchpoints, and each pair's matchpoints, tops, percentage and place in its direction.

Every number is the engine's: ``rules.table_result`` turns a confirmed deal's ``P`` and the judge's calls into
the NS score, ``rules.session.score_session`` compares, scales by Neuberg and gives the artificial scores. Which
boards are read is the caller's, from ``visibility.visible_board_ids`` (the public: the complete boards only),
so the standings never hold a board some table has still to play.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from rules.facts import PenaltyCall
from rules.matchpoints import BoardEntry, Fault, top
from rules.movement import MovementError
from rules.ruleset import Ruleset
from rules.session import TravellerLine, score_session
from rules.table_result import table_result
from tournaments.duplicate.movement import DuplicateError, full_rounds
from tournaments.duplicate.visibility import session_rounds, visible_board_ids
from tournaments.models import ArtificialScore, Board, Deal, Match, Pair, Penalty, Tournament


@dataclass(frozen=True, slots=True)
class TravellerRow:
    """One table's line on a board: ``points``, ``outcome`` and ``ns_score`` are None where the director gave
    an artificial score (``artificial``); the matchpoints are exact."""

    board: int
    round: int
    table: int
    ns_pair: Pair
    ew_pair: Pair
    points: int | None
    outcome: str | None
    ns_score: int | None
    ns_matchpoints: Fraction
    ew_matchpoints: Fraction
    artificial: bool = False


@dataclass(frozen=True, slots=True)
class PairResult:
    """A pair's session in its direction: exact matchpoints over its tops, the percentage shown, its place."""

    direction: str
    place: int
    pair: Pair
    matchpoints: Fraction
    top: int
    percentage: Decimal
    boards: int


def plays(tournament: Tournament) -> int:
    """``N``: how many times each board of the session is played (the session's rounds)."""
    try:
        return session_rounds(tournament, full_rounds(tournament))
    except (DuplicateError, MovementError):
        return max(1, tournament.num_rounds)


def _calls(deal_ids: Collection[int]) -> dict[int, list[PenaltyCall]]:
    calls: dict[int, list[PenaltyCall]] = {}
    rows = Penalty.objects.filter(deal_id__in=list(deal_ids)).order_by("recorded_at", "pk")
    for deal_id, seat, code, trick, note in rows.values_list("deal_id", "seat", "code", "trick", "note"):
        calls.setdefault(deal_id, []).append(PenaltyCall(seat, code, trick, note))
    return calls


def table_lines(tournament: Tournament, board_ids: Collection[int]) -> list[tuple[TravellerLine, dict]]:
    """Every played or scored table on the boards ``board_ids``, as the engine's traveller lines and the facts
    a traveller shows beside them."""
    rs = Ruleset.from_spec(tournament.ruleset)
    matches = {m.pk: m for m in Match.objects.of(tournament).select_related("round", "pair_ns", "pair_ew")}
    deals = list(
        Deal.objects.of(tournament)
        .filter(board_id__in=list(board_ids), state=Deal.State.CONFIRMED)
        .select_related("board")
    )
    calls = _calls([d.pk for d in deals])
    out: list[tuple[TravellerLine, dict]] = []
    for d in deals:
        assert d.board is not None  # read by its board above
        res = table_result(rs, d.banker, d.attackers_total or 0, calls.get(d.pk, ()))
        entry = (
            BoardEntry(None, Fault.AT_FAULT, Fault.AT_FAULT) if res.not_played else BoardEntry(res.ns_score)
        )
        m = matches[d.match_id]
        facts = {"match": m, "points": res.points, "outcome": res.outcome, "artificial": res.not_played}
        out.append((TravellerLine(d.board.number, m.pair_ns, m.pair_ew, entry), facts))
    for a in (
        ArtificialScore.objects.of(tournament).filter(board_id__in=list(board_ids)).select_related("board")
    ):
        m = matches[a.match_id]
        entry = BoardEntry(None, Fault(a.ns_fault), Fault(a.ew_fault))
        facts = {"match": m, "points": None, "outcome": None, "artificial": True}
        out.append((TravellerLine(a.board.number, m.pair_ns, m.pair_ew, entry), facts))
    return out


def travellers(tournament: Tournament, board_ids: Collection[int]) -> dict[int, list[TravellerRow]]:
    """By board number, each table's line with its matchpoints (round, then table order)."""
    lines = table_lines(tournament, board_ids)
    scored = score_session([line for line, _f in lines], plays(tournament)).lines
    out: dict[int, list[TravellerRow]] = {}
    for line, facts in lines:
        m, (ns_mp, ew_mp) = facts["match"], scored[line]
        out.setdefault(line.board, []).append(
            TravellerRow(
                board=line.board,
                round=m.round.number,
                table=m.table,
                ns_pair=m.pair_ns,
                ew_pair=m.pair_ew,
                points=facts["points"],
                outcome=facts["outcome"],
                ns_score=line.entry.ns_score,
                ns_matchpoints=ns_mp,
                ew_matchpoints=ew_mp,
                artificial=facts["artificial"],
            )
        )
    for rows in out.values():
        rows.sort(key=lambda r: (r.round, r.table))
    return out


def standings(tournament: Tournament, user=None) -> list[PairResult]:
    """Each pair's result over the boards ``user`` may see (``visible_board_ids``), NS pairs ranked apart
    from EW pairs (a pair none of whose boards is complete yet has no line)."""
    lines = [line for line, _f in table_lines(tournament, visible_board_ids(tournament, user))]
    n = plays(tournament)
    session = score_session(lines, n)
    boards: dict[tuple[str, int], int] = {}
    for line in lines:
        for direction, pair in (("NS", line.ns_pair), ("EW", line.ew_pair)):
            key = (direction, pair.pk)  # type: ignore[attr-defined]
            boards[key] = boards.get(key, 0) + 1
    out: list[PairResult] = []
    for direction in ("NS", "EW"):
        scores = session.pairs[direction]
        for place, pair in session.places[direction]:
            score = scores[pair]
            out.append(
                PairResult(
                    direction,
                    place,
                    pair,  # type: ignore[arg-type]
                    score.matchpoints,
                    score.tops,
                    score.percentage,
                    boards[(direction, pair.pk)],  # type: ignore[attr-defined]
                )
            )
    return out


def board_top(tournament: Tournament) -> int:
    """Every board's top, ``2(N − 1)``."""
    return top(plays(tournament))


def boards_of_session(tournament: Tournament) -> list[Board]:
    return list(Board.objects.of(tournament).order_by("number"))
