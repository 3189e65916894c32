"""Importing pairs: both headers, .csv and .xlsx, errors by row and column, all or nothing, limits."""

from __future__ import annotations

import codecs
import io
import tracemalloc
import zipfile
from datetime import datetime

import openpyxl
import openpyxl.xml
import pytest
from django.core.management import CommandError, call_command
from django.utils import translation

from tests.desk.helpers import empty_strings_workbook, largest_workbook, with_part, xlsx_bytes
from tournaments.models import Pair, Player
from tournaments.workbook import limits
from tournaments.workbook.importing import (
    MAX_BYTES,
    header_for,
    import_entries,
    parse,
    template_csv,
    template_xlsx,
)

ZH_HEADER = "队名,选手1,选手2,俱乐部"


def csv_bytes(*lines: str) -> bytes:
    return ("\n".join(lines) + "\n").encode("utf-8")


def problems(parsed):
    return [(p.row, p.column) for p in parsed.problems]


def test_openpyxl_reads_xml_through_defusedxml():
    assert openpyxl.xml.DEFUSEDXML is True


@pytest.mark.django_db
def test_english_csv_imports(tournament):
    parsed = parse(
        tournament,
        "pairs.csv",
        csv_bytes("pair,player1,player2,club", "东风队,王建国,李秀英,朝阳", "长城队,张伟,刘芳,"),
    )
    assert parsed.ok and [e.pair for e in parsed.entries] == ["东风队", "长城队"]
    created = import_entries(tournament, parsed.entries)
    assert [p.name for p in created] == ["东风队", "长城队"]
    assert created[0].players == "王建国 / 李秀英" and created[0].club == "朝阳" and created[0].seed == 1
    assert Player.objects.get(name="王建国").club == "朝阳"


@pytest.mark.django_db
def test_chinese_header_xlsx_imports(tournament):
    data = xlsx_bytes(
        [
            ZH_HEADER.split(","),
            ["黄河队", "陈志强", "杨丽", "海淀"],
            [None, None, None, None],
            [7, "甲", "乙", None],
        ]
    )
    parsed = parse(tournament, "名单.xlsx", data)
    assert parsed.ok, parsed.problems
    assert [(e.row, e.pair, e.club) for e in parsed.entries] == [(2, "黄河队", "海淀"), (4, "7", "")]


@pytest.mark.django_db
def test_an_unknown_header_is_a_problem_on_row_1(tournament):
    parsed = parse(tournament, "x.csv", csv_bytes("name,a,b,c", "A,B,C,D"))
    assert not parsed.ok and problems(parsed) == [(1, None)]


@pytest.mark.django_db
def test_errors_by_row_and_column(tournament, make_pair):
    make_pair("已有队")
    parsed = parse(
        tournament,
        "x.csv",
        csv_bytes(
            "pair,player1,player2,club",
            "A,p,q,",
            "A,r,s,",  # duplicate in the file
            "已有队,t,u,",  # already entered
            "B,,v,",  # empty player
            "C,w,w,",  # the same player twice
            ",x,y,",  # empty pair
        ),
    )
    assert not parsed.ok
    assert problems(parsed) == [(3, "pair"), (4, "pair"), (5, "player1"), (6, "player2"), (7, "pair")]
    assert "2" in parsed.problems[0].message


@pytest.mark.django_db
def test_a_date_fraction_or_truth_value_cell_is_a_problem(tournament):
    data = xlsx_bytes(
        [
            ["pair", "player1", "player2", "club"],
            ["A", datetime(2026, 1, 1), "q", None],
            ["B", 1.5, "r", True],
        ]
    )
    parsed = parse(tournament, "x.xlsx", data)
    assert problems(parsed) == [(2, "player1"), (3, "player1"), (3, "club")]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("x.pdf", b"pair,player1,player2,club\n"),
        ("x.xlsx", b"not a zip file at all"),
        ("x.csv", b"\xff\xfe\x00bad"),
        ("x.csv", b""),
    ],
)
def test_an_unreadable_or_wrong_type_file_is_refused_as_a_whole(tournament, name, data):
    parsed = parse(tournament, name, data)
    assert not parsed.ok and parsed.problems and parsed.problems[0].row in (None, 1)


@pytest.mark.django_db
def test_oversized_files_are_refused(tournament):
    big = csv_bytes("pair,player1,player2,club", *[f"P{i},a{i},b{i}," for i in range(100_000)])
    assert len(big) > MAX_BYTES
    assert not parse(tournament, "big.csv", big).ok
    many = csv_bytes("pair,player1,player2,club", *[f"P{i},a{i},b{i}," for i in range(2500)])
    assert "2000" in parse(tournament, "many.csv", many).problems[0].message
    # A small .xlsx that unpacks to a huge file.
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("xl/worksheets/sheet1.xml", b" " * 30_000_000)
    assert len(out.getvalue()) < MAX_BYTES
    assert not parse(tournament, "bomb.xlsx", out.getvalue()).ok


@pytest.mark.django_db
def test_all_or_nothing_through_the_command(tournament, tmp_path):
    f = tmp_path / "pairs.csv"
    f.write_bytes(csv_bytes("pair,player1,player2,club", "A,p,q,", "B,r,,"))
    with pytest.raises(CommandError, match="row 3, column player2"):
        call_command("import_pairs", tournament.slug, str(f))
    assert not Pair.objects.exists() and not Player.objects.exists()
    f.write_bytes(csv_bytes(ZH_HEADER, "A,p,q,", "B,r,s,"))
    call_command("import_pairs", tournament.slug, str(f))
    assert list(tournament.pairs.values_list("name", flat=True)) == ["A", "B"]


@pytest.mark.django_db
def test_a_clash_inside_the_transaction_writes_nothing(tournament, make_pair):
    parsed = parse(tournament, "x.csv", csv_bytes("pair,player1,player2,club", "A,p,q,", "B,r,s,"))
    make_pair("B")  # entered meanwhile
    players = Player.objects.count()
    with pytest.raises(Exception, match="B"):
        import_entries(tournament, parsed.entries)
    assert tournament.pairs.count() == 1 and Player.objects.count() == players


def test_templates_have_the_english_and_chinese_headers():
    assert header_for("en") == ["pair", "player1", "player2", "club"]
    assert header_for("zh-hans") == ZH_HEADER.split(",")
    assert template_csv("zh-hans").decode("utf-8-sig").strip() == ZH_HEADER
    wb = openpyxl.load_workbook(io.BytesIO(template_xlsx("en")))
    assert [c.value for c in wb.active[1]] == ["pair", "player1", "player2", "club"]


@pytest.mark.django_db
def test_tab_and_semicolon_files_and_quoted_commas(tournament):
    tab = parse(tournament, "x.csv", csv_bytes("pair\tplayer1\tplayer2\tclub", "A\tp\tq\tc, d"))
    assert tab.ok and tab.entries[0].club == "c, d"
    semi = parse(tournament, "x.csv", csv_bytes("pair;player1;player2;club", "B;p;q;"))
    assert semi.ok and semi.entries[0].pair == "B"
    quoted = parse(tournament, "x.csv", csv_bytes("pair,player1,player2,club", '"C, the pair",p,q,'))
    assert quoted.ok and quoted.entries[0].pair == "C, the pair"


def with_entities(xlsx: bytes, part: str) -> bytes:
    """The same workbook with an external entity (XXE) and an entity expansion planted in one XML part."""
    source = zipfile.ZipFile(io.BytesIO(xlsx))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        for item in source.infolist():
            data = source.read(item.filename)
            if item.filename == part:
                text = data.decode("utf-8")
                head, _, body = text.partition("?>") if text.startswith("<?xml") else ("", "", text)
                doctype = (
                    '<!DOCTYPE x [<!ENTITY secret SYSTEM "file:///etc/passwd">'
                    '<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>'
                )
                body = body.replace("&#38431;1", "&secret;&b;")  # the pair name 队1, as openpyxl escapes it
                assert "&secret;" in body or part.endswith("workbook.xml"), part
                data = ((head + "?>" if head else "") + doctype + body).encode("utf-8")
            zf.writestr(item, data)
    return out.getvalue()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("part", "readable"), [("xl/worksheets/sheet1.xml", False), ("xl/workbook.xml", True)]
)
def test_entities_in_an_upload_are_never_expanded(tournament, part, readable):
    """Entities in a sheet are refused by defusedxml with a clear message; elsewhere they stay unexpanded."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(["pair", "player1", "player2", "club"])
    ws.append(["队1", "甲", "乙", ""])
    buffer = io.BytesIO()
    wb.save(buffer)
    with translation.override("en"):
        parsed = parse(tournament, "evil.xlsx", with_entities(buffer.getvalue(), part))
    assert "root:" not in repr(parsed)
    assert "aaaaaaaaaa" not in repr(parsed)
    assert parsed.ok is readable
    if not readable:
        assert parsed.problems[0].message == "The file is not an Excel workbook (.xlsx)."


# ------------------------------------------------------------------ hostile files


@pytest.mark.django_db
def test_a_cell_over_the_csv_field_limit_is_a_problem_naming_its_row(tournament):
    data = csv_bytes("pair,player1,player2,club", "A,p,q,", "B," + "x" * 131_073 + ",r,")
    with translation.override("en"):
        parsed = parse(tournament, "x.csv", data)
    assert not parsed.ok and problems(parsed) == [(3, None)]
    assert "too long" in parsed.problems[0].message


@pytest.mark.django_db
@pytest.mark.parametrize("line", ['"B,p,q,', 'B,"p"q,r,'])
def test_an_unbalanced_quote_is_a_problem_naming_its_row(tournament, line):
    with translation.override("en"):
        parsed = parse(tournament, "x.csv", csv_bytes("pair,player1,player2,club", "A,p,q,", line, "C,s,t,"))
    assert not parsed.ok and problems(parsed) == [(3, None)]
    assert "quotation mark" in parsed.problems[0].message


@pytest.mark.django_db
def test_nul_characters_in_names_are_refused_with_a_clear_message(tournament):
    """PostgreSQL cannot store NUL (a DataError on import). A workbook cannot hold one: XML refuses it."""
    data = csv_bytes("pair,player1,player2,club", "A\x00,p,q,", "B,r,s,c\x00lub")
    with translation.override("en"):
        parsed = parse(tournament, "x.csv", data)
    assert not parsed.ok and problems(parsed) == [(2, "pair"), (3, "club")]
    assert all("NUL" in p.message for p in parsed.problems)


def with_dimension(xlsx: bytes, ref: str) -> bytes:
    """The same workbook with its first sheet declaring ``<dimension ref=…>`` (openpyxl's read-only mode trusts it)."""
    source = zipfile.ZipFile(io.BytesIO(xlsx))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        for item in source.infolist():
            data = source.read(item.filename)
            if item.filename == "xl/worksheets/sheet1.xml":
                text = data.decode("utf-8")
                start = text.index("<dimension ref=")
                end = text.index("/>", start) + 2
                data = (text[:start] + f'<dimension ref="{ref}"/>' + text[end:]).encode("utf-8")
            zf.writestr(item, data)
    return out.getvalue()


@pytest.mark.django_db
def test_a_declared_dimension_of_16384_columns_costs_no_memory(tournament):
    """A small workbook declaring A1:XFD2001 made every row 16,384 cells wide (~250 MB a request)."""
    rows = [["pair", "player1", "player2", "club"], ["A", "p", "q", ""]]
    rows += [[None] * 4] * 1997 + [["B", "r", "s", "东城"]]  # a pair on row 2000: every row between is read
    data = with_dimension(xlsx_bytes(rows), "A1:XFD2001")
    tracemalloc.start()
    try:
        parsed = parse(tournament, "wide.xlsx", data)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert parsed.ok, parsed.problems
    assert [(e.row, e.pair) for e in parsed.entries] == [(2, "A"), (2000, "B")]
    assert peak < 50_000_000, f"peak {peak / 1e6:.0f} MB"


@pytest.mark.django_db
def test_rows_past_a_declared_dimension_are_read_too(tournament):
    rows = [["pair", "player1", "player2", "club"], ["A", "p", "q", ""], ["B", "r", "s", ""]]
    parsed = parse(tournament, "small.xlsx", with_dimension(xlsx_bytes(rows), "A1:A1"))
    assert parsed.ok and [e.pair for e in parsed.entries] == ["A", "B"]


@pytest.mark.django_db
def test_the_import_page_shows_an_unreadable_row_as_a_problem(client, director, tournament):
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.urls import reverse

    client.force_login(director)
    client.cookies["django_language"] = "en"
    data = csv_bytes("pair,player1,player2,club", "A,p,q,", '"B,r,s,', "C,t,u,")
    upload = SimpleUploadedFile("pairs.csv", data, content_type="text/csv")
    response = client.post(reverse("desk-import", args=[tournament.slug]), {"file": upload})
    html = response.content.decode()
    assert response.status_code == 200
    assert "<td>3</td>" in html and "quotation mark" in html and "Nothing is imported" in html
    assert not Pair.objects.exists()


# ------------------------------------------------------------------ what a workbook may hold

PAIRS = [["pair", "player1", "player2", "club"], ["A", "p", "q", ""]]


def with_extra_markup(part: str, before: str, markup: str) -> bytes:
    """A small workbook of one pair with ``markup`` planted in ``part`` just before ``before``."""
    xlsx = xlsx_bytes(PAIRS)
    text = zipfile.ZipFile(io.BytesIO(xlsx)).read(part).decode("utf-8")
    at = text.index(before)
    return with_part(xlsx, part, (text[:at] + markup + text[at:]).encode("utf-8"))


def hostile_workbooks() -> dict[str, bytes]:
    cap = limits
    attributes = "".join(f' a{n}=""' for n in range(cap.MAX_ATTRIBUTES + 1))
    return {
        "texts": empty_strings_workbook(cap.MAX_STRINGS + 1),
        "cells": with_extra_markup("xl/worksheets/sheet1.xml", "</row>", "<c/>" * (cap.MAX_CELLS + 1)),
        "styles": with_extra_markup("xl/styles.xml", "</cellXfs>", "<xf/>" * (cap.MAX_OTHER + 1)),
        "attributes": with_extra_markup("xl/workbook.xml", "</workbook>", f"<x{attributes}/>"),
        "cell markup": with_extra_markup(
            "xl/workbook.xml", "</workbook>", "<v/>" * (cap.MAX_CELL_MARKUP + 1)
        ),
    }


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("kind", "message"),
    [
        ("texts", "The workbook holds more than 20000 different texts: keep only the pairs in it."),
        ("cells", "The workbook holds more than 20000 cells: keep only the pairs in it."),
        (
            "styles",
            "The workbook holds too much formatting or other content to be read: keep only the pairs in it.",
        ),
        (
            "attributes",
            "The workbook holds too much formatting or other content to be read: keep only the pairs in it.",
        ),
        (
            "cell markup",
            "The workbook holds too much formatting or other content to be read: keep only the pairs in it.",
        ),
    ],
)
def test_a_workbook_past_a_cap_is_refused_in_one_sentence_before_openpyxl_reads_it(tournament, kind, message):
    with translation.override("en"):
        parsed = parse(tournament, f"{kind}.xlsx", hostile_workbooks()[kind])
    assert [(p.row, p.message) for p in parsed.problems] == [(None, message)]


@pytest.mark.django_db
def test_the_33_kb_workbook_of_3_9_million_empty_texts_is_refused_in_chinese_by_default(tournament):
    data = empty_strings_workbook()
    assert len(data) < 40_000
    with translation.override("zh-hans"):
        parsed = parse(tournament, "strings.xlsx", data)
    assert [p.message for p in parsed.problems] == ["工作簿中不同的文字超过 20000 个：请只保留搭档名单。"]


@pytest.mark.django_db
def test_the_largest_workbook_the_caps_allow_imports_its_2000_pairs(tournament):
    parsed = parse(tournament, "largest.xlsx", largest_workbook())
    assert parsed.ok, parsed.problems[:3]
    assert len(parsed.entries) == 2000 and parsed.entries[-1].pair == "第2000队"


# ------------------------------------------------------------------ encodings and names

PAIR_LINES = [ZH_HEADER, "春风队,林志明,高淑珍,东城", "秋月队,何建华,罗桂芳,"]


def text_file(encoding: str, delimiter: str = ",", bom: bytes = b"") -> bytes:
    """The two pairs as Excel would save them: CRLF lines, in ``encoding``, after ``bom``."""
    lines = [line.replace(",", delimiter) for line in PAIR_LINES]
    return bom + ("\r\n".join(lines) + "\r\n").encode(encoding)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("name", "encoding", "delimiter", "bom"),
    [
        ("unicode.txt", "utf-16-le", "\t", codecs.BOM_UTF16_LE),  # Excel's "Unicode text"
        ("unicode.txt", "utf-16-be", "\t", codecs.BOM_UTF16_BE),
        ("unicode.csv", "utf-16-le", ",", codecs.BOM_UTF16_LE),
        ("chinese.csv", "gb18030", ",", b""),  # Excel's "CSV" on a Chinese Windows
        ("chinese.txt", "gb18030", "\t", b""),
        ("plain.csv", "utf-8", ",", b""),
        ("marked.txt", "utf-8", "\t", codecs.BOM_UTF8),
    ],
)
def test_utf16_gb18030_and_utf8_text_files_with_tabs_or_commas_import(
    tournament, name, encoding, delimiter, bom
):
    parsed = parse(tournament, name, text_file(encoding, delimiter, bom))
    assert parsed.ok, parsed.problems
    assert [(e.pair, e.player1, e.club) for e in parsed.entries] == [
        ("春风队", "林志明", "东城"),
        ("秋月队", "何建华", ""),
    ]


@pytest.mark.django_db
def test_text_in_no_encoding_read_is_refused_in_one_sentence(tournament):
    with translation.override("en"):
        parsed = parse(tournament, "x.csv", b"\xff\xfe\x00")  # a UTF-16 mark and half a character
    assert [p.message for p in parsed.problems] == ["The file is not text in UTF-8, UTF-16 or GB18030."]


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["pairs.csv", "pairs.txt", "pairs.CSV"])
def test_a_workbook_saved_under_a_text_name_is_read_as_the_workbook_it_is(tournament, name):
    data = xlsx_bytes([["pair", "player1", "player2", "club"], ["A", "p", "q", "c"]])
    assert data.startswith(b"PK\x03\x04")
    parsed = parse(tournament, name, data)
    assert parsed.ok, parsed.problems
    assert [(e.pair, e.club) for e in parsed.entries] == [("A", "c")]


@pytest.mark.django_db
def test_a_hostile_workbook_under_a_text_name_meets_the_same_caps(tournament):
    with translation.override("en"):
        parsed = parse(tournament, "strings.csv", empty_strings_workbook(limits.MAX_STRINGS + 1))
    assert [p.message for p in parsed.problems] == [
        "The workbook holds more than 20000 different texts: keep only the pairs in it."
    ]


def test_a_file_of_one_pair_more_than_the_cap_is_refused(tournament):
    from tournaments.workbook.importing import MAX_ROWS

    rows = [f"队{n},甲{n},乙{n}," for n in range(1, MAX_ROWS + 2)]
    parsed = parse(tournament, "pairs.csv", csv_bytes("pair,player1,player2,club", *rows))
    assert not parsed.ok and str(MAX_ROWS) in " ".join(p.message for p in parsed.problems)
