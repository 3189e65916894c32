"""Importing pairs and players from ``.xlsx`` or ``.csv``/``.txt``: read, check every row, then all or nothing.

The header is ``pair,player1,player2,club`` or its Chinese form (``import_columns.json``). Files are limited in
size (and an ``.xlsx`` in unpacked size, texts, cells and elements too: ``limits``); workbooks are read
with openpyxl in read-only mode, which parses XML through defusedxml when it is installed
(``openpyxl.xml.DEFUSEDXML``; refused otherwise). Text files may be UTF-8, UTF-16 (with its byte-order mark) or
GB18030, separated by commas, tabs or semicolons.
"""

from __future__ import annotations

import codecs
import csv
import io
import json
import zipfile
from dataclasses import asdict, dataclass
from pathlib import Path

from django.db import transaction
from django.db.models import Max
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from tournaments.competition.finishing import lock_open
from tournaments.competition.free_text import text_problem
from tournaments.models import Pair, Tournament
from tournaments.people.registry import clean_name, player_named, playing
from tournaments.workbook.limits import workbook_problem

FORMAT = json.loads((Path(__file__).with_name("import_columns.json")).read_text(encoding="utf-8"))
COLUMNS: list[str] = FORMAT["columns"]
HEADERS: dict[str, list[str]] = FORMAT["headers"]
MAX_BYTES = 1_000_000
MAX_UNPACKED = 20_000_000
MAX_ROWS = 2000
MAX_NAME = 100
# Cells read per row: the four the import uses and enough more to notice extra columns. A workbook's declared
# dimension (``<dimension ref="A1:XFD2001">``) is never trusted: it would make every row 16,384 cells wide.
READ_COLUMNS = 26
ZIP_MAGIC = b"PK\x03\x04"  # how every .xlsx (a zip) begins


class ImportFileError(Exception):
    """The file as a whole cannot be read (type, size, encoding, header); ``row`` names the row where it broke."""

    def __init__(self, message: str, row: int | None = None) -> None:
        super().__init__(message)
        self.row = row


@dataclass(frozen=True)
class Problem:
    row: int | None  # 1 = the header line
    column: str | None
    message: str


@dataclass(frozen=True)
class Entry:
    row: int
    pair: str
    player1: str
    player2: str
    club: str


@dataclass
class Parsed:
    entries: list[Entry]
    problems: list[Problem]

    @property
    def ok(self) -> bool:
        return not self.problems and bool(self.entries)

    def as_data(self) -> list[dict]:
        return [asdict(e) for e in self.entries]


def header_for(language: str | None = None) -> list[str]:
    language = language or get_language() or "en"
    return HEADERS.get(language, HEADERS["en"])


def _text_of(data: bytes) -> str:
    """The file as text: UTF-8 (with or without a byte-order mark), else UTF-16 by its byte-order mark (Excel's
    "Unicode text"), else GB18030 (Excel's "CSV" on a Chinese Windows)."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    try:
        if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
            return data.decode("utf-16")
        return data.decode("gb18030")
    except UnicodeDecodeError:
        raise ImportFileError(_("The file is not text in UTF-8, UTF-16 or GB18030.")) from None


def _rows_from_csv(data: bytes) -> list[list]:
    text = _text_of(data)
    # The delimiter is the header's: a comma, else a tab (Excel's "text" export), else a semicolon.
    first = text.split("\n", 1)[0]
    delimiter = next((d for d in (",", "\t", ";") if d in first), ",")
    rows: list[list] = []
    try:  # strict: a quote left open is named, not allowed to swallow the rest of the file into one cell
        for i, row in enumerate(csv.reader(io.StringIO(text), delimiter=delimiter, strict=True)):
            if i > MAX_ROWS + 1:
                raise ImportFileError(_("Too many rows: at most %(n)s pairs.") % {"n": MAX_ROWS})
            rows.append(row)
    except csv.Error as exc:
        raise ImportFileError(_csv_problem(exc), row=len(rows) + 1) from None
    return rows


def _csv_problem(exc: csv.Error) -> str:
    """What broke a CSV file, in the reader's language (the csv module words its errors in English)."""
    if "field larger" in str(exc):
        return _("A cell is too long to be read (over %(n)s characters): is a quotation mark left open?") % {
            "n": csv.field_size_limit()
        }
    return _("This row cannot be read: a quotation mark is not closed, or text follows a closing quote.")


def _rows_from_xlsx(data: bytes) -> list[list]:
    import openpyxl
    import openpyxl.xml

    if not openpyxl.xml.DEFUSEDXML:  # pragma: no cover - defusedxml is a dependency
        raise ImportFileError(_("Workbooks cannot be read safely here: install defusedxml."))
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            if sum(info.file_size for info in zf.infolist()) > MAX_UNPACKED:
                raise ImportFileError(_("The workbook is too large."))
            if problem := workbook_problem(zf):
                raise ImportFileError(problem)
        wb = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except ImportFileError:
        raise
    except Exception as exc:
        raise ImportFileError(_("The file is not an Excel workbook (.xlsx).")) from exc
    try:
        ws = wb.worksheets[0]
        rows = []
        rows_read = ws.iter_rows(max_row=MAX_ROWS + 3, max_col=READ_COLUMNS, values_only=True)
        for i, row in enumerate(rows_read):
            if i > MAX_ROWS + 1:
                raise ImportFileError(_("Too many rows: at most %(n)s pairs.") % {"n": MAX_ROWS})
            rows.append(list(row))
        return rows
    except ImportFileError:
        raise
    except Exception as exc:  # sheets are parsed lazily: broken or hostile XML surfaces here (defusedxml)
        raise ImportFileError(_("The file is not an Excel workbook (.xlsx).")) from exc
    finally:
        wb.close()


def _too_large_message() -> str:
    return _("The file is too large: at most %(n)s KB.") % {"n": MAX_BYTES // 1000}


def too_large() -> Parsed:
    return Parsed([], [Problem(None, None, _too_large_message())])


def read_rows(filename: str, data: bytes) -> list[list]:
    """The file's cells, row by row; ImportFileError for a wrong type or size."""
    if len(data) > MAX_BYTES:
        raise ImportFileError(_too_large_message())
    ext = Path(filename or "").suffix.lower()
    if ext not in (".csv", ".txt", ".xlsx"):
        raise ImportFileError(_("Upload a .xlsx, .csv or .txt file."))
    # The content decides, not the name: a workbook saved as .csv or .txt is read as the workbook it is.
    if ext == ".xlsx" or data.startswith(ZIP_MAGIC):
        return _rows_from_xlsx(data)
    return _rows_from_csv(data)


def _text(value) -> str | None:
    """A cell as text; None when its type cannot be a name (a date, a fraction, a truth value)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else None
    if isinstance(value, str):
        return " ".join(value.split())
    return None


def parse(tournament: Tournament, filename: str, data: bytes) -> Parsed:
    """Read and check a file; nothing is written. Problems carry the file's row number and the column."""
    try:
        rows = read_rows(filename, data)
    except ImportFileError as exc:
        return Parsed([], [Problem(exc.row, None, str(exc))])
    while rows and all(_text(c) == "" for c in rows[0]):
        rows.pop(0)
    if not rows:
        return Parsed([], [Problem(None, None, _("The file is empty."))])
    header = [(_text(c) or "").lower() for c in rows[0]]
    while header and header[-1] == "":
        header.pop()
    # Problems name the columns as the file's header does.
    names = next((hs for hs in HEADERS.values() if [h.lower() for h in hs] == header), None)
    if names is None:
        expected = " / ".join(",".join(hs) for hs in HEADERS.values())
        return Parsed([], [Problem(1, None, _("The header must be %(header)s.") % {"header": expected})])
    existing = set(tournament.pairs.values_list("name", flat=True))
    seen: dict[str, int] = {}
    taken = playing(tournament)
    players_seen: dict[str, int] = {}  # a player's name → the row that has them
    entries, problems = [], []
    for number, raw in enumerate(rows[1:], start=2):
        cells = list(raw) + [None] * (len(COLUMNS) - len(raw))
        if all(_text(c) == "" for c in cells):
            continue
        extra = [c for c in cells[len(COLUMNS) :] if _text(c) != ""]
        if extra:
            problems.append(Problem(number, None, _("Too many cells: only four columns are read.")))
        values = {}
        for col, name, cell in zip(COLUMNS, names, cells[: len(COLUMNS)], strict=True):
            text = _text(cell)
            if text is None:
                problems.append(Problem(number, name, _("Must be text.")))
                text = ""
            elif problem := text_problem(text, MAX_NAME):
                problems.append(Problem(number, name, problem))
            elif text == "" and col != "club":
                problems.append(Problem(number, name, _("Must not be empty.")))
            values[col] = text
        problems += _entry_problems(number, names, values, existing, seen, taken, players_seen)
        entries.append(Entry(number, **values))
    if not entries and not problems:
        problems.append(Problem(None, None, _("The file has no pairs.")))
    if len(entries) > MAX_ROWS:  # the readers stop a little beyond it (a blank last line is no pair)
        problems.append(Problem(None, None, _("Too many rows: at most %(n)s pairs.") % {"n": MAX_ROWS}))
    return Parsed(entries, problems)


def _entry_problems(
    number: int, names, values: dict, existing: set, seen: dict, taken: dict, players_seen: dict
) -> list[Problem]:
    """One row's pair against the tournament and the rows before it: its name not entered yet nor repeated, its
    two players different and in no other pair."""
    problems = []
    pair = values["pair"]
    if pair:
        if pair in existing:
            problems.append(Problem(number, names[0], _("A pair of this name is already entered.")))
        elif pair in seen:
            problems.append(
                Problem(number, names[0], _("The same pair name as row %(n)s.") % {"n": seen[pair]})
            )
        seen.setdefault(pair, number)
    if values["player1"] and values["player1"] == values["player2"]:
        problems.append(Problem(number, names[2], _("The two players must be different.")))
    return problems + _players_taken(number, names, values, taken, players_seen)


def rows_problem(tournament: Tournament, entries: list[Entry]) -> str | None:
    """The import's checks on pairs that come from elsewhere (the entries on line) before ``import_entries``:
    the first problem as one sentence naming its pair, or None."""
    existing = set(tournament.pairs.values_list("name", flat=True))
    seen: dict[str, int] = {}
    taken = playing(tournament)
    players_seen: dict[str, int] = {}
    names = header_for("zh-hans" if (get_language() or "").startswith("zh") else "en")
    for e in entries:
        values = {"pair": e.pair, "player1": e.player1, "player2": e.player2, "club": e.club}
        found = [
            Problem(e.row, name, problem)
            for col, name in zip(COLUMNS, names, strict=True)
            if (problem := text_problem(values[col], MAX_NAME))
        ]
        found += _entry_problems(e.row, names, values, existing, seen, taken, players_seen)
        if found:
            return f"{e.pair} · {found[0].column}: {found[0].message}"
    return None


def _players_taken(number: int, names, values: dict, taken: dict, seen: dict) -> list[Problem]:
    """A player already in a pair of the tournament, or in an earlier row: one person plays in one pair."""
    problems = []
    for col, label in (("player1", names[1]), ("player2", names[2])):
        name = clean_name(values[col])
        if not name:
            continue
        if name in taken:
            problems.append(Problem(number, label, _("Already plays in %(pair)s.") % {"pair": taken[name]}))
        elif name in seen and seen[name] != number:
            problems.append(Problem(number, label, _("Already plays in row %(n)s.") % {"n": seen[name]}))
        seen.setdefault(name, number)
    return problems


@transaction.atomic
def import_entries(tournament: Tournament, entries: list[Entry]) -> list[Pair]:
    """Create the pairs and their players, all or nothing (names checked again inside the transaction); refused
    once the tournament is finished (``finishing.lock_open``)."""
    tournament = lock_open(tournament.pk)
    taken = set(tournament.pairs.values_list("name", flat=True))
    clash = [e.pair for e in entries if e.pair in taken]
    if clash:
        raise ImportFileError(_("Already entered: %(names)s") % {"names": ", ".join(clash)})
    seed = tournament.pairs.aggregate(m=Max("seed"))["m"] or 0
    created = []
    for e in entries:
        seed += 1
        p1, p2 = player_named(e.player1, e.club), player_named(e.player2, e.club)
        created.append(
            Pair.objects.create(
                tournament=tournament, name=e.pair, player1=p1, player2=p2, club=e.club, seed=seed
            )
        )
    return created


def entries_from_data(data: list[dict]) -> list[Entry]:
    return [Entry(**d) for d in data]


def template_csv(language: str | None = None) -> bytes:
    out = io.StringIO()
    csv.writer(out).writerow(header_for(language))
    return ("\ufeff" + out.getvalue()).encode("utf-8")


def template_xlsx(language: str | None = None) -> bytes:
    from openpyxl import Workbook
    from openpyxl.styles import Font

    wb = Workbook()
    ws = wb.active
    ws.title = "pairs"
    ws.append(header_for(language))
    for cell in ws[1]:
        cell.font = Font(bold=True)
    for letter in "ABCD":
        ws.column_dimensions[letter].width = 20
    ws.freeze_panes = "A2"
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()
