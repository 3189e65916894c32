"""What an uploaded workbook may hold before openpyxl reads it.

openpyxl parses some parts whole (styles, the workbook, the shared strings: a 33 KB file of 3.9 million empty
``<si/>`` cost 481 MB), so every part is first counted as it streams: lxml's ``iterparse`` (the parser openpyxl
uses for the parts it reads whole; entities left unresolved, nothing fetched) with a target that keeps nothing.
Counting stops at the first cap passed, so a hostile part costs no more than the cap.
"""

from __future__ import annotations

import zipfile
from collections import Counter
from typing import IO

from django.utils.translation import gettext as _
from lxml import etree

MAIN = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
STRING = MAIN + "si"  # one entry of the shared strings table
CELL = MAIN + "c"
# What cells and texts are made of: openpyxl reads them as it streams, a few hundred bytes each.
CELL_MARKUP = {
    MAIN + tag for tag in ("worksheet", "sheetData", "row", "c", "v", "f", "is", "sst", "si", "t", "r", "rPr")
}
# The largest accepted import holds 8,004 cells (a header and 2,000 pairs, four columns) and as many texts; the
# caps leave room for a second sheet of notes. Every other element (styles, names, sheets, relationships) may
# cost a kilobyte as openpyxl reads its part whole: Excel's own parts hold a few thousand.
MAX_STRINGS = 20_000
MAX_CELLS = 20_000
MAX_CELL_MARKUP = 3 * (MAX_CELLS + MAX_STRINGS)
MAX_OTHER = 20_000
MAX_ATTRIBUTES = 80_000
CHUNK = 65_536


class _Over(Exception):
    """A cap passed: the message says which."""


def workbook_problem(zf: zipfile.ZipFile) -> str | None:
    """Why the workbook is refused before it is read (too many texts, cells or elements), else None."""
    counts: Counter[str] = Counter()
    try:
        for info in zf.infolist():
            if not info.is_dir():
                with zf.open(info) as part:
                    _count(part, counts)
    except _Over as over:
        return str(over)
    return None


def _count(part: IO[bytes], counts: Counter[str]) -> None:
    """Count one part's elements, strings and cells; a part that is not XML (an image) counts nothing more."""
    parser = etree.XMLParser(
        target=_Tally(counts), resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False
    )
    try:
        while chunk := part.read(CHUNK):
            # lxml builds a start tag's attributes before the target sees them: every one needs an "=".
            counts["attributes"] += chunk.count(b"=")
            _check(counts)
            parser.feed(chunk)
        parser.close()
    except etree.XMLSyntaxError:
        return


class _Tally:
    """An lxml parser target: it sees each element as it starts and keeps nothing, so no tree is built."""

    def __init__(self, counts: Counter[str]) -> None:
        self.counts = counts

    def start(self, tag: str, attrib: dict) -> None:
        self.counts[tag] += 1
        self.counts["cell markup" if tag in CELL_MARKUP else "other"] += 1
        _check(self.counts)

    def close(self) -> None:
        return None


def _check(counts: Counter[str]) -> None:
    if counts[STRING] > MAX_STRINGS:
        raise _Over(
            _("The workbook holds more than %(n)s different texts: keep only the pairs in it.")
            % {"n": MAX_STRINGS}
        )
    if counts[CELL] > MAX_CELLS:
        raise _Over(
            _("The workbook holds more than %(n)s cells: keep only the pairs in it.") % {"n": MAX_CELLS}
        )
    if (
        counts["cell markup"] > MAX_CELL_MARKUP
        or counts["other"] > MAX_OTHER
        or counts["attributes"] > MAX_ATTRIBUTES
    ):
        raise _Over(
            _(
                "The workbook holds too much formatting or other content to be read: keep only the pairs in it."
            )
        )
