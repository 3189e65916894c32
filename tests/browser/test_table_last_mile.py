"""Issue 30's "Done when", on small phones (360×640, 390×844), in both languages: the director prints table 1's
card at the desk opened on this machine's own address (127.0.0.1), and the card's QR link carries the hall's
address (``PUBLIC_URL``; ``hall.test`` stands for it, mapped to the test server); a fresh phone opens it and
taps while the first trick's plays take 1.5 s more to be answered, tapping on while plays are on their way (the
rest answered at once: the queue behind the slow ones drains as it would when the hall's Wi-Fi recovers): every
play is stored once and no tap is lost or mixed into another play. The smallest phone (360×640, in Chinese) taps
the whole deal; the other (390×844, in English) taps the slow trick and the two after it, tapped while it is on
its way, and the rest of the deal comes through the play service (as from another device of the table) and the
reloaded page shows it: the journal and its queue do not depend on the language, and a later trick is the same
screen with fewer cards in the picker than the first. The kitty is filled in by one tap from
the cards left; after the submit the PIN form is in view at once, a wrong PIN stays on it with the sentence, and
both pairs' PINs confirm the deal. This is the suite's one journey tapping every trick of a deal: the other
whole-deal tests (test_entry_screen, test_table_done, test_three_decks) tap the tricks that
show something and send the rest through the recording service. Screenshots in test-output/screenshots/lastmile/ (with SCREENSHOTS=1)."""

from __future__ import annotations

import pytest

from referee.table.recording import deal_entry
from rules.judge import judge
from tests.browser import shots
from tests.browser.helpers import expect, sign_in
from tests.browser.journal_steps import played_elsewhere, stored_once
from tests.browser.taps import field_free, tap_in_view
from tests.browser.test_table_done import plain_record
from tournaments.models import Deal, TableLink
from tournaments.setup.demo import create_demo

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = shots.folder("lastmile")
LATENCY_MS = 1500
SLOW_PLAYS = 4  # the first trick answered late: the next tricks are tapped while its plays are on their way
SENDING_ALL_MS = 120_000  # the slow plays one after another, then the rest of the deal
WORDS = {
    "zh-hans": {
        "links": "桌号链接",
        "new card": "新桌牌",
        "record": "录入",
        "submit": "提交本局",
        "pin": "用双方 PIN 确认",
        "not pin": "不是",
        "confirmed": "已确认",
    },
    "en": {
        "links": "Table links",
        "new card": "New card",
        "record": "Record play",
        "submit": "Submit the deal",
        "pin": "Confirm with both PINs",
        "not pin": "That is not",
        "confirmed": "confirmed",
    },
}
TAPPED_EN = 3  # the English phone's tricks tapped: the slow first one and two while it is on its way
PHONES = [({"width": 360, "height": 640}, "zh-hans", None), ({"width": 390, "height": 844}, "en", TAPPED_EN)]


def shot(page, name: str, language: str, size: dict) -> None:
    shots.save(page, SHOTS / f"{name}-{size['width']}-{language}.png")


def print_card_on_loopback(browser, port: int, language: str, slug: str) -> tuple[str, list[str]]:
    """The director prints table 1's card at the desk opened on http://127.0.0.1: its link and both PINs."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="zh-CN")
    context.add_cookies([{"name": "django_language", "value": language, "url": f"http://127.0.0.1:{port}"}])
    desk = context.new_page()
    desk.goto_path = lambda path: desk.goto(f"http://127.0.0.1:{port}{path}")
    sign_in(desk, f"http://127.0.0.1:{port}", "director")
    desk.goto_path(f"/t/{slug}/desk/rounds/1/")
    desk.get_by_role("link", name=WORDS[language]["links"]).click()
    expect(desk.get_by_test_id("loopback-warning")).to_have_count(0)  # the hall's address is set
    desk.locator("tr[data-table='1']").get_by_role("button", name=WORDS[language]["new card"]).click()
    expect(desk.get_by_test_id("card-link").locator("svg.qr")).to_be_visible()
    url = desk.get_by_test_id("card-url").inner_text().strip()
    pins = desk.get_by_test_id("pin").all_inner_texts()
    context.close()
    return url, pins


def in_view(page, selector: str, size: dict) -> bool:
    return page.eval_on_selector(
        selector,
        """(e, [width, height]) => {
            const r = e.getBoundingClientRect();
            return r.x >= 0 && r.y >= 0 && r.y + r.height <= height && r.x + r.width <= width;
        }""",
        [size["width"], size["height"]],
    )


def tap(page, cards: str, size: dict) -> None:
    """Tap the picker for each card: each button above the record bar, the turn line and the record control in
    view, nothing scrolled (each card's check and tap in one step of the page: tests/browser/taps.py)."""
    try:
        tap_in_view(page, cards, size, others=("#record-button", "[data-bind=turn]"))
    except AssertionError:
        shots.save(page, SHOTS / "failed-needs-a-scroll.png")
        raise


def slow_plays(page) -> list[int]:
    """The first ``SLOW_PLAYS`` plays answered 1.5 s late (the request waits, then goes on), the rest at once
    (the route serves those four only: the rest go straight to the server); returns the list that counts every
    play sent. Every play held would test the same queue for two minutes."""
    sent: list[int] = []
    page.on(
        "request",
        lambda request: sent.append(1) if request.method == "POST" and "/play/" in request.url else None,
    )

    def late(route):
        page.wait_for_timeout(LATENCY_MS)
        route.continue_()

    page.route("**/play/", late, times=SLOW_PLAYS)
    return sent


@pytest.mark.parametrize(("size", "language", "tapped"), PHONES)
def test_a_card_printed_on_the_desks_own_address_opens_the_hall_and_a_slow_whole_deal_loses_no_tap(
    browser, live_server, settings, size, language, tapped
):
    words = WORDS[language]
    port = int(live_server.url.rsplit(":", 1)[1])
    hall = f"http://hall.test:{port}"
    settings.PUBLIC_URL = hall
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "hall.test", "127.0.0.1"]
    demo = create_demo()
    match = demo.tournament.rounds.get(number=1).matches.get(table=1)
    url, pins = print_card_on_loopback(browser, port, language, demo.tournament.slug)
    assert url.startswith(f"{hall}/"), url
    account = TableLink.objects.get(match=match, revoked_at__isnull=True).account
    deal = deal_entry.start_deal(match, account, trump="S", declarer="N")
    record = plain_record(deal)

    # A fresh context (no cookie, no cache, no service worker of the other phone) in the browser that finds
    # the hall's address (hall.test) at the test server (conftest.py).
    context = browser.new_context(viewport=size, locale="zh-CN", has_touch=True)
    try:
        context.set_default_timeout(10_000)
        context.add_cookies([{"name": "django_language", "value": language, "url": hall}])
        context.add_init_script(
            "window.refereeAutoSendMs = 30;"
        )  # the moment before a follow goes, shortened
        page = context.new_page()
        page.goto(url)  # the card's QR code: the hall's address, no account
        page.wait_for_url(f"{hall}/match/{match.pk}/")
        page.goto(f"{hall}/deal/{deal.pk}/")
        first = page.locator(".journal-plain-http")  # plain http: said before the network goes
        expect(first).to_be_visible()
        shot(page, "1-deal-opened-plain-http", language, size)
        first.get_by_role("button").click()  # read: it gives the screen back
        expect(first).to_have_count(0)
        sent = slow_plays(page)
        for n, trick in enumerate(record["tricks"][:tapped]):
            for j, (_seat, cards) in enumerate(trick["plays"]):
                tap(page, cards, size)  # while the plays before it are still on their way
                if j == 0:
                    page.get_by_role("button", name=words["record"], exact=True).click()
                field_free(page)  # taken: the field is free at once
            if n == 2:
                shot(page, "2-tapping-on-while-sending", language, size)
        taps = 4 * len(record["tricks"][:tapped])
        expect(page.locator(".journal-count")).to_have_attribute("data-count", "0", timeout=SENDING_ALL_MS)
        expect(page.locator("#deal-app")).to_have_attribute("data-version", str(taps))
        assert len(sent) == taps  # each play sent once: no tap dropped, none merged into another play
        stored_once(deal, taps)
        plays = played_elsewhere(deal, account, record["tricks"][tapped:]) if tapped else taps
        if tapped:
            page.reload()  # the rest of the deal, from another device of the table
            expect(page.locator("#deal-app")).to_have_attribute("data-version", str(plays))
        assert plays == 4 * len(record["tricks"])
        stored_once(deal, plays)
        shot(page, "3-all-tricks", language, size)

        page.locator("#kitty-fill").click()  # the cards left are the kitty: filled in, checked, saved
        field = page.locator("#kitty-form input[name=kitty]")
        assert sorted(field.input_value().split()) == sorted(record["kitty"].split())
        shot(page, "4-kitty-filled", language, size)
        page.locator("#kitty-form button[type=submit]").click()
        expect(page.locator("#deal-app")).to_have_attribute("data-version", str(plays + 1))

        page.locator("#review-link").click()
        page.get_by_role("button", name=words["submit"]).click()
        page.wait_for_url(f"{hall}/deal/{deal.pk}/review/#pin")  # one tap from the submitted deal
        form = page.get_by_test_id("pin-confirm")
        assert in_view(page, "[data-testid=pin-confirm] button[type=submit]", size)
        wrong = "111111" if pins[1] != "111111" else "222222"
        form.get_by_test_id("pin-NS").fill(pins[0])
        form.get_by_test_id("pin-EW").fill(wrong)
        form.get_by_role("button", name=words["pin"]).click()
        expect(page.get_by_test_id("pin-error")).to_contain_text(words["not pin"])  # still on the form
        assert in_view(page, "[data-testid=pin-error]", size)
        shot(page, "5-wrong-pin", language, size)
        form.get_by_test_id("pin-NS").fill(pins[0])
        form.get_by_test_id("pin-EW").fill(pins[1])
        form.get_by_role("button", name=words["pin"]).click()
        page.wait_for_url(f"{hall}/match/{match.pk}/")
        expect(page.locator(f"tr[data-deal='{deal.number}'] .badge")).to_contain_text(words["confirmed"])
        shot(page, "6-confirmed", language, size)
    finally:
        for page in context.pages:
            page.unroute_all(behavior="ignoreErrors")
        context.close()
    deal = Deal.objects.get(pk=deal.pk)
    assert deal.state == Deal.State.CONFIRMED and deal.confirmed_by_pair == match.pair_ew
    assert deal.attackers_total == judge(record).attackers_points["total"]
