"""Issue 29 item 5: each entry of the device's journal keeps the version of the deal it was made against, so an
undo or a kitty queued offline on one device never lands on a deal another device has changed meanwhile: it is
refused with the server's sentence and stays on the page for the judge."""

from __future__ import annotations

import json

import pytest

from tests.browser.helpers import expect, wait_for_version
from tests.browser.journal_steps import (
    BACK_ONLINE_MS,
    begun_deal,
    enter,
    offline_seen,
    open_deal_signed_in,
    phone_page,
    shot,
    waiting,
)
from tests.table.helpers import record_play
from tournaments.models import Deal, Play

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.both_databases]


def another_device_plays(deal: Deal, seat: str, cards: str) -> None:
    """The table's other device (here the judge's account from a second phone) records a play."""
    deal = Deal.objects.get(pk=deal.pk)
    record_play(deal, deal.match.judge, cards=cards, seat=seat, version=deal.version)


def test_an_undo_queued_offline_is_refused_when_another_device_has_played_since_and_its_play_stays(
    browser, live_server
):
    deal, record = begun_deal()
    plays = record["tricks"][0]["plays"]
    context, page = phone_page(browser, live_server)
    try:
        open_deal_signed_in(page, live_server, deal)
        enter(page, plays[0][1])
        enter(page, plays[1][1])
        wait_for_version(page, 2)
        context.set_offline(True)
        page.get_by_role("button", name="撤销上一手").click()  # meant for the second play, made on version 2
        waiting(page, 1)
        offline_seen(page)
        another_device_plays(deal, *plays[2])  # the other device records play 3: version 3
        context.set_offline(False)
        refused = page.locator(".journal-entry.status-refused")
        expect(refused).to_contain_text("这一局已被", timeout=BACK_ONLINE_MS)
        expect(refused.locator(".journal-refusal")).to_be_visible()
        shot(page, "zh-stale-undo-refused")
        assert Play.objects.filter(trick__deal=deal).count() == 3  # nobody's play went
        wait_for_version(page, 3)  # the page shows the deal as the server has it, the third play on the table
        expect(page.locator(".seat-box").filter(has=page.locator(".card"))).to_have_count(3)
        refused.get_by_role("button", name="放弃").click()
        waiting(page, 0)
        assert Play.objects.filter(trick__deal=deal).count() == 3
    finally:
        context.close()


def test_a_kitty_queued_offline_is_refused_when_another_device_has_changed_the_deal_since(
    browser, live_server
):
    deal, record = begun_deal()
    plays = record["tricks"][0]["plays"]
    context, page = phone_page(browser, live_server, "en")
    try:
        open_deal_signed_in(page, live_server, deal)
        enter(page, plays[0][1])
        wait_for_version(page, 1)
        context.set_offline(True)
        page.fill("#kitty-form input[name=kitty]", record["kitty"])
        page.locator("#kitty-form button[type=submit]").click()
        waiting(page, 1)
        offline_seen(page)
        another_device_plays(deal, *plays[1])
        context.set_offline(False)
        refused = page.locator(".journal-entry.status-refused")
        expect(refused).to_contain_text("This deal was changed by", timeout=BACK_ONLINE_MS)
        shot(page, "en-stale-kitty-refused")
        deal.refresh_from_db()
        assert deal.kitty == "" and deal.version == 2
        refused.get_by_role("button", name="Send again").click()  # the judge, having seen the deal, decides
        waiting(page, 0)
        wait_for_version(page, 3)
        deal.refresh_from_db()
        assert sorted(deal.kitty.split()) == sorted(record["kitty"].split())
        assert Play.objects.filter(trick__deal=deal).count() == 2
    finally:
        context.close()


def test_an_undo_an_older_release_left_without_a_version_never_takes_back_a_play(browser, live_server):
    """Issue 38 item 12: such an entry is replayed as a play only; the undo is never sent."""
    deal, record = begun_deal()
    plays = record["tricks"][0]["plays"]
    context, page = phone_page(browser, live_server)
    try:
        open_deal_signed_in(page, live_server, deal)
        another_device_plays(deal, *plays[0])  # version 1, on the server only
        old = {"entries": [{"key": "0b5c6f2e-7d1a-4c3b-9e8f-1a2b3c4d5e6f", "action": "undo", "fields": {}}]}
        page.evaluate(
            "([key, value]) => localStorage.setItem(key, value)",
            [f"referee-journal:{deal.pk}", json.dumps(old)],
        )
        page.reload()
        wait_for_version(page, 1)
        enter(page, plays[1][1])  # the judge goes on: the second play
        waiting(page, 0)
        wait_for_version(page, 2)
        assert Play.objects.filter(trick__deal=deal).count() == 2  # the other device's play stayed
    finally:
        context.close()
