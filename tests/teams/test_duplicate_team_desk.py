"""Duplicate teams at the desk (issue 40 item 6, RULES §14.5), as client tests on a 4-team event made by the setup
form: two team matches of two tables a round, the round's boards at all four tables. The director's victory-point
table read on the scale points' margin; a board fouled at one table ruled 0 or 2 to one side (versioned, once);
a board's scale points hidden on the public fixture page, the deal log and the API until every table of the
round has played it; the setup form's event seated at two tables a match.

The event (``four_teams``: made by the setup form, its teams entered and round 1 paired on the desk's pages) is
built once for the module (``event``, rolled back at its end) and read again by each test inside its own
savepoint, so what one test sets or plays is undone before the next."""

from __future__ import annotations

import io
import math
import re
from collections.abc import Iterator

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import translation
from openpyxl import load_workbook

from referee.table.recording.records import record_deal
from rules.boards import deal_board
from rules.judge import judge
from rules.simulate import simulate_from_hands
from tests.databases import module_transaction
from tests.desk.helpers import settings_data
from tests.table.board_scene import SEED, store_boards
from tournaments.adjusted.artificial import give_artificial
from tournaments.calls.rulings import resolve
from tournaments.calls.services import raise_call
from tournaments.competition.accounts import create_director
from tournaments.league.results import results, zone_table
from tournaments.models import (
    ArtificialScore,
    BoardRuling,
    Deal,
    DuplicateEvent,
    Membership,
    Organisation,
    Role,
    TableCall,
    TeamEvent,
    TeamMatch,
    Tournament,
)
from tournaments.teams import services
from tournaments.teams.sheets import team_sheets
from tournaments.workbook.export import write_workbook

pytestmark = pytest.mark.django_db
ZH = {"accept-language": "zh-hans"}
EN = {"accept-language": "en"}
SCALE = ((5, 0), (25, 1), (45, 2), (75, 3), (115, 4), (155, 5), (195, 6))  # RULES §14.5, as written there
VP_TEXT = "0: 10–10\n1: 12-8\n3: 15 - 5\n6: 18–2\n10: 20–0"
VP_ROWS = ((0, 10, 10), (1, 12, 8), (3, 15, 5), (6, 18, 2), (10, 20, 0))


def workbook_rows(tournament: Tournament, title: str) -> list[tuple]:
    out = io.BytesIO()
    with translation.override("en"):
        write_workbook(tournament, out, extra=team_sheets)
    out.seek(0)
    return list(load_workbook(out)[title].iter_rows(values_only=True))


def wbf_whole_vp(margin: int, boards: int) -> int:
    """The default table's winner's VP: the WBF 2013 formula, blitz 5 × √boards, in whole VP (docs/duplicate.md)."""
    tau = (math.sqrt(5) - 1) / 2
    share = 10 + 10 * (1 - tau ** (3 * margin / (5 * math.sqrt(boards)))) / (1 - tau**3)
    return min(20, round(share))


def by_the_scale(d: int) -> int:
    """Team A's scale points on a board, two decks: ``x = |d|``, to the side with the better score."""
    points = next((p for limit, p in SCALE if abs(d) <= limit), 7)
    return points if d > 0 else -points if d < 0 else 0


def by_the_table(home: int, away: int) -> tuple[float, float]:
    """The VP of VP_ROWS for the margin: the row with the largest margin at or below it."""
    _m, win, lose = [row for row in VP_ROWS if row[0] <= abs(home - away)][-1]
    return (win, lose) if home >= away else (lose, win)


DIRECTOR = "dupteams-td"


@pytest.fixture(scope="module")
def event(django_db_setup, django_db_blocker) -> Iterator[tuple[int, list[int]]]:
    """``four_teams`` by the module's director, built once per module (``module_transaction``): the tournament's
    id and its round 1 fixtures' ids; each test runs in its own savepoint."""
    with module_transaction(django_db_blocker):
        tournament, fixtures = four_teams(create_director(DIRECTOR, "dupteams-director-1"))
        yield tournament.pk, [fx.pk for fx in fixtures]


@pytest.fixture
def director(event):
    return get_user_model().objects.get(username=DIRECTOR)


@pytest.fixture
def teams(event) -> tuple[Tournament, list[TeamMatch]]:
    """The module's event and its round 1 fixtures, read again (a test's writes are its own)."""
    tournament, fixtures = event
    by_pk = TeamMatch.objects.in_bulk(fixtures)
    return Tournament.objects.get(pk=tournament), [by_pk[pk] for pk in fixtures]


def desk(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


def made_by_the_setup_form(director) -> Tournament:
    data = settings_data(
        name="复式团体赛", format="duplicate-teams", num_rounds=3, movement="mitchell", boards_per_round=2,
        start_date=None, end_date=None,
    )  # fmt: skip
    response = desk(director).post("/tournaments/new/", data, headers=ZH)
    assert response.status_code == 302, response.content.decode()[-3000:]
    return Tournament.objects.get(name="复式团体赛")


def four_teams(director) -> tuple[Tournament, list[TeamMatch]]:
    """The setup form's event, four teams entered on the desk's teams page, round 1 paired there (a team Swiss),
    both line-ups handed in, the boards dealt from SEED."""
    tournament = made_by_the_setup_form(director)
    client = desk(director)
    for t in range(1, 5):
        pairs = f"甲{t}一/乙{t}一\n甲{t}二/乙{t}二"
        data = {"action": "team", "name": f"队{t}", "club": "", "venue": "", "zone": "", "pairs": pairs}
        assert client.post(f"/t/{tournament.slug}/desk/teams/", data).status_code == 302
    assert client.post(f"/t/{tournament.slug}/desk/teams/", {"action": "swiss"}).status_code == 302
    fixtures = list(
        TeamMatch.objects.filter(round__tournament=tournament, round__number=1).order_by("number")
    )
    for fx in fixtures:
        for team in (fx.home, fx.away):
            services.hand_in_lineup(fx, team, [p.pk for p in services.roster(team)], director)
    store_boards(tournament, 2 * tournament.num_rounds)
    return tournament, fixtures


def play(team_match: TeamMatch, table: int, board: int, director) -> dict:
    """The table plays the board from its hands (the engine's legal plays), recorded and confirmed."""
    dealt = deal_board(SEED, board)
    record = simulate_from_hands(
        "standard", dealt.hands, dealt.kitty, banker=dealt.banker, level=dealt.level, trump=dealt.trump,
        seed=1000 * team_match.number + 10 * table + board,
    )  # fmt: skip
    record_deal(team_match.tables.get(number=table).match, record, director)
    return record


def ns_score(record: dict) -> int:
    """+P when N–S attacked, −P when N–S held the bank (no penalties in these plays)."""
    p = judge(record).attackers_points["total"]
    return p if record["banker"] in ("W", "E") else -p


def play_round(fixtures, director) -> dict[tuple[int, int, int], dict]:
    return {(fx.number, t, b): play(fx, t, b, director) for fx in fixtures for t in (1, 2) for b in (1, 2)}


def test_the_setup_form_makes_a_duplicate_teams_event_whose_first_round_has_two_table_matches(
    teams, director
):
    tournament, fixtures = teams
    assert tournament.format == Tournament.Format.DUPLICATE_TEAMS
    assert (tournament.team_event.tables, tournament.team_event.kind) == (2, TeamEvent.Kind.SWISS)
    assert DuplicateEvent.objects.get(tournament=tournament).boards_per_round == 2
    assert len(fixtures) == 2
    for fx in fixtures:
        tables = list(fx.tables.select_related("match").order_by("number"))
        assert [t.number for t in tables] == [1, 2]
        home = {p.pk for p in services.roster(fx.home)}
        assert tables[0].match.pair_ns_id in home and tables[1].match.pair_ew_id in home  # team A NS, then EW
    page = desk(director).get(f"/t/{tournament.slug}/fixtures/{fixtures[0].pk}/", headers=ZH)
    assert page.status_code == 200 and page.content.decode().count('data-testid="team-board"') == 2
    shown = page.content.decode()
    assert shown.count('data-testid="ruling-form"') == 2  # the director may rule a board not yet played
    settings = desk(director).get(f"/t/{tournament.slug}/desk/teams/", headers=ZH).content.decode()
    words = re.sub(r"<[^>]*>", " ", shown + settings)  # the text a reader sees, without tags
    for english in ("scale points", "victory", "ruling", "Rule", "home team", "margin", "NS score", "VP"):
        assert english not in words  # Chinese pages, no English fragment
    boards = desk(director).get(f"/t/{tournament.slug}/desk/boards/", headers=ZH).content.decode()
    for fx in fixtures:  # each table of the round leads to its team match's rulings
        assert boards.count(f'href="/t/{tournament.slug}/fixtures/{fx.pk}/"') == 2


def test_the_setup_form_offers_duplicate_teams_with_its_boards_a_round(director):
    page = desk(director).get("/tournaments/new/", headers=ZH).content.decode()
    assert 'value="duplicate-teams"' in page and 'name="boards_per_round"' in page


def test_a_victory_point_table_the_director_sets_scores_each_match_on_its_scale_points_margin(
    teams, director
):
    tournament, fixtures = teams
    form = {
        "action": "settings", "kind": "swiss", "scoring": "victory_points", "victory_table": VP_TEXT,
        "first_deal_at": "19:00", "lineups_due_at": "",
    }  # fmt: skip
    response = desk(director).post(f"/t/{tournament.slug}/desk/teams/", form, headers=ZH)
    assert response.status_code == 302, response.content.decode()[-2000:]
    assert TeamEvent.objects.get(tournament=tournament).victory_table == [
        [m, 100 * w, 100 * lo] for m, w, lo in VP_ROWS
    ]
    played = play_round(fixtures, director)
    found = results(tournament)
    standing = {line.team.pk: line.score for line in zone_table(tournament, None)}
    api = Client().get(f"/api/v1/tournaments/{tournament.slug}/teams/").json()
    by_fixture = {f["id"]: f for f in api["fixtures"]}
    sheet = {(r[0], r[1]): r for r in workbook_rows(tournament, "Team matches")[1:]}
    for fx in fixtures:
        swings = [
            by_the_scale(ns_score(played[(fx.number, 1, b)]) - ns_score(played[(fx.number, 2, b)]))
            for b in (1, 2)
        ]
        home, away = sum(s for s in swings if s > 0), -sum(s for s in swings if s < 0)
        vp_home, vp_away = by_the_table(home, away)
        result = found[fx.pk]
        assert (result.home_score, result.away_score) == (100 * vp_home, 100 * vp_away)
        assert (result.table_points_home, result.table_points_away) == (home, away)
        assert (standing[fx.home_id], standing[fx.away_id]) == (100 * vp_home, 100 * vp_away)
        assert (by_fixture[fx.pk]["home_score"], by_fixture[fx.pk]["away_score"]) == (vp_home, vp_away)
        row = sheet[
            (1, fx.number)
        ]  # home score, away score, winner, home and away table points: scale points
        assert (row[6], row[7], row[9], row[10]) == (vp_home, vp_away, home, away)
        page = Client().get(f"/t/{tournament.slug}/fixtures/{fx.pk}/", headers=ZH).content.decode()
        assert f"{vp_home:.2f} : {vp_away:.2f}" in page


def test_a_victory_point_table_that_does_not_read_one_way_is_refused_in_a_sentence(teams, director):
    tournament, _fixtures = teams
    form = {"action": "settings", "kind": "swiss", "scoring": "victory_points", "first_deal_at": "19:00"}
    for text in ("0: 10–10\n3: 12–8\n2: 15–5", "1: 12–8", "0: 10–10\n2: 8–12", "零: 10–10"):
        page = desk(director).post(
            f"/t/{tournament.slug}/desk/teams/", {**form, "victory_table": text}, headers=ZH
        )
        assert page.status_code == 200 and 'class="errorlist' in page.content.decode()
    assert TeamEvent.objects.get(tournament=tournament).victory_table == []


def test_the_default_victory_table_is_shown_filled_in_for_the_boards_a_round(teams, director):
    tournament, _fixtures = teams
    page = desk(director).get(f"/t/{tournament.slug}/desk/teams/", headers=ZH).content.decode()
    assert "0: 10–10" in page and "7: 20–0" in page  # two boards a match: all 20 from a margin of 7


def rule(client, tournament, fixture, board, award, version):
    url = f"/t/{tournament.slug}/desk/fixtures/{fixture.pk}/boards/{board}/ruling/"
    return client.post(url, {"award": award, "version": version, "note": "牌不对"}, headers=ZH)


def test_a_board_fouled_at_one_table_scores_as_the_director_rules_it_0_or_2_to_one_side(teams, director):
    tournament, fixtures = teams
    fx = fixtures[0]
    board1 = tournament.boards.get(number=1)
    table1 = fx.tables.get(
        number=1
    ).match  # the table finds board 1 fouled and calls the referee (RULES §14.6)
    call = raise_call(table1, director, reason=TableCall.Reason.FOULED)
    assert call.board == board1
    resolve(call, director, ruling="牌不是这副牌的", action=TableCall.Action.FOULED)
    assert ArtificialScore.objects.get(match=table1, board=board1).fouled
    played = {(t, b): play(fx, t, b, director) for t, b in ((2, 1), (1, 2), (2, 2))}
    play_round(fixtures[1:], director)
    two = by_the_scale(ns_score(played[(1, 2)]) - ns_score(played[(2, 2)]))
    client = desk(director)

    def sums():
        res = results(tournament)[fx.pk]
        return res.table_points_home, res.table_points_away

    base = (max(two, 0), max(-two, 0))
    assert sums() == base  # no ruling yet: board 1 scores 0
    assert rule(client, tournament, fx, 1, "home", 0).status_code == 302
    assert sums() == (base[0] + 2, base[1])
    fixture_page = f"/t/{tournament.slug}/fixtures/{fx.pk}/"
    assert f"{fx.home.name}得2级分" in Client().get(fixture_page, headers=ZH).content.decode()
    assert rule(client, tournament, fx, 1, "home", 0).status_code == 302  # the same post again: taken once
    assert BoardRuling.objects.get(team_match=fx).version == 1
    stale = rule(client, tournament, fx, 1, "away", 0)  # from a page read before the first ruling
    assert sums() == (base[0] + 2, base[1])
    assert "牌的裁定" in client.get(stale.url, headers=ZH).content.decode()  # the refusal, one sentence
    assert rule(client, tournament, fx, 1, "none", 1).status_code == 302
    assert sums() == base and BoardRuling.objects.get(team_match=fx).version == 2
    assert rule(client, tournament, fx, 1, "away", 2).status_code == 302
    assert sums() == (base[0], base[1] + 2)
    page = Client().get(fixture_page, headers=ZH).content.decode()  # the public's copy is not kept stale
    assert (
        f"{fx.away.name}得2级分" in page and f"{fx.home.name}得2级分" not in page
    )  # the ruling on the public page, once board 1 is out


def test_a_board_with_a_result_at_both_tables_is_not_ruled(teams, director):
    tournament, fixtures = teams
    play_round(fixtures, director)
    before = results(tournament)[fixtures[0].pk]
    page = rule(desk(director), tournament, fixtures[0], 1, "home", 0)
    assert page.status_code == 302 and not BoardRuling.objects.exists()
    assert results(tournament)[fixtures[0].pk] == before


MAY_RULE = {  # who rules a board of the organisation's duplicate team match, as every desk write of it
    "anonymous": False,
    "judge": False,
    "own scorer": False,
    "own director": True,
    "own admin": True,
    "other organisation's admin": False,
}


def member(organisation, role: str, name: str):
    user = get_user_model().objects.create_user(name, password="member-pass-1")
    Membership.objects.create(organisation=organisation, user=user, role=role)
    return user


@pytest.mark.parametrize("who", list(MAY_RULE))
def test_a_board_is_ruled_by_the_directors_of_the_tournaments_organisation_alone(
    teams, director, make_judge, who
):
    tournament, fixtures = teams
    own = Organisation.objects.create(name="俱乐部甲", slug="club-own")
    other = Organisation.objects.create(name="俱乐部乙", slug="club-other")
    Tournament.objects.filter(pk=tournament.pk).update(organisation=own)
    fx = fixtures[0]
    give_artificial(fx.tables.get(number=1).match, tournament.boards.get(number=1), director,
                    ns_fault="none", ew_fault="none", fouled=True)  # fmt: skip
    users = {
        "judge": lambda: make_judge("dt-judge"),
        "own scorer": lambda: member(own, Role.SCORER, "own-scorer"),
        "own director": lambda: member(own, Role.DIRECTOR, "own-director"),
        "own admin": lambda: member(own, Role.ADMIN, "own-admin"),
        "other organisation's admin": lambda: member(other, Role.ADMIN, "other-admin"),
    }
    client = desk(users[who]()) if who in users else Client()
    response = rule(client, tournament, fx, 1, "home", 0)
    assert response.status_code in ((302,) if MAY_RULE[who] else (302, 403, 404))
    assert BoardRuling.objects.filter(award="home").exists() == MAY_RULE[who]


def test_a_board_and_its_scale_points_are_hidden_until_every_table_of_the_round_has_played_it(
    teams, director
):
    tournament, fixtures = teams
    fx, other = fixtures
    play(fx, 1, 1, director)
    table1 = fx.tables.get(number=1).match
    deal = Deal.objects.get(match=table1, board__number=1)
    public = Client()

    def public_sees_board_1() -> tuple[bool, bool, bool]:
        """(the fixture page's row of board 1, the API's deal, the deal log's deal)."""
        page = public.get(f"/t/{tournament.slug}/fixtures/{fx.pk}/", headers=ZH).content.decode()
        api = public.get(f"/api/v1/tournaments/{tournament.slug}/matches/{table1.pk}/").json()
        log = public.get(f"/t/{tournament.slug}/matches/{table1.pk}/deals/", headers=ZH).content.decode()
        return (
            page.count('data-testid="board-hidden"') < 2,
            [d["number"] for d in api["deals"]] == [deal.number],
            f"<td>{deal.number}</td>" in log,
        )

    assert public_sees_board_1() == (False, False, False)  # the other table of the match has not played it
    play(fx, 2, 1, director)
    assert public_sees_board_1() == (False, False, False)  # the other match of the round has not
    director_page = desk(director).get(f"/t/{tournament.slug}/fixtures/{fx.pk}/", headers=ZH).content.decode()
    assert 'data-testid="team-scale-total"' in director_page  # the director sees it at once
    play(other, 1, 1, director)
    play(other, 2, 1, director)
    assert public_sees_board_1() == (True, True, True)
    page = public.get(f"/t/{tournament.slug}/fixtures/{fx.pk}/", headers=ZH).content.decode()
    assert page.count('data-testid="board-hidden"') == 1  # board 2 still waits
    assert 'data-testid="team-scale-total"' not in page

    def public_result() -> tuple[bool, object]:
        page = public.get(f"/t/{tournament.slug}/fixtures/{fx.pk}/", headers=ZH).content.decode()
        api = public.get(f"/api/v1/tournaments/{tournament.slug}/teams/").json()
        line = next(f for f in api["fixtures"] if f["id"] == fx.pk)
        return 'data-testid="team-result"' in page, line["home_score"]

    play(fx, 1, 2, director)
    play(fx, 2, 2, director)  # the match is over at both its tables …
    assert public_result() == (False, None)  # … but board 2 is still to be played in the other match
    play(other, 1, 2, director)
    play(other, 2, 2, director)
    shown, score = public_result()
    assert shown and score == results(tournament)[fx.pk].home_score


def test_victory_points_with_the_table_left_empty_read_the_default_20_vp_table(teams, director):
    tournament, fixtures = teams
    form = {
        "action": "settings", "kind": "swiss", "scoring": "victory_points", "victory_table": "",
        "first_deal_at": "19:00", "lineups_due_at": "",
    }  # fmt: skip
    assert desk(director).post(f"/t/{tournament.slug}/desk/teams/", form).status_code == 302
    assert TeamEvent.objects.get(tournament=tournament).victory_table == []
    play_round(fixtures, director)
    found = results(tournament)
    for fx in fixtures:
        res = found[fx.pk]
        margin = abs(res.table_points_home - res.table_points_away)
        win = wbf_whole_vp(margin, boards=2)
        expected = (win, 20 - win) if res.table_points_home >= res.table_points_away else (20 - win, win)
        assert (res.home_score, res.away_score) == (100 * expected[0], 100 * expected[1])
        assert res.home_score + res.away_score == 2000
