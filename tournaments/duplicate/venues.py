"""Simultaneous sessions across venues (issue 40 item 8): a venue's results written as ``tractor-results/1``, and
another venue's file read into this tournament.

One service for every way in (``manage.py export_results`` / ``import_results``, tests): ``results_file`` writes,
``import_results`` reads. A file names its boards by number and fingerprint, and each table's result as the
engine scores it (RULES §14.3–14.4): the final ``P``, its outcome and the NS score, or, where the table has no
score, each side's fault for the artificial score. Reading checks every fingerprint against this tournament's
boards (refused naming the board), every result against its board (the NS score is ``±P`` by the banker's side,
the outcome the level table's), and keeps one import a venue: the venue's second file replaces its first.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _

from rules.matchpoints import Fault
from rules.ruleset import Ruleset
from rules.table_result import POINT_STEP, table_result
from tournaments.duplicate.dealing import MAX_FILE_BYTES, require_event
from tournaments.duplicate.movement import DuplicateError
from tournaments.duplicate.results import plays, table_lines
from tournaments.models import Board, Tournament, VenueLine, VenueResults

FORMAT = "tractor-results/1"
FINGERPRINT = re.compile(r"[0-9a-f]{64}")
MAX_NAME = 200
MAX_NUMBER = 999
MAX_POINTS = 10_000


def require_pairs(tournament: Tournament) -> None:
    """Results across venues rank pairs by matchpoints: a duplicate pairs session's only."""
    require_event(tournament)
    if tournament.format != Tournament.Format.DUPLICATE:
        raise DuplicateError(_("Results across venues are for a duplicate pairs session."))


def venue_name(tournament: Tournament) -> str:
    """The name this venue's file carries: the tournament's venue, else its name."""
    return (tournament.venue or tournament.name)[:MAX_NAME]


def results_file(tournament: Tournament) -> dict:
    """This venue's results as a ``tractor-results/1`` document: every board's number and fingerprint, and every
    table's confirmed result or artificial score (what the director sees, complete or not)."""
    require_pairs(tournament)
    boards = list(Board.objects.of(tournament).order_by("number"))
    if not boards:
        raise DuplicateError(_("The boards are not dealt yet."), 409)
    results = []
    for line, facts in table_lines(tournament, [b.pk for b in boards]):
        match = facts["match"]
        results.append(
            {
                "round": match.round.number,
                "table": match.table,
                "board": line.board,
                "ns_pair": match.pair_ns.name,
                "ew_pair": match.pair_ew.name,
                "points": facts["points"],
                "outcome": facts["outcome"],
                "ns_score": line.entry.ns_score,
                "ns_fault": line.entry.ns_fault.value,
                "ew_fault": line.entry.ew_fault.value,
            }
        )
    results.sort(key=lambda r: (r["board"], r["round"], r["table"]))
    return {
        "format": FORMAT,
        "venue": venue_name(tournament),
        "event": tournament.name[:MAX_NAME],
        "plays": plays(tournament),
        "boards": [{"number": b.number, "fingerprint": b.fingerprint} for b in boards],
        "results": results,
    }


def dumps_results(tournament: Tournament) -> str:
    return json.dumps(results_file(tournament), ensure_ascii=False, indent=1)


@dataclass(frozen=True, slots=True)
class ReadLine:
    """One table's result as the file gives it, its types checked."""

    round: int
    table: int
    board: int
    ns_pair: str
    ew_pair: str
    points: int | None
    outcome: str | None
    ns_score: int | None
    ns_fault: Fault
    ew_fault: Fault


@dataclass(frozen=True, slots=True)
class ReadFile:
    venue: str
    event: str
    plays: int
    boards: dict[int, str]  # number → fingerprint
    lines: list[ReadLine]


class Unreadable(Exception):
    """The file is not a results file the desk can read (said to the director in one sentence)."""


def _int(value: object, low: int, high: int) -> int:
    if type(value) is not int or not low <= value <= high:
        raise Unreadable
    return value


def _name(value: object) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_NAME:
        raise Unreadable
    return value.strip()


def _optional_int(value: object) -> int | None:
    return None if value is None else _int(value, -MAX_POINTS, MAX_POINTS)


def _line(raw: object) -> ReadLine:
    if not isinstance(raw, dict):
        raise Unreadable
    outcome = raw.get("outcome")
    if outcome is not None and (not isinstance(outcome, str) or len(outcome) > 20):
        raise Unreadable
    try:
        faults = Fault(raw.get("ns_fault", "none")), Fault(raw.get("ew_fault", "none"))
    except ValueError:
        raise Unreadable from None
    return ReadLine(
        round=_int(raw.get("round"), 1, MAX_NUMBER),
        table=_int(raw.get("table"), 1, MAX_NUMBER),
        board=_int(raw.get("board"), 1, MAX_NUMBER),
        ns_pair=_name(raw.get("ns_pair")),
        ew_pair=_name(raw.get("ew_pair")),
        points=_optional_int(raw.get("points")),
        outcome=outcome,
        ns_score=_optional_int(raw.get("ns_score")),
        ns_fault=faults[0],
        ew_fault=faults[1],
    )


def loads_results(text: str) -> ReadFile:
    """The file's content with every type checked; ``DuplicateError`` for a file of another format or version,
    or one the desk cannot read."""
    try:
        data = json.loads(text)
    except ValueError:
        raise DuplicateError(_("This is not a results file the desk can read.")) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise DuplicateError(_("This results file is of another format or version."))
    try:
        boards_raw, lines_raw = data.get("boards"), data.get("results")
        if not isinstance(boards_raw, list) or not isinstance(lines_raw, list) or not boards_raw:
            raise Unreadable
        boards: dict[int, str] = {}
        for b in boards_raw:
            if not isinstance(b, dict) or not FINGERPRINT.fullmatch(str(b.get("fingerprint", ""))):
                raise Unreadable
            boards[_int(b.get("number"), 1, MAX_NUMBER)] = str(b["fingerprint"])
        event = data.get("event") or ""
        return ReadFile(
            venue=_name(data.get("venue")),
            event=event[:MAX_NAME] if isinstance(event, str) else "",
            plays=_int(data.get("plays"), 1, MAX_NUMBER),
            boards=boards,
            lines=[_line(raw) for raw in lines_raw],
        )
    except Unreadable:
        raise DuplicateError(_("This is not a results file the desk can read.")) from None


def check_boards(tournament: Tournament, read: ReadFile) -> dict[int, Board]:
    """This tournament's boards by number; refused naming the first board of the file that is not one of them
    or whose fingerprint differs (another deal, another mark)."""
    ours = {b.number: b for b in Board.objects.of(tournament)}
    for number in sorted(read.boards):
        if number not in ours or ours[number].fingerprint != read.boards[number]:
            raise DuplicateError(
                _("Board %(n)s of the file is refused: its fingerprint is not this tournament's board's.")
                % {"n": number}
            )
    return ours


def check_line(rs: Ruleset, board: Board, line: ReadLine, read: ReadFile) -> None:
    """A table's result must be its board's: the NS score ``±P`` by the banker's side and the outcome the level
    table's for ``P``; a line without a score is an artificial score (no points, no outcome)."""
    refused = DuplicateError(
        _("Board %(n)s, round %(r)s, table %(t)s: the result does not add up.")
        % {"n": board.number, "r": line.round, "t": line.table}
    )
    if line.board not in read.boards:
        raise refused
    if line.ns_score is None:
        if line.points is not None or line.outcome is not None:
            raise refused
        return
    if line.points is None or line.points % POINT_STEP:
        raise refused
    res = table_result(rs, board.banker, line.points)
    if (res.ns_score, res.outcome) != (line.ns_score, line.outcome):
        raise refused


def check_lines(tournament: Tournament, read: ReadFile, ours: dict[int, Board]) -> None:
    """Every line its board's, a table once a board, a pair once a board, no board more often than the venue
    plays it."""
    rs = Ruleset.from_spec(tournament.ruleset)
    seen: set[tuple] = set()
    counts: dict[int, int] = {}
    for line in read.lines:
        board = ours.get(line.board)
        if board is None:
            raise DuplicateError(_("Board %(n)s is not a board of this tournament.") % {"n": line.board})
        check_line(rs, board, line, read)
        keys = [
            ("table", line.board, line.round, line.table),
            ("NS", line.board, line.ns_pair),
            ("EW", line.board, line.ew_pair),
        ]
        if any(k in seen for k in keys):
            raise DuplicateError(
                _("Board %(n)s is given twice for a table or a pair in the file.") % {"n": line.board}
            )
        seen.update(keys)
        counts[line.board] = counts.get(line.board, 0) + 1
        if counts[line.board] > read.plays:
            raise DuplicateError(
                _("Board %(n)s has more results in the file than the venue plays it.") % {"n": line.board}
            )


@transaction.atomic
def import_results(tournament: Tournament, text: str, user) -> VenueResults:
    """Another venue's ``tractor-results/1`` file into this tournament: checked whole, then stored in place of
    that venue's earlier import (never beside it). Allowed after the tournament is finished: another venue's
    file often arrives later, and only the overall ranking reads it."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    require_pairs(tournament)
    if len(text.encode("utf-8")) > MAX_FILE_BYTES:
        raise DuplicateError(_("The results file is too large."))
    read = loads_results(text)
    if read.venue == venue_name(tournament):
        raise DuplicateError(_("This file holds this venue's own results: import another venue's file."))
    ours = check_boards(tournament, read)
    check_lines(tournament, read, ours)
    VenueResults.objects.filter(tournament=tournament, venue=read.venue).delete()
    venue = VenueResults.objects.create(
        tournament=tournament, venue=read.venue, event=read.event, plays=read.plays, imported_by=user
    )
    VenueLine.objects.bulk_create(
        VenueLine(
            results=venue,
            board=ours[line.board],
            round=line.round,
            table=line.table,
            ns_pair=line.ns_pair,
            ew_pair=line.ew_pair,
            points=line.points,
            outcome=line.outcome or "",
            ns_score=line.ns_score,
            ns_fault=line.ns_fault.value,
            ew_fault=line.ew_fault.value,
        )
        for line in read.lines
    )
    return venue
