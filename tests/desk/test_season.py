"""A club's season: the player registry (one player across pairs and tournaments, a typo merged), the series'
player and pair tables with best k of n, its pages and workbook."""

from __future__ import annotations

import io

import openpyxl
import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils import translation

from tests.desk.helpers import en, xlsx_bytes
from tests.desk.season_scene import build_season
from tournaments.models import Pair, Player, PlayerMerge, Series, Tournament
from tournaments.people.errors import PeopleError
from tournaments.people.pairs import PairEntry, save_pair
from tournaments.people.registry import MergeError, merge_players
from tournaments.season import ratings
from tournaments.season.series_standings import series_standings
from tournaments.workbook.importing import parse


@pytest.fixture(autouse=True)
def english():
    """The services' refusals read in English (the pages choose their language by cookie)."""
    with translation.override("en"):
        yield


def totals(rows) -> dict[str, tuple[int, int]]:
    return {row.name: (row.rank, row.total) for row in rows}


def merged(season, director) -> None:
    merge_players(season.player("郑十"), season.player("郑石"), director)


@pytest.mark.django_db
def test_a_player_entered_in_another_tournament_and_pair_is_the_same_player(director):
    season = build_season(director)
    zhang = season.player("张三")
    assert Player.objects.filter(name="张三").count() == 1
    assert {p.tournament.name for p in Pair.objects.filter(player1=zhang)} == {"一月赛", "二月赛", "三月赛"}
    assert Player.objects.count() == 9  # eight people and the typo


@pytest.mark.django_db
def test_the_series_standings_count_each_players_best_two_of_three(director):
    season = build_season(director)
    merged(season, director)
    standings = series_standings(season.series)
    assert totals(standings.players) == {
        "张三": (1, 50), "李四": (1, 50), "孙七": (1, 50), "周八": (1, 50),
        "王五": (5, 43), "赵六": (5, 43), "吴九": (7, 27), "郑十": (7, 27),
    }  # fmt: skip
    zhang = next(r for r in standings.players if r.name == "张三")
    january, february, march = season.tournaments
    assert zhang.cells(standings.tournaments) == [(25, True), (18, False), (25, True)]


@pytest.mark.django_db
def test_pairs_are_their_two_players_whatever_they_were_called(director):
    season = build_season(director)
    merged(season, director)
    by_players = {
        tuple(sorted(p.name for p in row.players)): (row.rank, row.total, len(row.points))
        for row in series_standings(season.series).pairs
    }
    assert by_players == {
        ("张三", "李四"): (1, 50, 2),
        ("周八", "孙七"): (1, 50, 3),
        ("王五", "赵六"): (3, 43, 2),
        ("吴九", "郑十"): (4, 27, 3),
        ("张三", "王五"): (5, 18, 1),
        ("李四", "赵六"): (6, 12, 1),
    }


@pytest.mark.django_db
def test_before_the_merge_the_typo_is_a_player_of_its_own(director):
    season = build_season(director)
    rows = totals(series_standings(season.series).players)
    assert rows["吴九"] == (7, 27) and rows["郑十"] == (8, 24) and rows["郑石"] == (9, 15)


@pytest.mark.django_db
def test_with_every_result_counting_the_totals_add_all_three(director):
    season = build_season(director, best_of=None)
    merged(season, director)
    rows = totals(series_standings(season.series).players)
    assert rows["张三"] == (1, 68) and rows["孙七"] == (2, 65) and rows["郑十"] == (7, 39)


@pytest.mark.django_db
def test_an_unfinished_tournament_is_shown_but_not_counted(director):
    season = build_season(director)
    march = season.tournaments[2]
    march.finished_at = None
    march.save()
    standings = series_standings(season.series)
    assert [t.name for t in standings.counted] == ["一月赛", "二月赛"]
    assert totals(standings.players)["张三"] == (1, 43)


@pytest.mark.django_db
def test_a_merge_moves_every_pair_and_is_recorded_with_who_and_when(director):
    season = build_season(director)
    typo = season.player("郑石")
    pair = Pair.objects.get(player2=typo)
    record = merge_players(season.player("郑十"), typo, director)
    pair.refresh_from_db()
    assert pair.player2.name == "郑十" and not Player.objects.filter(name="郑石").exists()
    assert (record.merged_name, record.pairs, record.merged_by) == ("郑石", 1, director)
    assert pair.history.first().history_user == director


@pytest.mark.django_db
def test_two_players_of_one_pair_are_not_merged(director):
    season = build_season(director)
    with pytest.raises(MergeError, match="play together"):
        merge_players(season.player("张三"), season.player("李四"), director)
    with pytest.raises(MergeError):
        merge_players(season.player("张三"), season.player("张三"), director)
    assert not PlayerMerge.objects.exists()


@pytest.mark.django_db
def test_the_merge_command_calls_the_same_service(director):
    season = build_season(director)
    out = io.StringIO()
    call_command(
        "merge_players", season.player("郑十").pk, season.player("郑石").pk, "--by", "td", stdout=out
    )
    assert "1 pairs moved" in out.getvalue() and PlayerMerge.objects.get().merged_by == director


@pytest.mark.django_db
def test_the_desk_merges_two_players_from_its_page(client, director):
    season = build_season(director)
    en(client).force_login(director)
    kept, typo = season.player("郑十"), season.player("郑石")
    response = client.post(reverse("desk-players"), {"kept": kept.pk, "duplicate": typo.pk})
    assert response.status_code == 302 and not Player.objects.filter(pk=typo.pk).exists()
    assert "郑石 merged into 郑十 (1 pairs moved)" in client.get(reverse("desk-players")).content.decode()
    refused = client.post(reverse("desk-players"), {"kept": kept.pk, "duplicate": season.player("吴九").pk})
    assert refused.status_code == 409 and "play together" in refused.content.decode()


@pytest.mark.django_db
def test_editing_a_pairs_player_to_a_known_name_points_to_that_player(director, tournament, make_pair):
    pair = make_pair()
    other = make_pair(t=Tournament.objects.create(name="冬季赛", slug="winter"))
    lone = pair.player1
    save_pair(tournament, PairEntry(pair.name, other.player1.name, pair.player2.name), pair)
    pair.refresh_from_db()
    assert pair.player1 == other.player1 and not Player.objects.filter(pk=lone.pk).exists()
    save_pair(tournament, PairEntry(pair.name, "改名", pair.player2.name), pair)
    pair.refresh_from_db()
    assert pair.player1.name == "改名" and other.player1.name != "改名"


@pytest.mark.django_db
def test_one_person_plays_in_one_pair_of_a_tournament(tournament, make_pair):
    pair = make_pair()
    with pytest.raises(PeopleError, match=f"{pair.player1.name} already plays in {pair.name}"):
        save_pair(tournament, PairEntry("新队", "新人", f" {pair.player1.name} "))
    rows = [
        ["pair", "player1", "player2", "club"],
        ["新队", "新人", pair.player2.name, ""],
        ["又一队", "新人", "某人", ""],
    ]
    problems = [p.message for p in parse(tournament, "pairs.xlsx", xlsx_bytes(rows)).problems]
    assert problems == [f"Already plays in {pair.name}.", "Already plays in row 2."]


@pytest.mark.django_db
def test_the_series_page_lists_both_tables_and_links_each_tournament(client, director):
    season = build_season(director)
    merged(season, director)
    page = en(client).get(reverse("series", args=[season.series.slug])).content.decode()
    assert "Each one's best 2 results count." in page and "25-18-15-12" in page
    assert (
        page.count('<td class="not-counted" title="not counted">') == 8 + 2
    )  # every player's third result, two pairs' third
    assert (
        reverse("tournament", args=["m1"]) in page
        and reverse("player", args=[season.player("张三").pk]) in page
    )
    overview = client.get(reverse("tournament", args=["m2"])).content.decode()
    assert reverse("series", args=[season.series.slug]) in overview


@pytest.mark.django_db
def test_a_hidden_series_is_the_directors_only(client, director):
    season = build_season(director, public=False)
    url = reverse("series", args=[season.series.slug])
    assert client.get(url).status_code == 404
    client.force_login(director)
    assert client.get(url).status_code == 200


@pytest.mark.django_db
def test_the_series_workbook_has_a_sheet_of_players_and_one_of_pairs(client, director):
    season = build_season(director)
    merged(season, director)
    en(client).force_login(director)
    response = client.get(reverse("desk-series-workbook", args=[season.series.slug]))
    assert "filename*=UTF-8''%E6%98%A5%E5%AD%A3%E8%81%94%E8%B5%9B-" in response["Content-Disposition"]
    wb = openpyxl.load_workbook(io.BytesIO(response.content))
    assert wb.sheetnames == ["Players", "Pairs"]
    players = list(wb["Players"].iter_rows(values_only=True))
    assert players[0] == ("rank", "player", "rating", "一月赛", "二月赛", "三月赛", "total")
    zhang = next(r for r in players if r[1] == "张三")
    assert zhang[3:] == (25, 18, 25, 50) and wb["Players"].cell(players.index(zhang) + 1, 5).font.i
    assert len(list(wb["Pairs"].iter_rows())) == 7


@pytest.mark.django_db
def test_the_director_creates_a_series_with_a_pinyin_address_and_attaches_tournaments(client, director):
    season = build_season(director)
    client.force_login(director)
    data = {"name": "秋季联赛", "points": "10 6 3", "best_of": "", "is_public": "on"}
    response = client.post(
        reverse("desk-series-new"), data | {"tournaments": [t.pk for t in season.tournaments[:2]]}
    )
    assert response.status_code == 302 and response["Location"] == reverse("series", args=["qiu-ji-lian-sai"])
    autumn = season.series.__class__.objects.get(slug="qiu-ji-lian-sai")
    assert (autumn.points, autumn.best_of, autumn.tournaments.count()) == ([10, 6, 3], None, 2)
    before = autumn.history.count()
    bad = client.post(reverse("desk-series-edit", args=[autumn.slug]), data | {"points": "10 x -1"})
    assert bad.status_code == 200 and autumn.history.count() == before


@pytest.mark.django_db
@pytest.mark.parametrize("bad", [str(2**63), str(10**30)])
def test_a_series_given_a_tournament_id_past_64_bits_is_a_form_error(client, director, tournament, bad):
    """The series' tournaments are a list of ids Django asks the database about at once: one past 64 bits was an
    OverflowError in SQLite's driver (a 500)."""
    client.force_login(director)
    data = {"name": "秋季联赛", "points": "10 6 3", "best_of": "", "tournaments": [str(tournament.pk), bad]}
    response = en(client).post(reverse("desk-series-new"), data)
    assert response.status_code == 200 and "is not one of the available choices" in response.content.decode()
    assert not Series.objects.exists()


@pytest.mark.django_db
def test_a_merged_players_rating_replays_the_duplicates_matches_too(director):
    season = build_season(director)
    kept = season.player("郑十")
    assert len(ratings.current().history[kept.pk]) == 6
    merged(season, director)
    assert len(ratings.current().history[kept.pk]) == 9


@pytest.mark.django_db
def test_the_merge_command_names_a_player_it_cannot_find(director):
    season = build_season(director)
    with pytest.raises(CommandError, match="no player number 987654"):
        call_command("merge_players", season.player("郑十").pk, 987654)
