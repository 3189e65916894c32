"""Issue 21's "Done when", on a phone (390×844), in Chinese: the director prints table 1's card, a fresh browser opens its QR
link (no account) and records a whole simulated deal by tapping the picker only, through a network cut of several
tricks (the tab closed and opened again while offline) and a trick after it, without scrolling and in at most five
taps a trick of singles (the tricks after those come through the play service, as from another device of the
table, and the page, reloaded, shows them); the deal is submitted, a player of the other side confirms it with their pair's PIN on the same phone,
and the desk finds it confirmed, every play stored once, with the engine's result. Screenshots (one mid-cut with
the waiting plays on the table and in the picker's counts) in test-output/screenshots/tabledone/ (with SCREENSHOTS=1).
The English page is the same script and journal with other words: its whole deal by a table's link is
test_table_last_mile's English phone, its journal through a network cut test_offline_journal's English tests,
and the journal's English words (the waiting seat's "not sent yet" among them) the Django client's
(tests/table/test_offline.py)."""

from __future__ import annotations

from collections import Counter

import pytest
from django.contrib.auth.models import User
from django.test import Client

from referee.table.recording import deal_entry
from rules.judge import judge
from tests.browser import shots
from tests.browser.helpers import expect, sign_in, wait_for_version
from tests.browser.journal_steps import SEAT_NAMES, new_page, played_elsewhere, stored_once, waiting
from tests.browser.taps import field_free, tap_in_view
from tests.table.helpers import simulated
from tournaments.models import Deal, TableLink
from tournaments.setup.demo import create_demo

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = shots.folder("tabledone")
PHONE = {"width": 390, "height": 844}
OFFLINE = (3, 4, 5, 6)  # the tricks (from 0) recorded through the network cut
REOPEN_AFTER = 4  # the tab is closed after this trick and a new one opened, still offline
TAPPED = (
    OFFLINE[-1] + 2
)  # the tricks tapped: before, through and one after the cut; the rest through the service
WORDS = {
    "zh-hans": {
        "links": "桌号链接",
        "new card": "新桌牌",
        "record": "录入",
        "submit": "提交本局",
        "pin": "用双方 PIN 确认",
        "confirmed": "已确认",
        "unsent": "尚未发送",
    },
}


def context_in(browser, live_server, language: str):
    context = browser.new_context(viewport=PHONE, locale="zh-CN", has_touch=True)
    context.set_default_timeout(10_000)
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    context.add_init_script("window.refereeAutoSendMs = 30;")  # the moment before a follow is sent, shortened
    return context, new_page(context, live_server)


def shot(page, name: str, language: str) -> None:
    shots.save(page, SHOTS / f"{name}-{language}.png")  # the screen as the judge sees it


def print_card(browser, live_server, language: str, slug: str) -> tuple[str, list[str]]:
    """The director prints table 1's card: its link and the two pairs' PINs."""
    context, desk = context_in(browser, live_server, language)
    sign_in(desk, live_server.url, "director")
    desk.goto_path(f"/t/{slug}/desk/rounds/1/")
    desk.get_by_role("link", name=WORDS[language]["links"]).click()
    desk.locator("tr[data-table='1']").get_by_role("button", name=WORDS[language]["new card"]).click()
    expect(desk.get_by_test_id("card-link").locator("svg.qr")).to_be_visible()
    url = desk.get_by_test_id("card-url").inner_text().strip()
    pins = desk.get_by_test_id("pin").all_inner_texts()
    context.close()
    return url, pins


def plain_record(deal) -> dict:
    """A simulated record for the deal without challenged throws."""
    for seed in range(1, 300):
        record = simulated(deal, seed=seed)
        if not any("throw" in t for t in record["tricks"]):
            return record
    raise AssertionError("no plain simulated deal in 300 seeds")


def tap(page, cards: str) -> int:
    """Tap the picker for each card, each button and the record control in view without scrolling (each card's
    check and tap in one step of the page: tests/browser/taps.py)."""
    return tap_in_view(page, cards, PHONE)


def record_plays(page, plays: list, language: str, online: bool, version: int) -> tuple[int, int]:
    """Plays of a trick by tapping: a lead (four plays given) then the record control, each follow sent on its
    last card. Returns the taps and the deal's version after them (online each play is stored before the next)."""
    taps = 0
    for n, (_seat, cards) in enumerate(plays):
        taps += tap(page, cards)
        if n == 0 and len(plays) == 4:
            page.get_by_role("button", name=WORDS[language]["record"], exact=True).click()
            taps += 1
        field_free(page)
        if online:
            version += 1
            wait_for_version(page, version)
    return taps, version


def left_after(record: dict, upto: int, lead_only: bool, code: str) -> str:
    """The copies of ``code`` still in the hands after tricks before ``upto`` and (``lead_only``) its lead."""
    played = Counter(c for t in record["tricks"][:upto] for _s, cards in t["plays"] for c in cards.split())
    if lead_only:
        played.update(record["tricks"][upto]["plays"][0][1].split())
    return str(2 - played[code])


@pytest.mark.parametrize("language", ["zh-hans"])
def test_a_table_records_a_whole_deal_by_its_link_through_a_network_cut_and_the_other_side_confirms(
    browser, live_server, language
):
    words = WORDS[language]
    demo = create_demo()
    match = demo.tournament.rounds.get(number=1).matches.get(table=1)
    url, pins = print_card(browser, live_server, language, demo.tournament.slug)
    account = TableLink.objects.get(match=match, revoked_at__isnull=True).account
    deal = deal_entry.start_deal(match, account, trump="S", declarer="N")
    record = plain_record(deal)
    won = [t.winner for t in judge(record).tricks]

    context, page = context_in(browser, live_server, language)
    page.goto(url)  # the card's QR link: no account, no password
    page.wait_for_url(f"**/match/{match.pk}/")
    page.goto_path(f"/deal/{deal.pk}/")
    page.locator("#deal-app[data-offline='kept']").wait_for(state="attached")
    version, singles, winner_taps = 0, [], 0
    for n, trick in enumerate(record["tricks"][:TAPPED]):
        if n == OFFLINE[0]:
            context.set_offline(True)
        online = n not in OFFLINE
        if n == OFFLINE[1]:  # mid-cut: the waiting lead is on the table and out of the picker's counts
            lead = trick["plays"][0][1]
            taps = tap(page, lead) + 1
            page.get_by_role("button", name=words["record"], exact=True).click()
            seat = page.locator(".seat-box.waiting")
            expect(seat.locator(".waiting-mark")).to_have_attribute("title", words["unsent"])
            expect(seat).to_contain_text(SEAT_NAMES[language][won[n - 1]])
            code = lead.split()[0]
            expect(page.locator(f"button.pick[data-code='{code}'] .left")).to_have_text(
                left_after(record, n, True, code)
            )
            shot(page, "2-mid-cut-waiting-lead", language)
            more, version = record_plays(page, trick["plays"][1:], language, online, version)
            taps += more
        else:
            taps, version = record_plays(page, trick["plays"], language, online, version)
        if not online:
            page.locator(f".journal-winner button[data-winner='{won[n]}']").click()  # the page cannot judge
            winner_taps += 1
            waiting(page, 5 * (n - OFFLINE[0] + 1))
        if n == REOPEN_AFTER:
            shot(page, "1-offline-trick-done", language)
            page.close()  # the tab closed, a new one opened, still offline: the journal replays
            page = new_page(context, live_server)
            page.goto_path(f"/deal/{deal.pk}/")
            waiting(page, 5 * (n - OFFLINE[0] + 1))
            code = record["tricks"][n]["plays"][0][1].split()[0]
            expect(page.locator(f"button.pick[data-code='{code}'] .left")).to_have_text(
                left_after(record, n + 1, False, code)
            )
        if n == OFFLINE[-1]:
            context.set_offline(False)
            waiting(page, 0)
            version = 4 * (n + 1)
            wait_for_version(page, version)
            shot(page, "3-back-online", language)
        if len(trick["plays"][0][1].split()) == 1:
            singles.append(taps)
    assert singles and max(singles) <= 5, singles  # a trick of singles: lead + record, three follows
    version = played_elsewhere(deal, account, record["tricks"][TAPPED:])
    page.reload()
    wait_for_version(page, version)
    shot(page, "4-all-tricks", language)

    page.locator("#kitty-form input[name=kitty]").fill(record["kitty"])
    page.locator("#kitty-form button[type=submit]").click()
    wait_for_version(page, version + 1)
    page.locator("#review-link").click()
    page.get_by_role("button", name=words["submit"]).click()
    page.wait_for_url(f"**/deal/{deal.pk}/review/#pin")  # submitted at the table: the PIN form next
    form = page.get_by_test_id("pin-confirm")
    form.get_by_test_id("pin-NS").fill(pins[0])  # both pairs' PINs: no pair confirms its own result alone
    form.get_by_test_id("pin-EW").fill(pins[1])
    shot(page, "5-pin-confirm", language)
    form.get_by_role("button", name=words["pin"]).click()
    page.wait_for_url(f"**/match/{match.pk}/")
    expect(page.locator(f"tr[data-deal='{deal.number}'] .badge")).to_contain_text(words["confirmed"])
    context.close()

    desk = Client()  # the director's desk reads the deal as stored
    desk.force_login(User.objects.get(username="director"))
    desk.cookies["django_language"] = "zh-hans"
    assert "已确认" in desk.get(f"/match/{match.pk}/").content.decode()
    deal = Deal.objects.get(pk=deal.pk)
    assert deal.state == Deal.State.CONFIRMED and deal.confirmed_by_pair == match.pair_ew
    stored_once(deal, 4 * len(record["tricks"]))
    assert deal.attackers_total == judge(record).attackers_points["total"]
    print(f"taps {language}: singles {singles}, offline winner taps {winner_taps}")
