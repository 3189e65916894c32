"""The director watches the table board while a judge, in another browser, starts a deal and records a play: the
board's row changes state without a reload. Screenshots of the board, the queue and the printables at tablet
(820 px) and desktop width, in Chinese and English. A judge's styled refusal at the desk and the friendly missing
page are server-drawn, read in both languages by Django's client (tests/desk/test_board.py)."""

from __future__ import annotations

import pytest
from django.utils import timezone

from rules.simulate import simulate_deal
from tests.browser import shots as shots_module
from tests.browser.helpers import expect, sign_in, wait_for_version
from tests.desk.helpers import deal
from tournaments.models import Deal, Match, Ruling
from tournaments.setup.demo import create_demo

pytestmark = pytest.mark.django_db(transaction=True)

WIDTHS = {"tablet": 820, "desktop": 1280}
SHOTS_WANTED = shots_module.WANTED


def busy_round(demo) -> Match:
    """Tables 2–4 of the demo's round 1 waiting, flagged and finished; table 1 (judge1's) not started."""
    matches = {m.table: m for m in demo.tournament.rounds.get(number=1).matches.all()}
    for m in matches.values():
        m.started_at = timezone.now() - timezone.timedelta(minutes=20)
        m.state = Match.State.IN_PROGRESS
    matches[1].state, matches[1].started_at = Match.State.SCHEDULED, None
    matches[4].state = Match.State.FINISHED
    for m in matches.values():
        m.save()
    deal(matches[2], 1, "N", 40, "banker_holds", state=Deal.State.SUBMITTED)
    flagged = Deal.objects.create(match=matches[3], number=1, banker="N", level="2", trump="H")
    Ruling.objects.create(
        deal=flagged,
        violation="2:W:revoke_suit",
        kind=Ruling.Kind.PLAYED,
        trick=2,
        seat="W",
        code="revoke_suit",
    )
    return matches[1]


def shots(page, screenshot, label: str) -> None:
    """The page at each of ``WIDTHS``, when pictures are asked for (``SCREENSHOTS=1``): else not even resized."""
    if not SHOTS_WANTED:
        return
    for name, width in WIDTHS.items():
        page.set_viewport_size({"width": width, "height": 900})
        screenshot(page, f"{label}-{name}")


def test_the_board_follows_a_judges_play_without_a_reload(browser, page, live_server, screenshot):
    demo = create_demo()
    table1 = busy_round(demo)
    slug = demo.tournament.slug

    page.clock.install()
    sign_in(page, live_server, "director")  # by session cookie: the form is the log-in page's tests'
    page.goto_path(f"/t/{slug}/desk/")
    expect(page.get_by_test_id("waiting-count")).to_have_text("1 副牌待确认")
    page.get_by_role("link", name="牌桌看板").click()
    row = page.locator("tr[data-table='1']")
    assert row.get_attribute("data-state") == "not_started"
    expect(page.locator("tr[data-table='2'] [data-testid=table-state]")).to_have_text("1 副牌待确认")
    expect(page.locator("tr[data-table='3'] [data-testid=table-state]")).to_have_text("违例未处理")
    expect(page.locator("tr[data-table='4'] [data-testid=table-state]")).to_have_text("已结束")
    shots(page, screenshot, "board-zh")
    # A mark on this document's window: a reload would make a new window without it. (Counting "load" events
    # caught the board's own late load under a busy machine.)
    page.evaluate("window.boardNotReloaded = true")

    judge = browser.new_context(viewport={"width": 820, "height": 1000}, locale="zh-CN")
    judge.set_default_timeout(10_000)
    table = judge.new_page()
    table.goto_path = lambda path: table.goto(live_server.url + path)
    sign_in(table, live_server, "judge1")
    table.goto_path(f"/match/{table1.pk}/deal/new/")
    table.locator("input[name=declarer][value=N]").check()
    table.locator("label.trump-S").click()
    table.get_by_role("button", name="开始本局").click()
    table.wait_for_selector("#deal-app")
    lead = simulate_deal("standard", banker="N", level="2", trump="S", seed=1)["tricks"][0]["plays"][0][1]
    table.fill("#cards-input", lead)
    table.press("#cards-input", "Enter")
    wait_for_version(table, 1)
    judge.close()

    with page.expect_response(lambda r: "/desk/board/rows/" in r.url):
        page.clock.run_for(6_000)
    page.locator("tr[data-table='1'][data-state='playing']").wait_for()
    expect(row.locator("[data-testid=table-state]")).to_have_text("第1副进行中")
    assert page.evaluate("window.boardNotReloaded === true")  # the rows were swapped in: no reload
    shots(page, screenshot, "board-live-zh")

    row.locator("td").nth(1).click()  # a click on the row opens its match
    page.wait_for_url(f"**/match/{table1.pk}/")

    page.context.add_cookies([{"name": "django_language", "value": "en", "url": live_server.url}])
    page.goto_path(f"/t/{slug}/desk/board/")
    expect(row.locator("[data-testid=table-state]")).to_have_text("deal 1 in progress")
    shots(page, screenshot, "board-en")
    page.get_by_role("link", name="waiting for confirmation (1)").click()
    expect(page.locator("tbody tr[data-state]")).to_have_count(1)
    page.get_by_test_id("waiting-count").click()
    expect(page.locator("tr[data-deal]")).to_have_count(1)
    shots(page, screenshot, "queue-en")
    page.goto_path(f"/t/{slug}/desk/rounds/1/table-cards/")
    expect(page.locator("section.table-card")).to_have_count(4)
    shots(page, screenshot, "table-cards-en")
    page.goto_path(f"/t/{slug}/desk/rounds/1/score-sheets/?table=1")
    shots(page, screenshot, "score-sheet-en")

    page.context.add_cookies([{"name": "django_language", "value": "zh-hans", "url": live_server.url}])
    page.emulate_media(media="print")  # as printed: no header, no buttons, one table to a page
    page.goto_path(f"/t/{slug}/desk/rounds/1/table-cards/?table=2")
    expect(page.get_by_text("南北方").first).to_be_visible()
    expect(page.locator(".site-header")).to_be_hidden()
    shots(page, screenshot, "table-card-print-zh")
    page.goto_path(f"/t/{slug}/desk/rounds/1/score-sheets/?table=2")
    expect(page.get_by_text("东西方签名")).to_be_visible()
    shots(page, screenshot, "score-sheet-print-zh")
