"""A round's calls for the referee, in a browser: the table (in Chinese) calls twice, the second while its
network is down (kept on the device, sent when it returns); the director (in English) sees both on the board
with a tone, goes to the first and rules on it, and resolves the second with a penalty on the deal."""

from __future__ import annotations

import pytest

from referee.table.recording.deal_entry import start_deal
from tests.browser.helpers import expect, sign_in
from tournaments.models import Match, Penalty, TableCall
from tournaments.setup.demo import create_demo

pytestmark = pytest.mark.django_db(transaction=True)
BOARD_REFRESH_MS = 5_000  # the board's data-refresh: it fetches its rows this often


def other_context(browser, live_server, language: str):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    context.set_default_timeout(10_000)
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    page = context.new_page()
    page.goto_path = lambda path: page.goto(live_server.url + path)
    return context, page


def call(table, reason: str, note: str) -> None:
    table.locator("#call-referee summary").click()
    table.locator(f"input[name=reason][value={reason}]").check()
    table.fill("input[name=note]", note)
    table.locator("form[data-call-form] button[type=submit]").click()


def test_two_calls_are_answered_and_resolved_one_with_a_penalty(browser, page, live_server, screenshot):
    demo = create_demo()
    slug = demo.tournament.slug
    match = Match.objects.get(round__tournament=demo.tournament, round__number=1, table=1)
    deal = start_deal(match, match.judge, trump="S", declarer="N")

    # The director's board, in English, with the sound on.
    desk_context, desk = other_context(browser, live_server, "en")
    sign_in(desk, live_server.url, "director")
    desk.clock.install()  # the board's refresh (every 5 s) run when the test has called, not waited for
    desk.goto_path(f"/t/{slug}/desk/board/")
    desk.get_by_role("button", name="Sound on").click()
    expect(desk.get_by_role("button", name="Sound off")).to_be_visible()

    # The table, in Chinese: a call from the match page.
    sign_in(page, live_server.url, match.judge.username)
    page.goto_path(f"/match/{match.pk}/")
    call(page, "misdeal", "北家多一张")
    expect(page.locator("[data-call-status]")).to_have_text("已呼叫裁判。")

    strip = desk.get_by_test_id("open-calls")
    desk.clock.run_for(BOARD_REFRESH_MS)
    expect(strip).to_contain_text("Table 1 · misdeal")
    expect(desk.locator("html[data-call-beeps]")).to_have_count(1)
    beeps = int(desk.locator("html").get_attribute("data-call-beeps"))

    # The second call, from the deal page, while the table's network is down.
    page.goto_path(f"/deal/{deal.pk}/")
    page.context.set_offline(True)
    call(page, "revoke", "西家有黑桃却垫牌")
    expect(page.locator("[data-call-status]")).to_have_text("已保存在本设备上：网络恢复后立即发出呼叫。")
    assert TableCall.objects.count() == 1
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    expect(page.locator("[data-call-status]")).to_have_text("已呼叫裁判。")
    desk.clock.run_for(BOARD_REFRESH_MS)
    expect(strip).to_contain_text("revoke dispute")
    expect(desk.locator(f"html[data-call-beeps='{beeps + 1}']")).to_have_count(1)
    screenshot(desk, "board-en")

    # The first: on the way, then a ruling alone.
    desk.goto_path(f"/t/{slug}/desk/calls/")
    expect(desk.get_by_test_id("open-calls").locator("tr[data-call]")).to_have_count(2)
    screenshot(desk, "queue-en")
    desk.get_by_test_id("open-calls").locator("tr[data-state=open]").first.get_by_role("link").click()
    desk.get_by_role("button", name="On the way").click()
    expect(desk.get_by_test_id("call-state")).to_have_text("director on the way")
    page.goto_path(f"/match/{match.pk}/")
    expect(page.get_by_test_id("match-calls")).to_contain_text("裁判长正在前往")
    desk.fill("textarea[name=ruling]", "Redeal: the deck had 109 cards.")
    desk.get_by_role("button", name="Resolve the call").click()
    expect(desk.get_by_test_id("resolved-calls")).to_contain_text("Redeal: the deck had 109 cards.")

    # The second: a penalty on West, on the deal being recorded.
    desk.get_by_test_id("open-calls").get_by_role("link", name="Answer").click()
    desk.fill("textarea[name=ruling]", "West revoked in trick 3.")
    desk.locator("input[name=action][value=penalty]").check()
    desk.select_option("select[name=seat]", "W")
    desk.select_option("select[name=code]", "revoke")
    desk.get_by_role("button", name="Resolve the call").click()
    expect(desk.get_by_test_id("resolved-calls").locator("tr[data-call]")).to_have_count(2)
    expect(desk.get_by_test_id("open-calls")).to_contain_text("No table is calling the referee.")

    penalty = Penalty.objects.get(deal=deal)
    assert (penalty.seat, penalty.code) == ("W", "revoke")
    page.goto_path(f"/match/{match.pk}/")
    calls = page.get_by_test_id("match-calls")
    expect(calls.locator("li[data-state=resolved]")).to_have_count(2)
    expect(calls).to_contain_text("West revoked in trick 3.")
    screenshot(page, "match-zh")
    desk_context.close()
