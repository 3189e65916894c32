"""A series' workbook (openpyxl, write-only, the official workbook's style): Players and Pairs sheets, a column
per tournament; a result that does not count (beyond the best k) is grey and in italics."""

from __future__ import annotations

from typing import IO

from django.utils import timezone
from django.utils.translation import gettext as _
from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.styles import Font

from tournaments.models import Series
from tournaments.season.series_standings import Row, SeriesStandings, series_standings
from tournaments.workbook.export import Sheet

NOT_COUNTED = Font(italic=True, color="888888")


def _sheet(wb: Workbook, title: str, standings: SeriesStandings, rows: list[Row], rated: bool) -> None:
    columns = [(_("rank"), 7), (_("pair") if not rated else _("player"), 24)]
    columns += [(_("players"), 24)] if not rated else [(_("rating"), 9)]
    columns += [(t.name, 14) for t in standings.tournaments] + [(_("total"), 9)]
    sheet = Sheet(wb, title, columns)
    for row in rows:
        lead = [row.rank, row.name]
        lead.append(" / ".join(p.name for p in row.players) if not rated else row.rating)
        cells = [sheet.cell(v) for v in lead]
        for points, counted in row.cells(standings.tournaments):
            if points is not None and not counted:
                c = WriteOnlyCell(sheet.ws, points)
                c.font = NOT_COUNTED
                cells.append(c)
            else:
                cells.append(points)
        cells.append(row.total)
        sheet.ws.append(cells)
        sheet.rows += 1
    sheet.close()


def write_series_workbook(series: Series, out: str | IO[bytes]) -> None:
    """The series' standings in the active language."""
    standings = series_standings(series)
    wb = Workbook(write_only=True)
    _sheet(wb, _("Players"), standings, standings.players, rated=True)
    _sheet(wb, _("Pairs"), standings, standings.pairs, rated=False)
    wb.save(out)


def series_workbook_names(series: Series) -> tuple[str, str]:
    """The file's name as the series is called, and its ASCII fallback (the address)."""
    day = f"{timezone.localdate():%Y%m%d}"
    return f"{series.name}-{day}.xlsx", f"{series.slug}-{day}.xlsx"
