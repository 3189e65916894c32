"""One write-only worksheet of the workbook: a bold frozen header with a filter, then rows of safe cells (text
never taken for a formula, control characters stripped, a valid title). Every sheet writer of every room uses it.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Sequence
from typing import Any

from django.utils import timezone
from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter

FORMULA_START = ("=", "+", "-", "@")
BAD_TITLE = re.compile(r"[\\/?*\[\]:]")
BOLD = Font(bold=True)
DATETIME = "yyyy-mm-dd hh:mm"


def clean_text(value: str) -> str:
    return ILLEGAL_CHARACTERS_RE.sub("", value)


def sheet_title(text: str) -> str:
    """A valid sheet title: no ``\\ / ? * [ ] :``, no control characters, at most 31 characters."""
    title = BAD_TITLE.sub("", clean_text(str(text))).strip("' ")[:31]
    return title or "Sheet"


class Sheet:
    """One write-only sheet: a bold frozen header with a filter, then rows of safe cells."""

    def __init__(self, wb: Workbook, title: str, columns: Sequence[tuple[str, int]]):
        self.ws = wb.create_sheet(sheet_title(title))
        self.ncols = len(columns)
        for i, (_label, width) in enumerate(columns, start=1):
            self.ws.column_dimensions[get_column_letter(i)].width = width
        self.ws.freeze_panes = "A2"
        header = []
        for label, _width in columns:
            c = WriteOnlyCell(self.ws, clean_text(str(label)))
            c.font = BOLD
            header.append(c)
        self.ws.append(header)
        self.rows = 1
        self._text: dict[str, tuple[str, bool]] = {}

    def cell(self, value: Any, number_format: str | None = None) -> Any:
        if value is None or (type(value) is int and number_format is None):
            return value
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, dt.datetime):
            if timezone.is_aware(value):
                value = timezone.localtime(value).replace(tzinfo=None)
            number_format = number_format or DATETIME
        if number_format:
            c = WriteOnlyCell(self.ws, value)
            c.number_format = number_format
            return c
        return value

    def text(self, value: str) -> Any:
        """Clean text; text Excel would take for a formula gets the quote prefix. (Names repeat: cached.)"""
        safe = self._text.get(value)
        if safe is None:
            cleaned = clean_text(value)
            safe = (cleaned, cleaned.startswith(FORMULA_START))
            if len(self._text) < 100_000:
                self._text[value] = safe
        cleaned, quoted = safe
        if quoted:
            c = WriteOnlyCell(self.ws, cleaned)
            c.data_type = "s"
            c.quotePrefix = True
            return c
        return cleaned or None

    def append(self, values: Iterable[Any], formats: dict[int, str] | None = None) -> None:
        """One row; trailing empty cells are left out."""
        if formats:
            row = [self.cell(v, formats.get(i)) for i, v in enumerate(values)]
        else:
            row = [self.cell(v) for v in values]
        while row and row[-1] is None:
            row.pop()
        self.ws.append(row)
        self.rows += 1

    def close(self) -> None:
        self.ws.auto_filter.ref = f"A1:{get_column_letter(self.ncols)}{max(self.rows, 1)}"
