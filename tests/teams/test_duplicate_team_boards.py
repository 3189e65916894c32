"""A duplicate-teams event's hand records (issue 40 item 7): the public board page, the boards API and the
workbook's Boards and Travellers sheets, on a 4-team event (two team matches of two tables) whose round 1 is
played board by board. A team board's traveller lists each team match's two tables with the pairs' teams and the
board's scale points in the match (RULES §14.5), worked out here from the played records; nothing of a board is
shown before all four tables have played it, and the seed only once the session is over."""

from __future__ import annotations

import io
import json
import re

import pytest
from django.test import Client
from django.utils import translation
from openpyxl import load_workbook

from referee.table.recording import records
from rules.boards import deal_board
from rules.simulate import simulate_from_hands
from tests.table.board_scene import SEED
from tests.teams.test_duplicate_teams import by_the_scale, four_teams, ns_score
from tournaments.competition.accounts import create_director
from tournaments.duplicate.display import hand_lines
from tournaments.models import DuplicateEvent, Tournament
from tournaments.workbook.export import write_workbook

pytestmark = pytest.mark.django_db
ZH = {"accept-language": "zh-hans"}
ENGLISH = ("Traveller", "Board", "scale points", "North", "banker", "team match", "result", "NS score")


class Event:
    """The 4-team event with its seed, and a way to play a board at one of its four tables."""

    def __init__(self) -> None:
        self.tournament, self.fixtures = four_teams()
        DuplicateEvent.objects.filter(tournament=self.tournament).update(seed=SEED)
        self.director = create_director("boards-td", "boards-director-1")
        self.played: dict[tuple[int, int, int], dict] = {}

    def play(self, fixture: int, table: int, board: int) -> None:
        """Board ``board`` at the fixture's table ``table`` (1 or 2), simulated from its hands and confirmed."""
        tm = self.fixtures[fixture - 1]
        match = tm.tables.get(number=table).match
        dealt = deal_board(SEED, board)
        record = simulate_from_hands(
            "standard", dealt.hands, dealt.kitty, banker=dealt.banker, level=dealt.level, trump=dealt.trump,
            seed=100 * fixture + 10 * table + board,
        )  # fmt: skip
        records.record_deal(match, record, self.director)
        self.played[(fixture, table, board)] = record

    def play_all_but(self, board: int, skip: tuple[int, int]) -> None:
        for fixture in (1, 2):
            for table in (1, 2):
                if (fixture, table) != skip:
                    self.play(fixture, table, board)

    def scale(self, fixture: int, board: int) -> int:
        """Team A's (home's) scale points on the board in the match, by §14.5 from the two tables' NS scores."""
        d = ns_score(self.played[(fixture, 1, board)]) - ns_score(self.played[(fixture, 2, board)])
        return by_the_scale(d)


def boards_api(client: Client, slug: str) -> dict:
    response = client.get(f"/api/v1/tournaments/{slug}/boards/")
    assert response.status_code == 200
    return json.loads(response.content)


def sheet_rows(tournament: Tournament, title: str) -> list[tuple]:
    out = io.BytesIO()
    with translation.override("en"):
        write_workbook(tournament, out)
    out.seek(0)
    return list(load_workbook(out)[title].iter_rows(min_row=2, values_only=True))


def test_a_team_board_page_shows_nothing_until_all_four_tables_have_played_it():
    event = Event()
    slug = event.tournament.slug
    event.play_all_but(1, skip=(2, 2))
    page = Client().get(f"/t/{slug}/boards/1/", headers=ZH)
    assert page.status_code == 200
    html = page.content.decode()
    assert 'data-testid="not-complete"' in html and 'data-testid="compass"' not in html
    assert 'data-testid="traveller"' not in html and 'class="seed"' not in html
    for line in hand_lines(event.tournament.boards.get(number=1).hands["N"]):
        assert line not in html
    director = Client()
    director.force_login(event.director)
    assert 'data-testid="compass"' in director.get(f"/t/{slug}/boards/1/", headers=ZH).content.decode()


def test_a_team_board_page_shows_the_hands_and_both_tables_of_every_match_once_played_everywhere():
    event = Event()
    slug = event.tournament.slug
    event.play_all_but(1, skip=())
    html = Client().get(f"/t/{slug}/boards/1/", headers=ZH).content.decode()
    assert 'data-testid="compass"' in html
    board = event.tournament.boards.get(number=1)
    for seat in "NWES":
        for line in hand_lines(board.hands[seat]):
            assert line in html
    traveller = html.split('data-testid="traveller"')[1].split("</table>")[0]
    rows = traveller.split("<tbody>")[1].split("</tr>")[:-1]
    assert len(rows) == 4  # two team matches, two tables each
    for tm in event.fixtures:
        for team in (tm.home, tm.away):
            assert f"({team.name})" in traveller
    first = [c.split(">", 1)[1].split("<")[0] for c in rows[0].split("<td")[1:]]
    s = event.scale(1, 1)
    assert (first[0], first[1], first[2]) == ("1", "1", "1")
    assert (first[-2], first[-1]) == (str(max(s, 0)), str(max(-s, 0)))  # table 1: team A North–South
    assert 'class="seed"' not in html  # board 2 is still to be played: the session is not over
    assert 'href="/t/dupteams/boards/1/"' in Client().get(f"/t/{slug}/boards/", headers=ZH).content.decode()


def test_the_boards_api_lists_a_team_boards_travellers_with_teams_and_scale_points():
    event = Event()
    slug = event.tournament.slug
    event.play_all_but(1, skip=())
    event.play_all_but(2, skip=(1, 2))
    answer = boards_api(Client(), slug)
    assert answer["seed"] is None
    one, two = answer["boards"]
    assert two["hands"] is None and two["traveller"] == []
    assert one["hands"] == dict(event.tournament.boards.get(number=1).hands)
    lines = one["traveller"]
    seats = [(x["round"], x["match"], x["table"]) for x in lines]
    assert seats == [(1, 1, 1), (1, 1, 2), (1, 2, 3), (1, 2, 4)]
    for x in lines:
        tm = event.fixtures[x["match"] - 1]
        s = event.scale(tm.number, 1)
        home_ns = x["table"] % 2 == 1
        assert x["ns_team"]["id"] == (tm.home_id if home_ns else tm.away_id)
        assert x["ew_team"]["id"] == (tm.away_id if home_ns else tm.home_id)
        ns = s if home_ns else -s
        assert (x["ns_scale_points"], x["ew_scale_points"]) == (max(ns, 0), max(-ns, 0))
        assert x["ns_matchpoints"] is None and x["ew_matchpoints"] is None
        table = 1 if home_ns else 2
        assert x["ns_score"] == ns_score(event.played[(tm.number, table, 1)])
    event.play(1, 2, 2)
    assert boards_api(Client(), slug)["seed"] == SEED  # every board complete: the session is over


def test_the_workbook_has_the_boards_and_team_travellers_sheets_of_the_complete_boards_only():
    event = Event()
    event.play_all_but(1, skip=())
    event.play_all_but(2, skip=(2, 1))
    boards = sheet_rows(event.tournament, "Boards")
    assert [(row[0], bool(row[5])) for row in boards] == [(1, True), (2, False)]  # hands of board 1 only
    lines = sheet_rows(event.tournament, "Travellers")
    assert [(row[0], row[1], row[2], row[3]) for row in lines] == [(1, 1, 1, 1), (1, 1, 1, 2), (1, 1, 2, 3),
                                                                    (1, 1, 2, 4)]  # fmt: skip
    for row in lines:
        tm = event.fixtures[row[2] - 1]
        s = event.scale(tm.number, 1)
        ns = s if row[3] % 2 == 1 else -s
        home, away = tm.home.name, tm.away.name
        assert (row[5], row[7]) == ((home, away) if row[3] % 2 == 1 else (away, home))
        assert (row[11], row[12]) == (max(ns, 0), max(-ns, 0))


def test_a_team_board_page_in_chinese_has_no_english():
    event = Event()
    event.play_all_but(1, skip=())
    event.play_all_but(2, skip=())
    html = Client().get(f"/t/{event.tournament.slug}/boards/1/", headers=ZH).content.decode()
    assert 'class="seed"' in html and "级分" in html
    text = re.sub(r"<[^>]+>", " ", html.split("<main", 1)[-1])  # the page's words, not its markup
    for fragment in ENGLISH:
        assert fragment not in text
