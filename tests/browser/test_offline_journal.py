"""The trick-entry page with the network cut, on a phone, in both languages: every play is written to the device
first, the page counts what waits, the judge taps each trick's winner (the page cannot judge), a reload while
offline (the service worker serves the page) or after the network returns keeps everything, and when the link is
back the entries go in order, each stored once; what the server refuses stays on the page for the judge."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from tests.browser.helpers import expect, login, wait_for_version
from tests.browser.journal_steps import (
    BACK_ONLINE_MS,
    PHONE,
    SEAT_NAMES,
    begun_deal,
    enter,
    enter_trick,
    new_page,
    open_deal_signed_in,
    phone_page,
    revoked_deal,
    shot,
    stored_once,
    waiting,
    winners,
)
from tournaments.competition.accounts import display_name
from tournaments.models import Deal
from tournaments.scoring import corrections

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.both_databases]


def test_a_deal_recorded_offline_through_a_reload_is_stored_once_and_logging_out_forgets_the_kept_pages(
    browser, live_server
):
    """The deal recorded through a cut and a reload offline (the service worker serves the page) is stored once
    when the network returns; then the judge logs out, and the pages the service worker kept are forgotten: the
    deal no longer opens offline."""
    from playwright.sync_api import Error

    deal, record = begun_deal()
    won = winners(record)
    context, page = phone_page(browser, live_server)
    try:
        open_deal_signed_in(page, live_server, deal)
        enter_trick(page, record["tricks"][0])  # online: stored at once, nothing waits, no box
        wait_for_version(page, 4)
        expect(page.locator("#journal-box")).to_be_hidden()
        context.set_offline(True)
        enter_trick(page, record["tricks"][1], won[1])
        waiting(page, 5)
        expect(page.locator(".journal-down")).to_contain_text("网络中断")
        expect(page.locator(".journal-next")).to_contain_text(SEAT_NAMES["zh-hans"][won[1]])
        shot(page, "zh-offline-waiting")
        page.reload()  # offline: the service worker serves the page, the journal its entries
        waiting(page, 5)
        enter_trick(page, record["tricks"][2], won[2])
        waiting(page, 10)
        shot(page, "zh-offline-after-reload")
        context.set_offline(False)
        waiting(page, 0)
        wait_for_version(page, 12)
        stored_once(deal, 12)
        expect(page.locator(".journal-recovered")).to_contain_text("网络已恢复")
        shot(page, "zh-back-online")

        # Logging out forgets the pages the service worker kept.
        page.get_by_role("button", name="退出").click()
        page.wait_for_url(lambda url: f"/deal/{deal.pk}/" not in url)
        context.set_offline(True)
        with pytest.raises(Error):
            page.goto_path(f"/deal/{deal.pk}/")
    finally:
        context.close()


def test_a_wrong_winner_tapped_offline_gets_a_notice_and_the_next_play_is_refused_then_retyped(
    browser, live_server
):
    deal, record = begun_deal()
    won = winners(record)
    wrong = next(seat for seat in "NWSE" if seat != won[0])
    context, page = phone_page(browser, live_server, "en")
    try:
        open_deal_signed_in(page, live_server, deal)
        context.set_offline(True)
        enter_trick(page, record["tricks"][0], wrong)
        lead = record["tricks"][1]["plays"][0][1]
        enter(page, lead)  # entered for the wrong seat: the page took the tapped winner's word
        waiting(page, 6)
        expect(page.locator(".journal-next")).to_contain_text("Next to play, as entered on this device")
        context.set_offline(False)
        notice = page.locator(".journal-notice")
        expect(notice).to_contain_text(
            f"Trick 1 was won by {SEAT_NAMES['en'][won[0]]}, not {SEAT_NAMES['en'][wrong]}",
            timeout=BACK_ONLINE_MS,  # the first answer after the network returns, as its neighbours wait
        )
        refused = page.locator(".journal-entry.status-refused")
        expect(refused).to_contain_text(f"It is {SEAT_NAMES['en'][won[0]]}'s turn")
        waiting(page, 1)
        stored_once(deal, 4)
        shot(page, "en-wrong-winner-refused")
        refused.get_by_role("button", name="Retype").click()
        expect(page.locator("#cards-input")).to_have_value(lead)
        page.press(
            "#cards-input", "Enter"
        )  # the retyped play takes the refused one's place, for the server's seat
        waiting(page, 0)
        wait_for_version(page, 5)
        stored_once(deal, 5)
        assert deal.tricks.get(number=1).plays.get().seat == won[0]
        notice.get_by_role("button", name="OK").click()
        expect(notice).to_have_count(0)
    finally:
        context.close()


def test_faults_found_when_the_entries_arrive_are_shown_and_a_refused_entry_waits_for_the_judge(
    browser, live_server
):
    deal, record, trick, proof = revoked_deal()
    won = winners(record)
    context, page = phone_page(browser, live_server)
    try:
        open_deal_signed_in(page, live_server, deal)
        context.set_offline(True)
        (lead, led), (follower, followed) = record["tricks"][0]["plays"][:2]
        enter(page, led)
        enter(page, f"{followed} BJ")  # one card too many: the server refuses it
        for _seat, cards in record["tricks"][0]["plays"][2:]:
            enter(page, cards)
        page.locator(f".journal-winner button[data-winner='{won[0]}']").click()
        for n in range(1, proof + 1):
            enter_trick(page, record["tricks"][n], won[n])
        context.set_offline(False)
        refused = page.locator(".journal-entry.status-refused")
        expect(refused).to_contain_text("第 1 墩", timeout=BACK_ONLINE_MS)
        expect(page.locator(".journal-entry", has_text="等待处理上面被拒绝的记录").first).to_be_visible()
        stored_once(deal, 1)
        shot(page, "zh-entry-refused")
        refused.get_by_role("button", name="重新录入").click()
        expect(page.locator("#cards-input")).to_have_value(f"{followed} BJ")
        enter(page, followed)
        waiting(page, 0)
        stored_once(deal, 4 * (proof + 1))
        expect(page.locator(".violations li.status-open")).to_contain_text(f"第 {trick + 1} 墩")
        shot(page, "zh-fault-shown-at-its-trick")
    finally:
        context.close()


def test_a_reload_after_the_network_returns_two_tabs_and_a_tab_closed_offline_each_send_the_journal_once(
    browser, live_server
):
    """Three ways a page comes back to what waited on the device, one after another on one deal in English (each
    step begins with nothing waiting): a page reloaded after the network returns sends what waited; two tabs of
    the deal read one journal and send it once between them; a tab closed offline and the deal opened again in
    a new one replays the journal, the kitty with it."""
    deal, record = begun_deal()
    first, second = record["tricks"][0]["plays"], record["tricks"][1]["plays"]
    context, page = phone_page(browser, live_server, "en")
    try:
        open_deal_signed_in(page, live_server, deal)

        # A page reloaded after the network returns sends what waited.
        page.route("**/play/", lambda route: route.abort())  # the page loads, the server cannot be reached
        for _seat, cards in first[:2]:
            enter(page, cards)
        waiting(page, 2)
        expect(page.locator(".journal-down")).to_contain_text("No network")
        page.unroute("**/play/")
        page.reload()
        waiting(page, 0)
        wait_for_version(page, 2)
        stored_once(deal, 2)

        # Two tabs of one deal send the journal once between them.
        other = new_page(context, live_server)
        other.goto_path(f"/deal/{deal.pk}/")
        context.set_offline(True)
        for _seat, cards in first[2:]:
            enter(page, cards)
        waiting(other, 2)  # the other tab reads the same journal
        context.set_offline(False)
        waiting(page, 0)
        waiting(other, 0)
        wait_for_version(other, 4)
        stored_once(deal, 4)
        other.close()

        # A tab closed offline, the deal opened again in a new one: the journal replays, the kitty with it.
        context.set_offline(True)
        for _seat, cards in second[:3]:
            enter(page, cards)
        page.fill("#kitty-form input[name=kitty]", record["kitty"])
        page.locator("#kitty-form button[type=submit]").click()
        waiting(page, 4)
        expect(page.locator(".journal-count")).to_contain_text("Waiting to be sent: 4")
        expect(page.locator(".journal-entry").last).to_contain_text("Kitty: ")
        expect(page.locator(".journal-insecure")).to_have_count(0)  # localhost is a secure context
        shot(page, "en-offline-kitty-waiting")
        page.close()
        context.set_offline(False)
        again = new_page(context, live_server)
        again.goto_path(f"/deal/{deal.pk}/")
        waiting(again, 0)
        wait_for_version(again, 8)
        stored_once(deal, 7)
        deal.refresh_from_db()
        assert sorted(deal.kitty.split()) == sorted(record["kitty"].split())
        shot(again, "en-replayed-in-a-new-tab")
    finally:
        context.close()


def test_undo_while_offline_takes_back_the_last_entry_and_a_change_at_the_desk_refuses_the_next_until_sent_again(
    browser, live_server
):
    """Two offline cases one after the other on one deal in Chinese (the second begins with nothing waiting): an
    undo while offline takes back the last entry on the device; a change at the desk while offline refuses the
    entry sent after it, naming who changed the deal, until the judge sends it again."""
    deal, record = begun_deal()
    plays = record["tricks"][0]["plays"]
    context, page = phone_page(browser, live_server)
    try:
        open_deal_signed_in(page, live_server, deal)

        # An undo while offline takes back the last entry on the device.
        context.set_offline(True)
        enter(page, plays[0][1])
        enter(page, "BJ")  # mistyped
        waiting(page, 2)
        page.get_by_role("button", name="撤销上一手").click()
        waiting(page, 1)
        enter(page, plays[1][1])
        context.set_offline(False)
        waiting(page, 0)
        wait_for_version(page, 2)
        stored_once(deal, 2)
        assert [p.cards for p in deal.tricks.get(number=0).plays.order_by("order")] == [
            plays[0][1],
            plays[1][1],
        ]

        # A change at the desk while offline refuses the entry until the judge sends it again.
        context.set_offline(True)
        for _seat, cards in plays[2:]:
            enter(page, cards)
        director = User.objects.get(username="director")
        corrections.add_penalty(Deal.objects.get(pk=deal.pk), director, seat="E", code="misplay", version=2)
        context.set_offline(False)
        refused = page.locator(".journal-entry.status-refused")
        expect(refused).to_contain_text(
            display_name(director), timeout=BACK_ONLINE_MS
        )  # who changed it, by name
        waiting(page, 2)
        shot(page, "zh-desk-conflict")
        refused.get_by_role("button", name="重新发送").click()
        waiting(page, 0)
        wait_for_version(page, 5)
        stored_once(deal, 4)
    finally:
        context.close()


def test_on_a_plain_http_network_the_journal_keeps_the_entries_and_the_page_says_it_needs_the_network_to_reload(
    browser, live_server, settings
):
    """A club LAN's address (``lan.test``, here mapped to the test server) is no secure context: no service
    worker, so the page says it cannot reload offline; the journal works the same."""
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "lan.test"]
    deal, record = begun_deal()
    port = live_server.url.rsplit(":", 1)[1]
    lan = browser.new_context(viewport=PHONE, locale="zh-CN")  # the browser maps lan.test (conftest.py)
    try:
        page = lan.new_page()
        page.goto_path = lambda path: page.goto(f"http://lan.test:{port}{path}")
        login(page, "judge1", "demo-judge1-2026")
        page.goto_path(f"/deal/{deal.pk}/")
        page.route("**/play/", lambda route: route.abort())
        enter(page, record["tricks"][0]["plays"][0][1])
        waiting(page, 1)
        expect(page.locator(".journal-insecure")).to_contain_text("本站未使用 HTTPS")
        expect(page.locator("#deal-app[data-offline]")).to_have_count(0)
        shot(page, "zh-plain-http-note")
        page.unroute("**/play/")
        page.reload()
        waiting(page, 0)
        wait_for_version(page, 1)
        stored_once(deal, 1)
    finally:
        lan.close()
