"""The projector screen at 1920x1080 and 1280x720 in both languages (one panel at a time, nothing cut off, large
type), its refresh that keeps the last good data when the server is out of reach, and the pictures on a phone."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest

from tests.browser import shots
from tests.browser.helpers import expect
from tests.desk.helpers import deal, enter_pairs, play
from tests.public.helpers import play_deals
from tournaments.models import Deal, Match, Round, Tournament

pytestmark = pytest.mark.django_db(transaction=True)
SHOTS = shots.folder("screen")
NAMES = [
    "东风队",
    "西风队",
    "南山俱乐部",
    "北海老友",
    "长城一队",
    "长城二队",
    "黄河之滨升级协会",
    "安徽合肥队",
    "浦东新区桥牌升级联队",
    "白云",
    "翠湖",
    "丹桂",
    "鄂尔多斯",
    "福州",
    "赣江",
    "海淀",
    "金陵",
    "昆仑",
    "龙华",
    "闽江",
    "宁波",
    "青岛",
    "日照",
    "苏州",
]
SIZES = [(1920, 1080), (1280, 720)]
EVENING = datetime(2026, 4, 18, 19, 0, tzinfo=UTC)


def evening(director) -> Tournament:
    """24 pairs; round 1 finished; round 2 under way (4 of 12 tables finished, one deal waiting); a message."""
    t = Tournament.objects.create(
        name="2026 春季升级公开赛",
        slug="spring-open",
        ruleset={"preset": "standard"},
        screen_message="第 3 轮 15:30 开始 · 请各桌裁判提交本轮牌局",
    )
    pairs = enter_pairs(t, NAMES)
    r1 = Round.objects.create(tournament=t, number=1, state=Round.State.FINISHED)
    for k in range(12):
        play(r1, k + 1, pairs[2 * k], pairs[2 * k + 1], pairs[2 * k] if k % 3 else None, "A", "7")
    r2 = Round.objects.create(tournament=t, number=2, state=Round.State.PUBLISHED)
    for k in range(12):
        m = Match.objects.create(round=r2, table=k + 1, pair_ns=pairs[k], pair_ew=pairs[23 - k])
        if k < 4:
            m.state, m.winner, m.level_ns, m.level_ew, m.ended_by = (
                Match.State.FINISHED,
                m.pair_ew,
                "9",
                "A",
                "target",
            )
            m.save()
        elif k == 4:
            m.state = Match.State.IN_PROGRESS
            m.save()
            deal(m, 1, "N", 40, "banker_holds", state=Deal.State.SUBMITTED)
    return t


def quick(page, live_server, cycle: int = 1, refresh: int = 1) -> None:
    """Cycle and refresh every ``cycle``/``refresh`` seconds instead of 12 and 15 (the page's own settings)."""

    def faster(route):
        response = route.fetch()
        body = response.text().replace(
            'data-refresh="15" data-cycle="12"', f'data-refresh="{refresh}" data-cycle="{cycle}"'
        )
        route.fulfill(response=response, body=body)

    page.route(re.compile(r".*/screen/$"), faster)


def readable(page, width: int, height: int) -> None:
    """The panel on show fits the screen (nothing below its bottom edge) and its type is large."""
    active = page.locator(".panel.active")
    expect(active).to_have_count(1)
    box = active.bounding_box()
    assert box["y"] + box["height"] <= height + 1
    assert page.evaluate("document.documentElement.scrollHeight") <= height + 1
    size = float(active.evaluate("e => getComputedStyle(e).fontSize").removesuffix("px"))
    assert size >= width / 50, size  # 38 px on 1920, 25 px on 1280: read from 5 m


def held_clock(page) -> None:
    """Playwright's clock, held still: the page's timers fire only when the test moves it on (``run_for``)."""
    page.clock.install(time=EVENING)
    page.clock.pause_at(EVENING + timedelta(minutes=1))


def test_the_screen_shows_one_readable_panel_at_a_time_in_both_languages(page, live_server, director):
    """At each size in each language: the panels take turns every 12 seconds (on Playwright's clock: no second
    is waited), one on show at a time, each fitting the screen in large type."""
    t = evening(director)
    quick(page, live_server, cycle=12, refresh=600)  # no fetch swaps the panels while one is measured
    held_clock(page)
    for language in ("zh-hans", "en"):
        page.context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
        for width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            page.goto_path(f"/t/{t.slug}/screen/")
            expect(page.get_by_test_id("screen-message")).to_contain_text("15:30")
            for key in ("seating-1", "progress", "standings-1", "standings-2"):
                panel = page.locator(f".panel[data-key='{key}']")
                expect(panel).to_have_class(re.compile(r"\bactive\b"))
                readable(page, width, height)
                shots.save(page, SHOTS / f"screen-{width}x{height}-{language}-{key}.png")
                page.clock.run_for(12_000)
            seats = page.locator(".panel[data-key='seating-1'] .seat-row")
            expect(seats).to_have_count(24)
            first = "安徽合肥队"
            expect(seats.first).to_have_attribute("data-pair", first)
            expect(page.locator("[data-testid='tables-finished']")).to_have_text("4 / 12")
    expect(page.locator("html")).to_have_attribute("lang", "en")  # the second language did reach the page


def test_the_screen_refreshes_its_panels_and_keeps_the_last_good_ones_while_the_server_is_out_of_reach(
    page, live_server, director
):
    """The refresh every 15 seconds (the page's own setting) on Playwright's clock; the turns of the panels put
    off (``quick``), so the panel on show stays the first."""
    t = evening(director)
    page.set_viewport_size({"width": 1280, "height": 720})
    quick(page, live_server, cycle=600, refresh=15)
    held_clock(page)
    page.goto_path(f"/t/{t.slug}/screen/")
    say(t, "颁奖典礼 17:00 在大厅")
    page.clock.run_for(15_000)
    expect(page.get_by_test_id("screen-message")).to_have_text("颁奖典礼 17:00 在大厅")
    expect(page.locator(".panel[data-key='seating-1']")).to_have_class(re.compile(r"\bactive\b"))
    page.route(re.compile(r".*/screen/panels/$"), lambda route: route.abort())
    say(t, "不应出现")
    page.clock.run_for(15_000)
    expect(page.locator("#screen-state")).to_have_text("连接中断：显示最近一次更新")
    expect(page.get_by_test_id("screen-message")).to_have_text("颁奖典礼 17:00 在大厅")
    expect(page.locator(".seat-row")).to_have_count(24)
    shots.save(page, SHOTS / "screen-offline-1280x720.png")
    page.unroute(re.compile(r".*/screen/panels/$"))
    page.clock.run_for(15_000)
    expect(page.locator("#screen-state")).to_have_text("")
    expect(page.get_by_test_id("screen-message")).to_have_text("不应出现")


def say(tournament: Tournament, message: str) -> None:
    """The director's message, saved as the desk saves it (the public pages' cache renews)."""
    tournament.refresh_from_db()
    tournament.screen_message = message
    tournament.save()


def test_without_script_every_panel_shows_one_under_another(browser, live_server, director):
    t = evening(director)
    context = browser.new_context(viewport={"width": 1280, "height": 720}, java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{live_server.url}/t/{t.slug}/screen/")
    for key in ("seating-1", "progress", "standings-1"):
        expect(page.locator(f".panel[data-key='{key}']")).to_be_visible()
    shots.save(page, SHOTS / "screen-no-script-1280x720.png", full_page=True)
    context.close()


def test_a_phone_shows_the_match_levels_chart_and_steps_through_a_deals_replay(
    page, live_server, director, match
):
    page.set_viewport_size({"width": 390, "height": 844})
    play_deals(match, director, 8)
    page.goto_path(f"/match/{match.pk}/")
    chart = page.get_by_test_id("levels-chart")
    expect(chart).to_be_visible()
    assert chart.bounding_box()["width"] <= 390
    shots.save(chart, SHOTS / "levels-chart-390.png")
    shots.save(page, SHOTS / "match-390.png", full_page=True)
    page.locator("tr[data-deal='2']").get_by_role("link", name="回放").click()
    expect(page.locator("#trick-1")).to_be_visible()
    expect(page.locator("#trick-2")).to_be_hidden()
    shots.save(page, SHOTS / "replay-trick-1-390.png")
    page.locator("#trick-1").get_by_role("link", name=re.compile("下一墩")).click()
    expect(page.locator("#trick-2")).to_be_visible()
    expect(page.locator("#trick-1")).to_be_hidden()
    page.locator("#trick-2").get_by_role("link", name=re.compile("上一墩")).click()
    expect(page.locator("#trick-1")).to_be_visible()
    box = page.locator("#trick-1 svg").bounding_box()
    assert box["width"] <= 390 and box["height"] < 844
    shots.save(page, SHOTS / "replay-390.png")


def test_a_phone_shows_the_rank_chart_and_a_pair_finds_its_table_first(page, live_server, director):
    t = evening(director)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto_path(f"/t/{t.slug}/standings/")
    chart = page.get_by_test_id("rank-chart")
    expect(chart.locator("circle.dot")).to_have_count(16)  # the top eight, after rounds 1 and 2
    assert chart.bounding_box()["width"] <= 390
    shots.save(chart, SHOTS / "rank-chart-390.png")
    shots.save(page, SHOTS / "standings-390.png", full_page=True)
    pair = t.pairs.get(name="安徽合肥队")
    page.goto_path(f"/t/{t.slug}/pairs/{pair.pk}/")
    expect(page.get_by_test_id("pair-now")).to_contain_text("第8桌")
    expect(page.get_by_test_id("pair-now")).to_contain_text("对手 金陵")
    shots.save(page, SHOTS / "pair-390.png")
