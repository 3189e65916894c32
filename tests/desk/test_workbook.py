"""The official workbook read back with openpyxl: sheets, headers, rows, every value, no formulas."""

from __future__ import annotations

import io

import openpyxl
import pytest
from django.core.management import call_command
from django.utils import translation

from tests.desk.helpers import deal, play
from tournaments.models import Bye, Pair, Penalty, Player, Round
from tournaments.workbook.export import write_workbook
from tournaments.workbook.sheet import sheet_title

HOSTILE = ['=HYPERLINK("http://evil.example","click")', "+1+2", "-3", "@SUM(A1)", "bell\x07name"]


@pytest.fixture
def event(tournament, make_pair, judge):
    a = make_pair("东风队", club="朝阳")
    b = Pair.objects.create(
        tournament=tournament,
        name=HOSTILE[0],
        player1=Player.objects.create(name=HOSTILE[1]),
        player2=Player.objects.create(name=HOSTILE[2]),
        club=HOSTILE[3],
        seed=2,
    )
    c = make_pair(HOSTILE[4])
    r1 = Round.objects.create(tournament=tournament, number=1, state=Round.State.FINISHED)
    m = play(r1, 1, a, b, a, "5", "3")
    m.judge = judge
    m.save()
    Bye.objects.create(round=r1, pair=c, points=2)
    deal(m, 1, "N", 35, "banker_holds", level="2", trump="H", levels=2)
    d2 = deal(m, 2, "E", 90, "takeover", level="2", trump="NT", kitty=15, multiplier=2, penalties=10)
    Penalty.objects.create(
        deal=d2, seat="E", code="renege", trick=3, note="=cmd|' /C calc'!A0", recorded_by=judge
    )
    return tournament, (a, b, c), m


def read(tournament, language="en"):
    out = io.BytesIO()
    with translation.override(language):
        write_workbook(tournament, out)
    out.seek(0)
    return openpyxl.load_workbook(out)


def values(ws):
    return [list(r) for r in ws.iter_rows(values_only=True)]


@pytest.mark.django_db
def test_sheets_headers_and_every_value(event):
    tournament, (a, b, c), m = event
    wb = read(tournament)
    assert wb.sheetnames == ["Standings", "Rounds", "Deals", "Penalties"]

    st = values(wb["Standings"])
    assert st[0] == [
        "rank", "pair name", "players", "club", "played", "wins", "draws", "losses", "match points",
        "level difference", "Buchholz", "head-to-head", "deals won as banker", "attackers' points", "withdrawn",
        "adjusted result",
    ]  # fmt: skip
    # Ladder positions: 5 → 3, 3 → 1. A bye counts as a win with no opponent.
    assert st[1] == [1, "东风队", a.players, "朝阳", 1, 1, 0, 0, 2, 2, 0, 0, 1, 90, None, None]
    assert st[2] == [2, "bellname", c.players, None, 1, 1, 0, 0, 2, 0, 0, 0, 0, 0, None, None]
    assert st[3] == [
        3,
        HOSTILE[0],
        f"{HOSTILE[1]} / {HOSTILE[2]}",
        HOSTILE[3],
        1,
        0,
        0,
        1,
        0,
        -2,
        2,
        0,
        0,
        35,
        None,
        None,
    ]

    rounds = values(wb["Rounds"])
    assert rounds[0] == ["round", "table", "North–South", "East–West", "N–S level", "E–W level", "result",
                         "ended by", "state", "judge"]  # fmt: skip
    assert rounds[1] == [
        1,
        1,
        "东风队",
        HOSTILE[0],
        "5",
        "3",
        "东风队 won",
        "target reached",
        "finished",
        "judge",
    ]
    assert rounds[2] == [1, None, "bellname", None, None, None, "bye (2 points)", "bye", None, None]

    deals = values(wb["Deals"])
    assert deals[0] == ["round", "table", "deal", "banker", "level", "trump", "attackers' points", "kitty points",
                        "kitty multiplier", "kitty bonus", "penalty points", "result", "penalties"]  # fmt: skip
    assert deals[1] == [1, 1, 1, "东风队 (North)", "2", "♥", 35, 0, None, None, None, "banker holds +2", None]
    assert deals[2] == [1, 1, 2, f"{HOSTILE[0]} (East)", "2", "no trump", 90, 15, 2, 30, 10, "takeover +1",
                        "East renege"]  # fmt: skip
    assert len(deals) == 3

    pens = values(wb["Penalties"])
    assert pens[0] == ["round", "table", "deal", "seat", "pair", "penalty", "trick", "note", "recorded by",
                       "recorded at"]  # fmt: skip
    assert pens[1][:9] == [1, 1, 2, "East", HOSTILE[0], "renege", 4, "=cmd|' /C calc'!A0", "judge"]
    assert pens[1][9] is not None and wb["Penalties"]["J2"].number_format == "yyyy-mm-dd hh:mm"


@pytest.mark.django_db
def test_no_formula_anywhere_and_hostile_text_is_text(event):
    tournament, _pairs, _m = event
    wb = read(tournament)
    seen = 0
    for ws in wb.worksheets:
        for row in ws.iter_rows():
            for cell in row:
                assert cell.data_type != "f", (ws.title, cell.coordinate, cell.value)
                if isinstance(cell.value, str) and cell.value[:1] in "=+-@":
                    assert cell.data_type == "s" and cell.quotePrefix, cell.coordinate
                    seen += 1
                if isinstance(cell.value, str):
                    assert "\x07" not in cell.value
    assert seen == 7  # names, players, club, note: each wherever it appears


@pytest.mark.django_db
def test_headers_bold_frozen_filtered_and_sized(event):
    tournament, _pairs, _m = event
    wb = read(tournament)
    for ws in wb.worksheets:
        assert ws.freeze_panes == "A2"
        assert ws.auto_filter.ref.startswith("A1:")
        assert all(c.font.bold for c in ws[1])
        assert ws.column_dimensions["B"].width >= 7
    assert wb["Standings"].auto_filter.ref == "A1:P4"
    assert wb["Standings"]["J2"].number_format == "+0;-0;0"  # level difference shows its sign


@pytest.mark.django_db
def test_headers_in_chinese_for_a_chinese_request(event, client, director):
    tournament, _pairs, _m = event
    client.force_login(director)
    response = client.get(f"/t/{tournament.slug}/desk/export.xlsx")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/vnd.openxmlformats")
    assert "attachment" in response["Content-Disposition"]
    wb = openpyxl.load_workbook(io.BytesIO(response.content))
    assert wb.sheetnames == ["排名", "轮次", "牌局", "罚则"]
    assert values(wb["排名"])[0] == ["名次", "队名", "选手", "俱乐部", "已赛", "胜", "平", "负", "比赛积分",
                                    "级差", "对手分", "胜负关系", "坐庄胜局", "抓分", "已退赛", "调整结果"]  # fmt: skip
    assert wb.worksheets[0]["B2"].value == "东风队"
    client.cookies["django_language"] = "en"
    wb = openpyxl.load_workbook(io.BytesIO(client.get(f"/t/{tournament.slug}/desk/export.xlsx").content))
    assert wb.sheetnames[0] == "Standings"


def test_sheet_titles_are_cleaned():
    assert sheet_title("a/b\\c?d*e[f]g:h") == "abcdefgh"
    assert len(sheet_title("x" * 50)) == 31
    assert sheet_title("\x01\x02") == "Sheet"


@pytest.mark.django_db
def test_export_standings_command(event, tmp_path):
    tournament, _pairs, _m = event
    out = tmp_path / "out.xlsx"
    call_command("export_standings", tournament.slug, str(out), "--language", "en")
    wb = openpyxl.load_workbook(out)
    assert wb.sheetnames == ["Standings", "Rounds", "Deals", "Penalties"]
    assert wb["Standings"].max_row == 4
