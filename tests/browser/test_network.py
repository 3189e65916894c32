"""The trick-entry page on a failing network: a play whose reply is lost is kept on the device and sent again with
the same key, recorded once; when the network stays down the page says so, counts the play as waiting, and sends
it once when the network returns (the journal itself: test_offline_journal.py)."""

from __future__ import annotations

import pytest

from referee.table.recording import deal_entry
from tests.browser.helpers import expect, sign_in, wait_for_version
from tournaments.models import Play
from tournaments.setup.demo import create_demo

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.both_databases]


def open_deal(page, live_server):
    demo = create_demo()
    match = demo.tournament.rounds.get(number=1).matches.get(table=1)
    deal = deal_entry.start_deal(match, match.judge, trump="S", declarer="N")
    sign_in(page, live_server.url, "judge1")
    page.goto_path(f"/deal/{deal.pk}/")
    page.wait_for_selector("#deal-app")
    return deal


def test_a_play_whose_reply_is_lost_is_retried_and_recorded_once(page, live_server, screenshot):
    deal = open_deal(page, live_server)
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
    expect(message).to_contain_text("已保存在本设备上")
    screenshot(page, "retrying")
    wait_for_version(page, 1)
    expect(page.locator(".journal-recovered")).to_contain_text("网络已恢复")
    assert len(seen) == 2 and seen[0] == seen[1]  # the same write, with the same key
    assert "idempotency_key=" in seen[0]
    assert Play.objects.filter(trick__deal=deal).count() == 1
    expect(page.locator("#cards-input")).to_have_value("")


def test_when_the_network_stays_down_the_play_waits_on_the_device_and_goes_in_once_it_returns(
    page, live_server
):
    deal = open_deal(page, live_server)
    page.clock.install()
    page.route("**/play/", lambda route: route.abort())
    page.fill("#cards-input", "SA")
    page.press("#cards-input", "Enter")
    expect(page.locator(".journal-down")).to_contain_text("网络中断")
    expect(page.locator(".journal-count")).to_contain_text("等待发送：1 条")
    expect(page.locator("#cards-input")).to_have_value("")
    page.clock.run_for(60_000)  # it keeps trying, and keeps the play
    expect(page.locator(".journal-count")).to_have_attribute("data-count", "1")
    assert not Play.objects.filter(trick__deal=deal).exists()
    page.unroute("**/play/")
    page.clock.run_for(16_000)
    wait_for_version(page, 1)
    assert Play.objects.filter(trick__deal=deal).count() == 1
