"""The trick-entry page on a failing network: a play whose reply is lost is sent again with the same key and
recorded once, with a one-line message while it retries; when the network stays down the page says so and keeps
the typed cards, and sending them again still records them once."""

from __future__ import annotations

import pytest

from referee.table.recording import deal_entry
from tests.browser.helpers import expect, login, wait_for_version
from tournaments.models import Play
from tournaments.setup.demo import create_demo

pytestmark = pytest.mark.django_db(transaction=True)


def open_deal(page):
    demo = create_demo()
    match = demo.tournament.rounds.get(number=1).matches.get(table=1)
    deal = deal_entry.start_deal(match, match.judge, trump="S", declarer="N")
    login(page, "judge1", "demo-judge1-2026")
    page.goto_path(f"/deal/{deal.pk}/")
    page.wait_for_selector("#deal-app")
    return deal


def test_a_play_whose_reply_is_lost_is_retried_and_recorded_once(page, screenshot):
    deal = open_deal(page)
    seen = []

    def lose_the_first_reply(route):
        seen.append(route.request.post_data)
        if len(seen) == 1:
            route.fetch()  # the server records the play ...
            route.abort()  # ... and its answer never comes back
        else:
            route.continue_()

    page.route("**/play/", lose_the_first_reply)
    page.fill("#cards-input", "SA")
    page.press("#cards-input", "Enter")
    message = page.locator("#message")
    message.wait_for(state="visible")
    expect(message).to_contain_text("网络中断，正在重试")
    screenshot(page, "retrying")
    wait_for_version(page, 1)
    expect(message).to_contain_text("网络已恢复")
    assert len(seen) == 2 and seen[0] == seen[1]  # the same write, with the same key
    assert "idempotency_key=" in seen[0]
    assert Play.objects.filter(trick__deal=deal).count() == 1
    expect(page.locator("#cards-input")).to_have_value("")


def test_when_the_network_stays_down_the_page_says_so_and_keeps_the_cards(page):
    deal = open_deal(page)
    page.clock.install()
    page.route("**/play/", lambda route: route.abort())
    page.fill("#cards-input", "SA")
    page.press("#cards-input", "Enter")
    message = page.locator("#message")
    message.wait_for(state="visible")
    for _ in range(20):  # each retry is scheduled only after the previous one failed: let the clock run in steps
        if "网络仍未恢复" in message.inner_text():
            break
        page.clock.run_for(16_000)
        page.wait_for_timeout(100)
    expect(message).to_contain_text("网络仍未恢复")
    expect(page.locator("#cards-input")).to_have_value("SA")
    assert not Play.objects.filter(trick__deal=deal).exists()
    page.unroute("**/play/")
    page.press("#cards-input", "Enter")
    wait_for_version(page, 1)
    assert Play.objects.filter(trick__deal=deal).count() == 1
