"""The official workbook (openpyxl, write-only): Standings (Final standings once the tournament is finished), Rounds,
Deals and Penalties sheets.

Headers are in the active language, bold, frozen and filtered. Text is written as text: a value that starts with
``=``, ``+``, ``-`` or ``@`` is stored as a string with Excel's quote prefix (never a formula), control
characters are stripped, and sheet titles are cleaned. Rows are streamed, so a large event stays small in memory.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from typing import IO

from django.db.models import Value
from django.db.models.functions import Coalesce, Concat, NullIf, Trim
from django.utils import timezone
from django.utils.translation import gettext as _
from openpyxl import Workbook

from rules.ranks import RANK_TEXT, rank_text
from tournaments.competition.display import deal_outcome, match_result, penalty_note
from tournaments.duplicate.visibility import shown_deals
from tournaments.models import (
    PENALTY_CODES,
    SEAT_CHOICES,
    TRUMP_CHOICES,
    Adjustment,
    Deal,
    Match,
    Penalty,
    Tournament,
)
from tournaments.pairing.bracket import bracket_picture, final_placings
from tournaments.standings.compute import compute_standings, standings_title, tie_break_columns
from tournaments.workbook import boards
from tournaments.workbook.sheet import Sheet

SIGNED = "+0;-0;0"


def _seat_labels() -> dict[str, str]:
    return {code: str(label) for code, label in SEAT_CHOICES}


def _standings_sheet(wb: Workbook, tournament: Tournament) -> None:
    tbs = tie_break_columns(tournament)
    columns = [
        (_("rank"), 7),
        (_("pair name"), 22),
        (_("players"), 28),
        (_("club"), 22),
        (_("played"), 8),
        (_("wins"), 8),
        (_("draws"), 8),
        (_("losses"), 8),
        (_("match points"), 12),
        *[(str(label), 14) for _code, label in tbs],
        (_("withdrawn"), 10),
        (_("adjusted result"), 14),
    ]
    sheet = Sheet(wb, standings_title(tournament), columns)
    signed = {9 + i: SIGNED for i, (code, _label) in enumerate(tbs) if code == "level_diff"}
    for line in compute_standings(tournament):
        p = line.pair
        sheet.append(
            [
                line.rank,
                p.name,
                p.players,
                p.club,
                line.played,
                line.wins,
                line.draws,
                line.losses,
                line.match_points,
                *[line.tiebreaks[code] for code, _label in tbs],
                _("yes") if p.withdrawn else "",
                _("yes") if line.adjusted else "",
            ],
            signed,
        )
    sheet.close()


def _match_rows(tournament: Tournament) -> dict[int, tuple]:
    """Each match's row, its judge named as on the desk (``accounts.display_name``, worked out by the database)."""
    full_name = Trim(Concat("judge__first_name", Value(" "), "judge__last_name"))
    judge = Coalesce(NullIf(full_name, Value("")), "judge__username")
    rows = (
        Match.objects.of(tournament)
        .annotate(judge_name=judge)
        .values_list(
            "pk",
            "round__number",
            "table",
            "pair_ns__name",
            "pair_ew__name",
            "level_ns",
            "level_ew",
            "winner__name",
            "winner_id",
            "ended_by",
            "state",
            "judge_name",
        )
    )
    return {r[0]: r[1:] for r in rows.order_by("round__number", "table")}


def _rounds_sheet(wb: Workbook, matches: dict[int, tuple], byes: list[tuple[int, str, int]]) -> None:
    ended = dict(Match.EndedBy.choices)
    states = dict(Match.State.choices)
    sheet = Sheet(
        wb,
        _("Rounds"),
        [
            (_("round"), 8),
            (_("table"), 8),
            (_("North–South"), 22),
            (_("East–West"), 22),
            (_("N–S level"), 10),
            (_("E–W level"), 10),
            (_("result"), 22),
            (_("ended by"), 14),
            (_("state"), 12),
            (_("judge"), 14),
        ],
    )
    for rnd, table, ns, ew, lns, lew, winner, winner_id, ended_by, state, judge in matches.values():
        result = match_result(winner if winner_id else None) if state == Match.State.FINISHED else ""
        sheet.append(
            [
                rnd,
                table,
                ns,
                ew,
                rank_text(lns),
                rank_text(lew),
                result,
                str(ended.get(ended_by, ended_by)),
                str(states.get(state, state)),
                judge or "",
            ]
        )
    for rnd, name, points in byes:
        sheet.append(
            [rnd, None, name, "", "", "", _("bye (%(n)s points)") % {"n": points}, str(ended["bye"]), "", ""]
        )
    sheet.close()


def _deals_sheet(wb: Workbook, tournament: Tournament, matches: dict[int, tuple]) -> None:
    """One row per confirmed deal; the match is named by round and table (its pairs are on the Rounds sheet).

    Kept to few cells a row (the banker's pair and seat in one, the result with its levels): 40,000 deals write
    in a few seconds. Zero multiplier, kitty bonus and penalty points are left empty."""
    seats = _seat_labels()
    trumps = {code: str(label) for code, label in TRUMP_CHOICES}
    codes = {code: str(label) for code, label in PENALTY_CODES}
    outcomes: dict[tuple, str] = {}  # (outcome, levels, void) → "takeover +2"
    penalties: dict[int, list[str]] = defaultdict(list)
    for deal_id, seat, code in (
        Penalty.objects.of(tournament)
        .order_by("deal_id", "recorded_at", "pk")
        .values_list("deal_id", "seat", "code")
        .iterator(chunk_size=5000)
    ):
        penalties[deal_id].append(f"{seats.get(seat, seat)} {codes.get(code, code)}")
    sheet = Sheet(
        wb,
        _("Deals"),
        [
            (_("round"), 8),
            (_("table"), 8),
            (_("deal"), 7),
            (_("banker"), 26),
            (_("level"), 8),
            (_("trump"), 9),
            (_("attackers' points"), 12),
            (_("kitty points"), 10),
            (_("kitty multiplier"), 10),
            (_("kitty bonus"), 10),
            (_("penalty points"), 10),
            (_("result"), 18),
            (_("penalties"), 30),
        ],
    )
    deals = (
        shown_deals(Deal.objects.of(tournament).confirmed(), tournament)  # a duplicate's complete boards only
        .order_by("match__round__number", "match__table", "number")
        .values_list(
            "pk",
            "match_id",
            "number",
            "banker",
            "level",
            "trump",
            "verdict__attackers_points",
            "verdict__result",
        )
    )
    append = sheet.append
    voided = set(
        Adjustment.objects.void_deal_ids(match__round__tournament=tournament).values_list(
            "deal_id", flat=True
        )
    )
    void = _("void")
    for pk, match_id, number, banker, level, trump, ap, result in deals.iterator(chunk_size=2000):
        rnd, table, ns, ew = matches[match_id][:4]
        ap = ap if isinstance(ap, dict) else {}
        result = result if isinstance(result, dict) else {}
        key = (result.get("outcome"), result.get("levels"), result.get("next_banker") is None)
        label = outcomes.get(key)
        if label is None:
            label = outcomes[key] = deal_outcome(result)
        pens = penalties.get(pk)
        append(
            [
                rnd,
                table,
                number,
                f"{ns if banker in ('N', 'S') else ew} ({seats.get(banker, banker)})",
                RANK_TEXT.get(level, level),
                trumps.get(trump, trump),
                ap.get("total"),
                ap.get("kitty"),
                ap.get("multiplier") or None,  # empty rather than 0: no kitty bonus, no penalty points
                ap.get("kitty_bonus") or None,
                ap.get("penalties") or None,
                f"{label} · {void}" if pk in voided else label,
                ", ".join(pens) if pens else None,
            ]
        )
    sheet.close()


def _penalties_sheet(wb: Workbook, tournament: Tournament, matches: dict[int, tuple]) -> None:
    seats = _seat_labels()
    codes = {code: str(label) for code, label in PENALTY_CODES}
    sheet = Sheet(
        wb,
        _("Penalties"),
        [
            (_("round"), 8),
            (_("table"), 8),
            (_("deal"), 7),
            (_("seat"), 8),
            (_("pair"), 20),
            (_("penalty"), 16),
            (_("trick"), 7),
            (_("note"), 40),
            (_("recorded by"), 14),
            (_("recorded at"), 18),
        ],
    )
    rows = (
        Penalty.objects.of(tournament)
        .order_by("deal__match__round__number", "deal__match__table", "deal__number", "recorded_at", "pk")
        .values_list(
            "deal__match_id",
            "deal__number",
            "seat",
            "code",
            "trick",
            "note",
            "recorded_by__username",
            "recorded_at",
        )
    )
    for match_id, deal, seat, code, trick, note, by, at in rows.iterator(chunk_size=2000):
        rnd, table, ns, ew, *_rest = matches[match_id]
        sheet.append(
            [
                rnd,
                table,
                deal,
                seats.get(seat, seat),
                ns if seat in ("N", "S") else ew,
                codes.get(code, code),
                None if trick is None else trick + 1,
                penalty_note(note),
                by or "",
                at,
            ]
        )
    sheet.close()


def _bracket_rows(title: str, number: int, tie) -> list:
    a, b = tie.entries
    through = next((e.pair.name for e in tie.entries if e.won or (tie.bye and e.pair)), "")
    return [
        number,
        title,
        tie.match.table if tie.match else None,
        a.seed,
        a.pair.name if a.pair else (_("bye") if tie.bye else ""),
        b.seed,
        b.pair.name if b.pair else (_("bye") if tie.bye else ""),
        through,
        tie.decided,
    ]


def _bracket_sheets(wb: Workbook, tournament: Tournament) -> None:
    """A knockout's bracket, a tie a row, round by round (byes and the third-place match too), and its final
    placings."""
    picture = bracket_picture(tournament, tournament.rounds.all(), show_results=True)
    if picture is None:
        return
    columns = [(_("round"), 7), (_("stage"), 14), (_("table"), 7), (_("seed"), 6), (_("pair name"), 22)]
    columns += [(_("seed"), 6), (_("pair name"), 22), (_("goes through"), 22), (_("note"), 40)]
    sheet = Sheet(wb, _("Bracket"), columns)
    for column in picture["columns"]:
        for tie in column.ties:
            sheet.append(_bracket_rows(column.title, column.number, tie))
    if picture["third"] is not None:
        sheet.append(_bracket_rows(_("Third-place match"), picture["columns"][-1].number, picture["third"]))
    sheet.close()


def _placings_sheet(wb: Workbook, tournament: Tournament) -> None:
    """A knockout's final placings, the workbook's first sheet: they, not the stage's match points, say who
    won what (after a Swiss, the bracket's 2nd need not be the standings' 2nd)."""
    placings = final_placings(tournament)
    if not placings:
        return
    places = Sheet(wb, _("Final placings"), [(_("place"), 8), (_("pair name"), 22), (_("players"), 28)])
    for place, pair in placings:
        places.append([place, pair.name, pair.players])
    places.close()


def write_workbook(
    tournament: Tournament,
    out: str | IO[bytes],
    extra: Callable[[Workbook, Tournament], None] | None = None,
) -> None:
    """Write the official workbook of ``tournament`` to a path or binary file, in the active language.
    ``extra`` adds sheets after the pairs' ones: a room above this one (the teams' zone tables) hands its own
    writer in, as this room cannot import it."""
    wb = Workbook(write_only=True)
    matches = _match_rows(tournament)
    byes = list(
        tournament.rounds.filter(byes__isnull=False)
        .order_by("number", "byes__pair__name")
        .values_list("number", "byes__pair__name", "byes__points")
    )
    duplicate = tournament.format == Tournament.Format.DUPLICATE
    _placings_sheet(wb, tournament)
    (boards.duplicate_standings_sheet if duplicate else _standings_sheet)(wb, tournament)
    _rounds_sheet(wb, matches, byes)
    _deals_sheet(wb, tournament, matches)
    _penalties_sheet(wb, tournament, matches)
    _bracket_sheets(wb, tournament)
    if duplicate or tournament.format == Tournament.Format.DUPLICATE_TEAMS:
        boards.board_sheets(wb, tournament)
    if extra is not None:
        extra(wb, tournament)
    wb.save(out)


def workbook_filename(tournament: Tournament) -> str:
    """The ASCII file name (the address's): for clients that cannot read the tournament's own name."""
    return f"{tournament.slug}-{timezone.localdate():%Y%m%d}.xlsx"


def workbook_title(tournament: Tournament) -> str:
    """The file name as the director named the tournament (``春季公开赛-20261201.xlsx``)."""
    return f"{tournament.name}-{timezone.localdate():%Y%m%d}.xlsx"
