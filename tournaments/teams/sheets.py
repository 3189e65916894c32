"""A team event's sheets of the official workbook: every zone's table, every team match's result and the
playoffs' bracket. Written with the workbook's own safe sheets (``tournaments.workbook.export.Sheet``); the
workbook calls ``team_sheets`` through ``write_workbook(extra=…)``, as the workbook room cannot import this one.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from openpyxl import Workbook

from rules.teams import TABLE_POINTS
from tournaments.league.playoffs import playoff_picture
from tournaments.league.results import results, zone_table
from tournaments.models import TeamMatch, Tournament, zones_or_field
from tournaments.teams.models import team_event
from tournaments.workbook.export import SIGNED, Sheet

VP = "0.00"


def _score(value: int | None, scoring: str):
    """A score as a number Excel sums: table points as they are, victory points (hundredths) as decimals."""
    if value is None:
        return None
    return value if scoring == TABLE_POINTS else value / 100


def _shown_number(text: str):
    """A score the bracket shows as text ("4", "12.50"), as the number Excel sums (None: no score yet)."""
    if not text:
        return None
    return int(text) if text.lstrip("-").isdigit() else float(text)


def _zone_sheets(wb: Workbook, tournament: Tournament, scoring: str) -> None:
    zones = zones_or_field(tournament)
    for zone in zones:
        title = _("Zone table %(zone)s") % {"zone": zone.name} if zone else _("Team standings")
        sheet = Sheet(
            wb,
            title,
            [
                (_("rank"), 7),
                (_("team"), 22),
                (_("club"), 20),
                (_("played"), 8),
                (_("wins"), 8),
                (_("draws"), 8),
                (_("losses"), 8),
                (_("score"), 10),
                (_("table points"), 12),
                (_("level difference"), 12),
                (_("head-to-head"), 12),
            ],
        )
        formats = {9: SIGNED} if scoring == TABLE_POINTS else {7: VP, 9: SIGNED, 10: VP}
        for line in zone_table(tournament, zone):
            h2h = line.tiebreaks.get("head_to_head")
            sheet.append(
                [
                    line.rank,
                    line.team.name,
                    line.team.club,
                    line.played,
                    line.wins,
                    line.draws,
                    line.losses,
                    _score(line.score, scoring),
                    line.tiebreaks.get("table_points"),
                    line.tiebreaks.get("level_diff"),
                    _score(h2h, scoring),
                ],
                formats,
            )
        sheet.close()


def _matches_sheet(wb: Workbook, tournament: Tournament, scoring: str) -> None:
    fixtures = (
        TeamMatch.objects.filter(round__tournament=tournament)
        .select_related("round", "zone", "home", "away")
        .order_by("round__number", "number")
    )
    found = results(tournament, fixtures)
    sheet = Sheet(
        wb,
        _("Team matches"),
        [
            (_("round"), 7),
            (_("match"), 7),
            (_("zone"), 12),
            (_("date"), 11),
            (_("home"), 22),
            (_("away"), 22),
            (_("home score"), 10),
            (_("away score"), 10),
            (_("winner"), 22),
            (_("home table points"), 10),
            (_("away table points"), 10),
            (_("level difference (home)"), 12),
        ],
    )
    formats = {3: "yyyy-mm-dd", 11: SIGNED}
    if scoring != TABLE_POINTS:
        formats |= {6: VP, 7: VP}
    for fx in fixtures:
        res = found.get(fx.pk)
        winner = ""
        if res is not None:
            winner = {"home": fx.home.name, "away": fx.away.name}.get(res.winner or "", _("draw"))
        sheet.append(
            [
                fx.round.number,
                fx.number,
                fx.zone.name if fx.zone else "",
                fx.date,
                fx.home.name,
                fx.away.name,
                _score(res.home_score, scoring) if res else None,
                _score(res.away_score, scoring) if res else None,
                winner,
                res.table_points_home if res else None,
                res.table_points_away if res else None,
                res.level_diff if res else None,
            ],
            formats,
        )
    sheet.close()


def _playoffs_sheet(wb: Workbook, tournament: Tournament, event) -> None:
    picture = playoff_picture(tournament, event, show_results=True)
    if picture is None:
        return
    columns = [(_("round"), 7), (_("stage"), 14), (_("match"), 7), (_("seed"), 6), (_("team"), 22)]
    columns += [(_("score"), 8), (_("seed"), 6), (_("team"), 22), (_("score"), 8), (_("goes through"), 22)]
    columns += [(_("note"), 36)]
    sheet = Sheet(wb, _("Playoffs"), columns)
    for column in picture["columns"]:
        for tie in column.ties:
            a, b = tie.entries
            through = next((e.pair.name for e in tie.entries if e.won or (tie.bye and e.pair)), "")
            bye = _("bye") if tie.bye else ""
            sheet.append(
                [
                    column.number,
                    column.title,
                    tie.fixture.number if tie.fixture else None,
                    a.seed,
                    a.pair.name if a.pair else bye,
                    _shown_number(a.level),
                    b.seed,
                    b.pair.name if b.pair else bye,
                    _shown_number(b.level),
                    through,
                    tie.decided,
                ]
            )
    third = picture["third"]
    if third is not None:
        a, b = third.entries
        final = picture["columns"][-1]
        through = next((e.pair.name for e in third.entries if e.won), "")
        row = [final.number, _("Third-place match"), third.fixture.number, a.seed, a.pair.name]
        row += [_shown_number(a.level), b.seed, b.pair.name, _shown_number(b.level), through, third.decided]
        sheet.append(row)
    sheet.close()


def team_sheets(wb: Workbook, tournament: Tournament) -> None:
    """The team sheets of a team event (nothing for a pairs event): zone tables, team matches, playoffs."""
    event = team_event(tournament)
    if event is None:
        return
    _zone_sheets(wb, tournament, event.scoring)
    _matches_sheet(wb, tournament, event.scoring)
    _playoffs_sheet(wb, tournament, event)
