"""At phone size (390×844), in Chinese and in English: the judge's guide (issue 21, item 9) shows its pictures and
prints on one A4 page; with ``HELP_PICTURES=1`` this module also takes those pictures afresh into ``static/help/``
from the pages as they are. The reopen after submit (item 7), server-drawn forms without a script, is walked by
Django's client in both languages (tests/table/test_reopen_journey.py)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.db import transaction

from referee.table.recording import deal_entry
from tests.browser import shots
from tests.browser.helpers import expect, sign_in, wait_for_version
from tests.table.helpers import flipping_revoke, play_through_service
from tournaments.models import Match
from tournaments.setup.demo import create_demo

pytestmark = pytest.mark.django_db(transaction=True)
PHONE = {"width": 390, "height": 844}
SHOTS = shots.folder("frozen")
HELP = Path(settings.BASE_DIR) / "static" / "help"


def table_one() -> Match:
    return create_demo().tournament.rounds.get(number=1).matches.get(table=1)  # judge1's table, no deal yet


def signed_in(page, live_server, lang: str, who: str) -> None:
    """``who`` signed in by session cookie (the log-in form is the log-in page's tests'), in ``lang``."""
    page.context.clear_cookies()
    page.context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
    sign_in(page.context, live_server, who)


def shot(page, name: str) -> None:
    """A picture of the whole page, with SCREENSHOTS=1 (``shots``)."""
    shots.save(page, SHOTS / f"{name}.png", full_page=True)


def clip(page, first: str, last: str, path: Path, pad: int = 4) -> None:
    """A picture of the page from the top of ``first`` to the bottom of ``last`` (the page is not scrolled, so
    the boxes are page coordinates), the phone's whole width."""
    top = page.locator(first).first.bounding_box()
    bottom = page.locator(last).first.bounding_box()
    y = max(top["y"] - pad, 0)
    height = bottom["y"] + bottom["height"] + pad - y
    page.screenshot(
        path=str(path), full_page=True, clip={"x": 0, "y": y, "width": PHONE["width"], "height": height}
    )


def picture_path(name: str, lang: str) -> list[Path]:
    """Where a picture goes: the shots folder always, ``static/help/`` when asked to refresh the guide's."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    paths = [SHOTS / f"help-{name}-{lang}.png"]
    if os.environ.get("HELP_PICTURES") == "1":
        paths.append(HELP / f"{name}-{lang}.png")
    return paths


def take(page, name: str, lang: str, first: str, last: str) -> None:
    paths = picture_path(name, lang)
    clip(page, first, last, paths[0])
    for extra in paths[1:]:
        extra.write_bytes(paths[0].read_bytes())


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_pictures_of_the_guide_are_the_entry_screens_at_phone_size(page, live_server, lang):
    match = table_one()
    page.set_viewport_size(PHONE)
    signed_in(page, live_server, lang, "judge1")

    deal = deal_entry.start_deal(match, match.judge, trump="H", declarer="N")
    page.goto_path(f"/deal/{deal.pk}/")
    page.wait_for_selector("#deal-app")
    page.fill("#cards-input", "SAAK H55 BJ")
    expect(page.locator("#cards-preview")).to_contain_text("♠A ♠A ♠K ♥5 ♥5")
    take(page, "notation", lang, ".entry-bar", ".entry-bar")  # the typed cards and how they read

    page.context.set_offline(True)
    page.fill("#cards-input", "S3")
    page.press("#cards-input", "Enter")
    expect(page.locator("#journal-box")).to_contain_text("1")  # the play waits on the phone, counted
    take(page, "offline", lang, "#journal-box", ".trick-now")
    page.context.set_offline(False)
    wait_for_version(page, 1)

    deal.delete()  # the picture's play was only for the picture
    record, seat, trick = flipping_revoke("standard", banker="N", level="2", trump="S")
    revoked = deal_entry.start_deal(match, match.judge, trump="S", declarer="N")
    play_through_service(revoked, match.judge, record)
    revoked.refresh_from_db()
    deal_entry.set_kitty(revoked, match.judge, record["kitty"], version=revoked.version)
    page.goto_path(f"/deal/{revoked.pk}/review/")
    take(page, "settle", lang, "#verdict h2", f"li[data-violation='{trick}:{seat}:revoke_suit']")

    key = f"{trick}:{seat}:revoke_suit"
    from referee.table.recording import settling

    with transaction.atomic():  # as the page's request runs it (its lock needs a transaction on PostgreSQL)
        settling.apply_penalty(revoked, match.judge, key)
    revoked.refresh_from_db()
    deal_entry.submit_deal(revoked, match.judge, version=revoked.version)
    signed_in(page, live_server, lang, "judge2")
    page.goto_path(f"/deal/{revoked.pk}/review/")
    take(page, "confirm", lang, "[data-testid=total]", ".actions")
    for name in ("notation", "offline", "settle", "confirm"):
        size = (SHOTS / f"help-{name}-{lang}.png").stat().st_size
        assert size < 60_000, f"{name}: {size} bytes"


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_guide_shows_its_pictures_on_a_phone_and_prints_on_one_a4_page(page, live_server, lang):
    table_one()
    page.set_viewport_size(PHONE)
    page.context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
    page.goto_path("/help/judge/")
    guide = page.get_by_test_id("judge-guide")
    expect(guide).to_contain_text("SAAK" if lang == "en" else "SAAK 即 ♠A ♠A ♠K")
    images = guide.locator("img")
    expect(images).to_have_count(4)
    for i in range(4):
        image = images.nth(i)
        image.scroll_into_view_if_needed()
        expect(image).to_have_js_property("complete", True)
        assert image.evaluate("img => img.naturalWidth") > 0, image.get_attribute("src")
        assert f"-{lang}.png" in image.get_attribute("src")
    shot(page, f"{lang}-guide-phone")
    page.emulate_media(media="print")
    page.set_viewport_size({"width": 726, "height": 1046})  # A4 less its margins, at 96 dpi
    shot(page, f"{lang}-guide-print")
    pdf = page.pdf(format="A4", print_background=True)
    (SHOTS / f"{lang}-guide.pdf").write_bytes(pdf)
    pages = len(re.findall(rb"/Type\s*/Page[^s]", pdf))
    assert pages == 1, f"the guide prints on {pages} pages"
