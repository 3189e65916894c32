"""A duplicate's sheets of the workbook: its standings in each direction (in place of the match points), its
Boards and its Travellers.

What they hold is the public's (``tournaments.duplicate.visibility``): a workbook leaves the desk as a file, so a
board's hands and traveller are written once every table has played it, its fingerprint always, and the
standings count the complete boards only. Matchpoints are written to two decimals (the site ranks on exact
fractions). A duplicate-teams event's Travellers sheet lists each team match's two tables, the pairs' teams and
the board's scale points in the match (``team_travellers``) in place of matchpoints.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from openpyxl import Workbook

from tournaments.competition.display import card_faces
from tournaments.duplicate.display import outcome_words
from tournaments.duplicate.results import standings, travellers
from tournaments.duplicate.team_travellers import team_travellers
from tournaments.duplicate.visibility import visible_board_ids
from tournaments.models import SEAT_CHOICES, Board, Tournament
from tournaments.workbook.sheet import Sheet

MP = "0.00"


def duplicate_standings_sheet(wb: Workbook, tournament: Tournament) -> None:
    sheet = Sheet(
        wb,
        _("Standings"),
        [
            (_("direction"), 12),
            (_("place"), 8),
            (_("pair name"), 22),
            (_("matchpoints"), 12),
            (_("top"), 8),
            ("%", 8),
        ],
    )
    directions = {"NS": _("North–South"), "EW": _("East–West")}
    for line in standings(tournament):
        sheet.append(
            [directions[line.direction], line.place, line.pair.name, float(line.matchpoints), line.top,
             float(line.percentage)],
            {3: MP, 5: MP},
        )  # fmt: skip
    sheet.close()


def board_sheets(wb: Workbook, tournament: Tournament) -> None:
    """The Boards sheet (one row a board) and the Travellers sheet (one row a table a board)."""
    seats = {code: str(label) for code, label in SEAT_CHOICES}
    trumps = {code: str(label) for code, label in Board.Trump.choices}
    shown = visible_board_ids(tournament)
    boards = list(Board.objects.of(tournament).order_by("number"))
    sheet = Sheet(
        wb,
        _("Boards"),
        [(_("board"), 8), (_("banker"), 8), (_("level"), 8), (_("trump"), 10), (_("fallback suit"), 10)]
        + [(seats[s], 40) for s in "NWSE"]
        + [(_("dealt kitty"), 24), (_("fingerprint"), 66)],
    )
    for b in boards:
        hands = [card_faces(b.hands[s]) if b.pk in shown else "" for s in "NWSE"]
        kitty = card_faces(b.kitty) if b.pk in shown else ""
        fallback = trumps.get(b.fallback, "") if b.fallback else ""
        sheet.append(
            [b.number, seats[b.banker], b.level, trumps[b.trump], fallback, *hands, kitty, b.fingerprint]
        )
    sheet.close()
    if tournament.format == Tournament.Format.DUPLICATE_TEAMS:
        team_travellers_sheet(wb, tournament, shown)
        return
    lines = Sheet(
        wb,
        _("Travellers"),
        [(_("board"), 8), (_("round"), 8), (_("table"), 8), (_("North–South"), 22), (_("East–West"), 22),
         (_("attackers' points"), 10), (_("result"), 16), (_("NS score"), 10), (_("NS matchpoints"), 12),
         (_("EW matchpoints"), 12)],
    )  # fmt: skip
    rows = travellers(tournament, shown)
    for number in sorted(rows):
        for r in rows[number]:
            result = _("artificial score") if r.artificial else outcome_words(r.outcome)
            lines.append(
                [number, r.round, r.table, r.ns_pair.name, r.ew_pair.name, r.points, result, r.ns_score,
                 float(r.ns_matchpoints), float(r.ew_matchpoints)],
                {8: MP, 9: MP},
            )  # fmt: skip
    lines.close()


def team_travellers_sheet(wb: Workbook, tournament: Tournament, shown: set[int]) -> None:
    """A duplicate-teams Travellers sheet: one row a table a board, with its team match, the pairs' teams and
    the board's scale points in the match."""
    lines = Sheet(
        wb,
        _("Travellers"),
        [(_("board"), 8), (_("round"), 8), (_("team match"), 8), (_("table"), 8), (_("North–South"), 22),
         (_("team"), 16), (_("East–West"), 22), (_("team"), 16), (_("attackers' points"), 10), (_("result"), 16),
         (_("NS score"), 10), (_("NS scale points"), 10), (_("EW scale points"), 10)],
    )  # fmt: skip
    rows = team_travellers(tournament, shown)
    for number in sorted(rows):
        for r in rows[number]:
            result = _("artificial score") if r.artificial else outcome_words(r.outcome)
            ns_team = r.ns_team.name if r.ns_team else ""
            ew_team = r.ew_team.name if r.ew_team else ""
            lines.append(
                [number, r.round, r.match, r.table, r.ns_pair.name, ns_team, r.ew_pair.name, ew_team, r.points,
                 result, r.ns_score, r.ns_scale, r.ew_scale]
            )  # fmt: skip
    lines.close()
