"""A new judge on a tablet (820 px) in Chinese and on a phone (390 px) in English walks the judge's flow: no
internal code or seat letter on screen, the typed cards read back before they are sent, undo says what it took
back, the last trick gives way to the kitty and the review, and no page is wider than the screen.

The phone in English, the longer words on the narrower screen, walks every page of the flow; the tablet in
Chinese walks the pages the script draws (the trick entry, its preview, the last trick, the first trick and its
undo) and the match and quick-entry pages whose words it reads, not the server-drawn pages the phone has shown to
fit (the reviews, the deal log, the standings, the round). What the server writes is checked in both languages
on every page of the flow by Django's client (``tests/test_no_codes_on_screen.py``); here is what the browser
shows (the script's drawing, the preview) and what fits the screen."""

from __future__ import annotations

import re

import pytest

from referee.table.recording.words import unreadable_token
from rules.cards import CARD_SYMBOL, CardError, parse_cards
from tests.browser.helpers import expect, sign_in, wait_for_version
from tests.scenes import build_scene
from tests.test_no_codes_on_screen import code_leaks, lone_seats

pytestmark = pytest.mark.django_db(transaction=True)

SIZES = {"tablet": (820, 1180), "phone": (390, 844)}
LANGS = {"zh": "zh-hans", "en": "en"}


@pytest.fixture(params=[("tablet", "zh"), ("phone", "en")], ids=lambda p: f"{p[0]}-{p[1]}")
def judge_page(request, browser, live_server):
    """A page of the given size, logged in as the table's judge, in the given language."""
    size, lang = request.param
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height}, locale="zh-CN")
    context.set_default_timeout(10_000)
    context.add_cookies([{"name": "django_language", "value": LANGS[lang], "url": live_server.url}])
    page = context.new_page()
    page.goto_path = lambda path: page.goto(live_server.url + path)
    page.lang, page.width, page.live_server = lang, width, live_server
    yield page
    context.close()


def look(page, screenshot, label: str) -> str:
    """Save the screen, then check it: no code, no lone seat letter, nothing wider than the screen."""
    screenshot(page, label)
    text = page.inner_text("body")
    assert not code_leaks(text, page.lang), f"{label}: {code_leaks(text, page.lang)}"
    assert not lone_seats(text), f"{label}: {lone_seats(text)}"
    fits(page, label)
    return text


def fits(page, label: str) -> None:
    """Every box outside a scrolling table wrapper lies within the screen; every table sits in such a wrapper."""
    assert page.locator("main table:not(.table-container table)").count() == 0, (
        f"{label}: a table without wrapper"
    )
    selectors = [
        "header",
        "main",
        "main > *",
        "main *:not(.table-container *):not(details:not([open]) *)",
    ]
    boxes = page.evaluate(  # every box in one call: a call per element took most of the test's time
        """(selectors) => selectors.flatMap((selector) => Array.from(document.querySelectorAll(selector), (e) => {
            const r = e.getBoundingClientRect();
            return {selector, tag: e.tagName, cls: e.getAttribute("class"), x: r.x, width: r.width};
        }))""",
        selectors,
    )
    assert boxes, f"{label}: no box read"
    for box in boxes:
        if box["width"] > 0:
            assert box["x"] >= -1 and box["x"] + box["width"] <= page.width + 1, f"{label}: {box}"


def server_reading(typed: str, page) -> str:
    """What the preview must say: the engine's reading of the typed text, card faces as on screen."""
    try:
        cards = parse_cards(typed)
    except CardError:
        bad = unreadable_token(typed)
        return f"“{bad}”不是一张牌"
    return "识别为：" + " ".join(CARD_SYMBOL[c] for c in cards)


def test_the_judges_flow_in_words(judge_page, screenshot):
    page = judge_page
    scene = build_scene()
    zh = page.lang == "zh"
    sign_in(page.context, page.live_server, "judge")

    page.goto_path(f"/match/{scene.played.pk}/")
    text = look(page, screenshot, "1-match")
    long_name = page.locator(".pair-name").first
    assert long_name.get_attribute("title") == scene.played.pair_ns.name

    page.goto_path(f"/deal/{scene.open_deal.pk}/")
    page.locator("#deal-app[data-version]").wait_for(state="attached")
    text = look(page, screenshot, "2-deal-entry")
    assert ("否决" if zh else "challenged by") in text

    # The notation help names the jokers, and the field reads back what it understood before it is sent.
    help_text = page.locator("label[for=cards-input]").inner_text()
    assert (
        "LJ" in help_text
        and "BJ" in help_text
        and ("小王" in help_text or "small joker" in help_text.lower())
    )
    page.fill("#cards-input", "SJ")
    assert page.locator("#cards-preview").inner_text().strip().endswith("♠J")
    page.fill("#cards-input", "LJ")
    assert ("小王" if zh else "small joker") in page.locator("#cards-preview").inner_text().lower()
    page.fill("#cards-input", "SA XZ")
    preview = page.locator("#cards-preview").inner_text()
    assert "“XZ”" in preview and ("不是" in preview if zh else "not a card" in preview), preview
    screenshot(page, "3-preview")
    if page.width == SIZES["tablet"][0] and zh:  # the script reads the notation as the server does
        for typed in ("s10 ♠10 S1010", "SAAK, H55；BJ", "小王大王", "SLJ", "S", "HQQKK"):
            page.fill("#cards-input", typed)
            assert page.locator("#cards-preview").inner_text().strip() == server_reading(typed, page), typed

    every_page = not zh  # the server-drawn pages once, on the phone in English
    if every_page:
        page.goto_path(f"/deal/{scene.open_deal.pk}/review/")
        look(page, screenshot, "4-review")
        page.goto_path(f"/deal/{scene.confirmed.pk}/review/")
        look(page, screenshot, "5-review-confirmed")

    # After the last trick: the kitty and the review, no card entry; the heading counts the tricks played.
    page.goto_path(f"/deal/{scene.complete_deal.pk}/")
    page.locator("#deal-app[data-version]").wait_for(state="attached")
    text = look(page, screenshot, "6-all-tricks")
    assert page.locator("#play-form").is_hidden()
    expect(page.locator("#kitty-form")).to_be_visible()
    expect(page.locator("#review-link")).to_be_visible()
    tricks = scene.complete_deal.tricks.count()
    expect(page.locator("[data-bind=trick-title]")).to_contain_text(str(tricks))
    assert str(tricks + 1) not in page.locator("[data-bind=trick-title]").inner_text()

    page.goto_path(f"/match/{scene.fresh.pk}/quick/")
    text = look(page, screenshot, "7-quick")
    kinds = page.locator("select[name=last_lead] option").all_inner_texts()
    assert ("对子" if zh else "pair") in kinds and "搭档" not in kinds

    page.goto_path(f"/match/{scene.fresh.pk}/deal/new/")
    look(page, screenshot, "8-new-deal")
    page.locator("input[name=declarer][value=W]").check()
    page.locator("label.trump-S").click()
    page.locator("form.form button[type=submit]").click()
    page.wait_for_selector("#deal-app")
    look(page, screenshot, "9-first-trick")
    page.fill("#cards-input", "S7")
    page.press("#cards-input", "Enter")
    wait_for_version(page, 1)
    page.get_by_role("button", name=re.compile("撤销上一手|Undo last play")).click()
    wait_for_version(page, 2)
    undone = page.locator("#message").inner_text()
    assert "♠7" in undone and ("西" in undone if zh else "West" in undone), undone
    look(page, screenshot, "10-undone")

    if every_page:
        slug = scene.tournament.slug
        page.goto_path(f"/t/{slug}/matches/{scene.played.pk}/deals/")
        look(page, screenshot, "11-deal-log")
        page.goto_path(f"/t/{slug}/standings/")
        look(page, screenshot, "12-standings")
        page.goto_path(f"/t/{slug}/rounds/1/")
        look(page, screenshot, "13-round")
