"""The desk in a real browser: the TD imports a CSV, pairs round 1, publishes it and sees the standings, then, the
round played, finishes the tournament on a tablet and the public standings are final; a round published by
mistake goes back to draft, and a bye is given other points, on a phone in Chinese."""

from __future__ import annotations

import pytest

from referee.table.simulation import simulate_round
from tests.browser.helpers import expect, sign_in
from tournaments.checkin.forfeits import publish_round
from tournaments.competition.accounts import create_director
from tournaments.models import Pair, Player, Round, Tournament
from tournaments.pairing.services import pair_round

pytestmark = pytest.mark.django_db(transaction=True)

PAIRS_CSV = "\n".join(
    [
        "队名,选手1,选手2,俱乐部",
        "东风队,王建国,李秀英,朝阳棋牌俱乐部",
        "长城队,张伟,刘芳,朝阳棋牌俱乐部",
        "黄河队,陈志强,杨丽,海淀老年活动中心",
        "梅花队,赵国庆,黄桂兰,海淀老年活动中心",
        "拖拉机队,周明,吴静,西城桥牌升级协会",
        "红桃队,徐海涛,孙玉梅,西城桥牌升级协会",
    ]
).encode("utf-8")


SHORT = {"preset": "standard", "target_level": "4"}


def english(page, live_server):
    page.context.add_cookies([{"name": "django_language", "value": "en", "url": live_server.url}])


def test_td_imports_pairs_publishes_round_one_sees_standings_and_finishes_the_tournament(
    page, live_server, screenshot
):
    director = create_director("td", "director-pass-1")
    # Matches to 4, not A: the simulator plays the round in a few deals a table, not dozens (what is checked is
    # the desk's import, publishing, standings and finish, not the length of a match).
    Tournament.objects.create(name="春季赛", slug="spring", num_rounds=3, ruleset=SHORT)
    english(page, live_server)
    sign_in(page.context, live_server, "td")  # by session cookie: the form is the log-in page's tests'

    page.goto_path("/t/spring/desk/")
    page.get_by_role("link", name="Import pairs").click()
    page.set_input_files(
        "input[name=file]", files=[{"name": "pairs.csv", "mimeType": "text/csv", "buffer": PAIRS_CSV}]
    )
    page.get_by_role("button", name="Preview").click()
    expect(page.locator("table.preview tbody tr")).to_have_count(6)
    screenshot(page, "import-preview")
    page.get_by_role("button", name="Import 6 pairs").click()
    page.wait_for_url("**/t/spring/desk/")
    expect(page.get_by_text("6 pairs imported.")).to_be_visible()

    page.get_by_role("button", name="Pair round 1").click()
    page.wait_for_url("**/desk/rounds/1/")
    expect(page.locator("table.pairing tbody tr")).to_have_count(3)
    screenshot(page, "round-draft")
    page.get_by_role("button", name="Publish the round").click()
    page.wait_for_url("**/t/spring/desk/")
    assert Round.objects.get(tournament__slug="spring", number=1).state == Round.State.PUBLISHED

    page.goto_path("/t/spring/rounds/1/")
    expect(page.locator("table.pairing tbody tr")).to_have_count(3)
    screenshot(page, "pairing-list")
    page.goto_path("/t/spring/standings/")
    expect(page.get_by_role("heading", name="Standings")).to_be_visible()
    expect(page.locator("table.standings tbody tr")).to_have_count(6)
    expect(page.get_by_role("link", name="东风队")).to_be_visible()
    screenshot(page, "standings")
    page.set_viewport_size({"width": 390, "height": 800})
    screenshot(page, "standings-phone")

    # The round is played (the simulator, through the recording service); the TD finishes on a tablet.
    page.set_viewport_size({"width": 1024, "height": 768})
    tournament = Tournament.objects.get(slug="spring")
    simulate_round(tournament, 1, director)
    page.goto_path("/t/spring/desk/")
    page.get_by_role("link", name="Finish the tournament").click()
    expect(page.get_by_role("heading", name="Finish 春季赛?")).to_be_visible()
    screenshot(page, "finish-confirm")
    page.get_by_role("button", name="Finish the tournament").click()
    page.wait_for_url("**/t/spring/desk/")
    expect(page.get_by_test_id("finished")).to_contain_text("by td: the results are final.")
    expect(page.get_by_role("link", name="Reopen")).to_be_visible()
    expect(page.get_by_role("button", name="Pair round 2")).to_have_count(0)
    screenshot(page, "desk-finished")
    assert Tournament.objects.get(slug="spring").finished_by == director

    page.goto_path("/t/spring/standings/")
    expect(page.get_by_role("heading", name="Final standings")).to_be_visible()
    expect(page.get_by_test_id("final")).to_contain_text("the results are final")
    screenshot(page, "standings-final")
    page.context.add_cookies([{"name": "django_language", "value": "zh-hans", "url": live_server.url}])
    page.goto_path("/t/spring/standings/")
    expect(page.get_by_role("heading", name="最终排名")).to_be_visible()
    expect(page.locator("table.standings tbody tr")).to_have_count(6)
    screenshot(page, "standings-final-zh")


def test_public_standings_in_chinese_refresh_themselves(page, live_server, screenshot):
    t = Tournament.objects.create(name="春季赛", slug="spring")
    from tournaments.models import Pair, Player

    Pair.objects.create(
        tournament=t,
        name="东风队",
        player1=Player.objects.create(name="甲"),
        player2=Player.objects.create(name="乙"),
    )
    page.clock.install()
    page.goto_path("/t/spring/standings/")
    assert page.locator("html").get_attribute("lang") == "zh-hans"
    Pair.objects.create(
        tournament=t,
        name="长城队",
        player1=Player.objects.create(name="丙"),
        player2=Player.objects.create(name="丁"),
    )
    expect(page.locator("table.standings tbody tr")).to_have_count(1)
    with page.expect_response(lambda r: "/standings/" in r.url and r.request.headers.get("x-live") == "1"):
        page.clock.run_for(31_000)
    page.locator("table.standings tbody tr").nth(1).wait_for()
    expect(page.locator("table.standings").get_by_text("长城队")).to_be_visible()
    screenshot(page, "standings-zh")


def test_td_takes_a_round_back_to_draft_and_gives_a_bye_other_points_on_a_phone(
    page, live_server, screenshot
):
    page.set_viewport_size({"width": 390, "height": 844})
    create_director("td", "director-pass-1")
    t = Tournament.objects.create(name="春季赛", slug="spring", num_rounds=3)
    for n, name in enumerate(["东风队", "长城队", "黄河队", "梅花队", "红桃队"], start=1):
        players = [Player.objects.create(name=f"{name}{x}") for x in "甲乙"]
        Pair.objects.create(tournament=t, name=name, player1=players[0], player2=players[1], seed=n)
    publish_round(pair_round(t))
    sign_in(page.context, live_server, "td")  # by session cookie: the form is the log-in page's tests'

    page.goto_path("/t/spring/desk/rounds/1/")
    bye = page.locator("section", has_text="轮空的比赛积分")
    bye.locator("input[name=points]").fill("1")
    screenshot(page, "round-published-phone")
    bye.get_by_role("button", name="保存").click()
    expect(page.get_by_text("红桃队 的轮空计 1 个比赛积分。")).to_be_visible()
    assert t.rounds.get().byes.get().points == 1

    page.get_by_role("button", name="退回草稿").click()
    page.wait_for_url("**/desk/rounds/1/")
    expect(page.get_by_text("第 1 轮已退回草稿：修改后再发布。")).to_be_visible()
    expect(page.get_by_role("button", name="发布本轮")).to_be_visible()
    screenshot(page, "round-back-to-draft-phone")
