"""The desk's people pages on a phone (390×844, in Chinese): the pairs, the judges, a round's table judges and the
directors lay their tables out as cards (a phone-width rule of static/css/people.css: the head hidden, each row a
block), and no page reaches past the phone's width, with long names, a captain's account, a judge at a table, a
second director and a withdrawn pair on them. Pictures only with SCREENSHOTS=1 (``shots``).

What the director does on these pages is server-drawn forms, walked by Django's client: adding a pair late and
the page's note (tests/desk/test_people.py, ``test_the_add_page_says_when_a_late_entry_plays``), the captain's
account and its password shown once (tests/desk/test_accounts.py), a judge's password shown once and its log-in,
the judge put at a table and kept in the history, a second director's password shown once and a director's own
password changed (tests/desk/test_accounts.py), withdrawing a pair and recording its forfeit back on the
withdraw page (tests/desk/test_people.py), deleting a pair never paired and the paired pair's page saying why
not (tests/desk/test_pair_delete.py). The director's day in the browser (test_directors_day) creates judges,
seats one and withdraws a pair with its forfeit too."""

from __future__ import annotations

import pytest

from tests.browser import shots
from tests.browser.helpers import sign_in
from tests.desk.helpers import enter_pairs
from tournaments.checkin.forfeits import publish_round
from tournaments.competition.accounts import create_director
from tournaments.models import Match, Pair, Tournament
from tournaments.pairing.services import pair_round
from tournaments.people.accounts import (
    assign_judge,
    create_director_account,
    create_judge,
    give_captain_account,
)

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 390, "height": 844}
SHOTS = shots.folder("people")
CARDS = """() => Array.from(document.querySelectorAll("table.people"), (table) => ({
    head: table.tHead ? getComputedStyle(table.tHead).display : "none",
    rows: Array.from(table.tBodies[0] ? table.tBodies[0].rows : [], (row) => getComputedStyle(row).display),
}))"""


def spring_with_round_one() -> Match:
    """Four pairs (one with a long name), round 1 published: two matches not started."""
    t = Tournament.objects.create(name="春季赛", slug="spring", num_rounds=3)
    enter_pairs(t, ["东风队", "长城队", "黄河队", "上海浦东新区桥牌升级俱乐部梅花队"])
    rnd = pair_round(t)
    publish_round(rnd)
    return rnd.matches.get(table=1)


def test_the_people_pages_lay_their_rows_out_as_cards_and_fit_a_phones_width(page, live_server):
    director = create_director("td", "director-pass-1")
    table1 = spring_with_round_one()
    t = table1.round.tournament
    give_captain_account(table1.pair_ns, "xu", "徐海涛", by=director)
    judge, _password = create_judge("li", "李裁判")
    assign_judge(table1, judge, director)
    create_director_account("wang", "王主任", tournament=t)
    Pair.objects.filter(pk=table1.pair_ew_id).update(withdrawn=True)
    page.set_viewport_size(PHONE)
    sign_in(page.context, live_server, "td")

    for name, path in [
        ("pairs", "/t/spring/desk/pairs/"),
        ("pair", f"/t/spring/desk/pairs/{table1.pair_ns_id}/"),
        ("judges", "/t/spring/desk/judges/"),
        ("table-judges", "/t/spring/desk/judges/rounds/1/"),
        ("directors", "/t/spring/desk/directors/"),
    ]:
        answer = page.goto_path(path)
        assert answer is not None and answer.status == 200, f"{name}: {answer and answer.status}"
        shots.save(page, SHOTS / f"phone-{name}.png", full_page=True)
        tables = page.evaluate(CARDS)
        over = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert over <= 0, f"{name} reaches {over} px past the phone's width"
        assert name == "pair" or tables, f"{name}: no people table"
        for table in tables:
            assert table["head"] == "none" and table["rows"], f"{name}: {table}"
            assert set(table["rows"]) == {"block"}, f"{name}: rows not cards: {table}"
