"""A featured table followed on a phone (390×844, in Chinese): the live page shows the tricks the delay lets
through, fits the screen, and its script brings the next trick in by itself once it is past the delay (a poll
with the page's ETag: nothing new is a 304, left as it is), run on Playwright's clock rather than waited for."""

from __future__ import annotations

import pytest

from referee.table.recording import deal_entry
from tests.browser import shots
from tests.browser.helpers import expect
from tests.table.helpers import play_through_service, simulated
from tournaments.live import services

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_live_page_follows_a_featured_table_on_a_phone(browser, live_server, match, judge):
    tournament = match.round.tournament
    services.feature(tournament, 1, 1, on_screen=False)
    deal = deal_entry.start_deal(match, judge, trump="S", declarer="N")
    record = simulated(deal)
    play_through_service(deal, judge, {"tricks": record["tricks"][:2]})
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="zh-CN")
    context.set_default_timeout(10_000)
    page = context.new_page()
    try:
        page.clock.install()  # the poll (every 5 s) run when the test has played the trick, not waited for
        page.goto(f"{live_server.url}/t/{tournament.slug}/live/1/")
        box = page.get_by_test_id("live-table")
        expect(box.locator('[data-trick="1"]')).to_have_count(1)
        expect(box.locator('[data-trick="2"]')).to_have_count(0)  # one more trick must be complete first
        expect(page.locator("h1")).to_contain_text("直播")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        shots.save(page, shots.folder("live") / "live-table-390.png", full_page=True)
        deal.refresh_from_db()
        play_through_service(deal, judge, {"tricks": record["tricks"][2:3]})
        with page.expect_response(lambda r: "/live/1/" in r.url and r.request.headers.get("x-live") == "1"):
            page.clock.run_for(5_000)
        page.clock.run_for(1_000)  # the fragment's swap, at the page's next second
        expect(box.locator('[data-trick="2"]')).to_have_count(1)  # brought in by the poll, no reload
        expect(box.locator('[data-trick="3"]')).to_have_count(0)
    finally:
        context.close()
