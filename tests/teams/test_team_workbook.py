"""The workbook of a team event: a sheet of every zone's table, one of every team match's result and one of the
playoffs' bracket, read back with openpyxl; the desk's download carries them, in the request's language."""

from __future__ import annotations

import io

import pytest
from django.urls import reverse
from django.utils import translation
from openpyxl import load_workbook

from rules.teams import BY_ZONE_ORDER
from tests.teams.scene import hand_in_both, league, play, play_league, two_zones
from tournaments.league.playoffs import start_playoffs
from tournaments.models import TeamMatch
from tournaments.teams.sheets import team_sheets
from tournaments.workbook.export import write_workbook

pytestmark = pytest.mark.django_db


def workbook_of(t, language: str = "en"):
    out = io.BytesIO()
    with translation.override(language):
        write_workbook(t, out, extra=team_sheets)
    out.seek(0)
    return load_workbook(out)


def rows(ws) -> list[tuple]:
    return list(ws.iter_rows(values_only=True))


def test_every_zone_has_its_table_sheet_ranked_as_the_page(director):
    t = two_zones()
    play_league(t, director)
    wb = workbook_of(t)
    north = rows(wb["Zone table 北区"])
    assert north[0][:3] == ("rank", "team", "club")
    assert [r[1] for r in north[1:]] == ["北区1队", "北区2队", "北区3队"]
    # 北区1队 won all four of its matches 4–0 in table points (2 a table won): 16, 4 wins, no loss
    assert north[1][:1] == (1,) and north[1][3:9] == (4, 4, 0, 0, 16, 16)
    assert "Zone table 南区" in wb.sheetnames


def test_the_team_matches_sheet_has_each_fixtures_result_and_winner(director):
    t = league(teams=4)
    fx = (
        TeamMatch.objects.filter(round__tournament=t)
        .select_related("home", "away", "round")
        .order_by("round__number", "number")
        .first()
    )
    hand_in_both(fx, director)
    play(fx, home_wins=2)
    sheet = rows(workbook_of(t)["Team matches"])
    assert len(sheet) == 1 + TeamMatch.objects.filter(round__tournament=t).count()
    first = sheet[1]
    assert first[:2] == (1, 1) and first[4:9] == (fx.home.name, fx.away.name, 4, 2, fx.home.name)
    assert sheet[2][6] is None  # a fixture not played has no score


def test_victory_points_are_written_as_decimals(director):
    t = league(teams=2, scoring="victory_points")
    fx = TeamMatch.objects.filter(round__tournament=t).select_related("home", "away", "round").first()
    hand_in_both(fx, director)
    play(fx, home_wins=3)
    first = rows(workbook_of(t)["Team matches"])[1]
    assert first[6] + first[7] == pytest.approx(20.0) and first[6] > 10


def test_the_playoffs_sheet_lists_the_bracket_with_its_byes(director):
    t = two_zones()
    play_league(t, director)
    start_playoffs(t, 3, BY_ZONE_ORDER)
    sheet = rows(workbook_of(t)["Playoffs"])
    first_round = [r for r in sheet[1:] if r[1] == "Quarter-finals"]
    assert len(first_round) == 4
    assert first_round[0][4] == "北区1队" and first_round[0][7] == "bye" and first_round[0][9] == "北区1队"
    assert any(r[1] == "Final" for r in sheet[1:])


def test_a_pairs_event_gets_no_team_sheet(tournament):
    assert not {"Team matches", "Playoffs"} & set(workbook_of(tournament).sheetnames)


def test_the_desks_download_carries_the_team_sheets_in_chinese(client, director):
    t = two_zones()
    client.force_login(director)
    response = client.get(reverse("desk-export", args=[t.slug]), headers={"accept-language": "zh-hans"})
    wb = load_workbook(io.BytesIO(response.content))
    assert "团体比赛" in wb.sheetnames and "北区积分表" in wb.sheetnames


def test_the_playoffs_sheet_stores_the_scores_as_numbers(director):
    t = two_zones()
    play_league(t, director)
    po = start_playoffs(t, 2, BY_ZONE_ORDER)
    for fx in TeamMatch.objects.filter(round__number=po.start).select_related("home", "away", "round"):
        hand_in_both(fx, director)
        play(fx, home_wins=2)
    semis = [r for r in rows(workbook_of(t)["Playoffs"])[1:] if r[1] == "Semi-finals"]
    assert [sorted((r[5], r[8])) for r in semis] == [[0, 4], [0, 4]]
    assert all(isinstance(r[5], int) and isinstance(r[8], int) for r in semis)
