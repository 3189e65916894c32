"""A table's QR link on a phone (390×844), in Chinese: the director prints table 1's card, a fresh
browser opens its link and records table 1 alone, a player confirms a submitted deal with their pair's PIN on
the same phone, and once the director revokes the link the phone can no longer record. Screenshots of the card,
the devices page and the PIN confirmation in test-output/screenshots/tablelink/ (with SCREENSHOTS=1).
The English pages are the same markup with other words, read by the Django client: the desk's "Table links",
"New card" and "Revoke" (tests/desk/test_table_links_desk.py), another table's and a revoked link's sentences
(tests/table/test_table_links.py); the English phone's card, PIN form and confirmed deal are
test_table_last_mile's."""

from __future__ import annotations

import pytest

from tests.browser import shots
from tests.browser.helpers import expect, sign_in
from tests.table.helpers import submitted_by
from tournaments.models import Deal, TableLink
from tournaments.setup.demo import create_demo

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = shots.folder("tablelink")
PHONE = {"width": 390, "height": 844}
WORDS = {
    "zh-hans": {
        "links": "桌号链接",
        "new card": "新桌牌",
        "other table": "本设备只能记录它所扫描桌牌的那一桌。",
        "pin": "用双方 PIN 确认",
        "confirmed": "已确认",
        "revoke": "作废",
        "dead": "本设备的桌号链接已失效",
    },
}


def context_in(browser, live_server, language: str, viewport: dict):
    context = browser.new_context(viewport=viewport, locale="zh-CN")
    context.set_default_timeout(10_000)
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    page = context.new_page()
    page.goto_path = lambda path: page.goto(live_server.url + path)
    return context, page


def shot(page, label: str, language: str) -> None:
    shots.save(page, SHOTS / f"{label}-{language}.png", full_page=True)


@pytest.mark.parametrize("language", ["zh-hans"])
def test_a_phone_records_its_table_by_the_qr_link_and_confirms_by_pin(browser, live_server, language):
    words = WORDS[language]
    demo = create_demo()
    slug = demo.tournament.slug
    matches = {m.table: m for m in demo.tournament.rounds.get(number=1).matches.all()}

    desk_context, desk = context_in(browser, live_server, language, PHONE)
    sign_in(desk, live_server.url, "director")
    desk.goto_path(f"/t/{slug}/desk/rounds/1/")
    desk.get_by_role("link", name=words["links"]).click()
    desk.locator("tr[data-table='1']").get_by_role("button", name=words["new card"]).click()
    card = desk.get_by_test_id("card-link")
    expect(card.locator("svg.qr")).to_be_visible()
    url = desk.get_by_test_id("card-url").inner_text().strip()
    pins = desk.get_by_test_id("pin").all_inner_texts()
    shot(desk, "table-card", language)

    phone_context, phone = context_in(browser, live_server, language, PHONE)
    phone.goto(url)
    phone.wait_for_url(f"**/match/{matches[1].pk}/")
    expect(phone.get_by_role("heading").first).to_be_visible()
    phone.goto_path(f"/match/{matches[2].pk}/")
    expect(phone.locator("body")).to_contain_text(words["other table"])

    deal = submitted_by(matches[1], TableLink.objects.get(match=matches[1], revoked_at__isnull=True).account)
    phone.goto_path(f"/match/{matches[1].pk}/")
    phone.get_by_test_id("pin-link").click()
    phone.wait_for_url(f"**/deal/{deal.pk}/review/#pin")
    form = phone.get_by_test_id("pin-confirm")
    form.get_by_test_id("pin-NS").fill(pins[0])  # both pairs' PINs: no pair confirms its own result alone
    form.get_by_test_id("pin-EW").fill(pins[1])
    shot(phone, "pin-confirm", language)
    form.get_by_role("button", name=words["pin"]).click()
    phone.wait_for_url(f"**/match/{matches[1].pk}/")
    expect(phone.locator(f"tr[data-deal='{deal.number}'] .badge")).to_contain_text(words["confirmed"])
    assert Deal.objects.get(pk=deal.pk).confirmed_by_pair == matches[1].pair_ew

    desk.goto_path(f"/t/{slug}/desk/rounds/1/links/")
    expect(desk.locator("tr[data-table='1']").get_by_test_id("devices")).to_contain_text("Chrome")
    shot(desk, "devices", language)
    desk.locator("tr[data-table='1']").get_by_role("button", name=words["revoke"]).click()
    phone.reload()
    expect(phone.locator("body")).to_contain_text(words["dead"])
    shot(phone, "revoked", language)
    phone_context.close()
    desk_context.close()
