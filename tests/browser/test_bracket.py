"""The knockout's bracket page in a real browser on a phone, Chinese and English, the page no wider than the
screen (the bracket scrolls inside its box; a desktop, three times as wide, is the same markup, which the
accessibility sweep opens at desktop size). Screenshots go to test-output/screenshots/knockout/ (with
SCREENSHOTS=1). The desk's bracket and a level match decided from the round's page are server-drawn forms,
walked by Django's client in English and in Chinese (tests/desk/test_knockout_pages.py)."""

from __future__ import annotations

import pytest

from tests.browser import shots
from tests.browser.helpers import expect
from tests.desk.helpers import enter_pairs, finish
from tournaments.checkin.forfeits import publish_round
from tournaments.competition.accounts import create_director
from tournaments.models import Tournament
from tournaments.pairing.services import pair_round
from tournaments.pairing.ties import decide_tie

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = shots.folder("knockout")
NAMES = ["东风队", "长江一队", "黄河队", "泰山队", "珠江队", "昆仑队", "天山队", "西湖队"]
SIZES = {"phone": (390, 844)}


def played_cup(director) -> Tournament:
    """A knockout of eight with a third-place match: the quarter-finals played (table 2 level, decided), the
    semi-finals played, the final round published and not played yet."""
    t = Tournament.objects.create(
        name="春季淘汰赛", slug="cup", format=Tournament.Format.KNOCKOUT, third_place_match=True
    )
    enter_pairs(t, NAMES)
    for number in (1, 2):
        rnd = pair_round(t)
        publish_round(rnd)
        for m in rnd.matches.order_by("table"):
            level = number == 1 and m.table == 2
            finish(m, None if level else m.pair_ns, "7" if level else "A", "7" if level else "9")
            if level:
                decide_tie(m, m.pair_ew_id, "庄家局数多", director)
    publish_round(pair_round(t))
    return t


def shoot(page, name: str) -> None:
    shots.save(page, SHOTS / f"{name}.png", full_page=True)


@pytest.mark.parametrize("size", sorted(SIZES))
def test_the_bracket_page_on_a_phone_in_both_languages(browser, live_server, size):
    director = create_director("td", "director-pass-1")
    t = played_cup(director)
    width, height = SIZES[size]
    for lang in ("zh-hans", "en"):
        context = browser.new_context(viewport={"width": width, "height": height}, locale="zh-CN")
        context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
        page = context.new_page()
        page.goto(f"{live_server.url}/t/{t.slug}/")
        page.get_by_test_id("bracket-link").click()
        expect(page.get_by_test_id("bracket")).to_be_visible()
        final, semis = ("决赛", "半决赛") if lang == "zh-hans" else ("Final", "Semi-finals")
        expect(page.get_by_role("heading", name=f"{semis} · ").first).to_be_visible()
        expect(page.locator(".bracket-round h3").last).to_contain_text(final)
        expect(page.locator(".bracket-line.won")).to_have_count(6)
        expect(page.locator(".bracket-note")).to_contain_text("庄家局数多")
        assert (
            page.evaluate("document.documentElement.scrollWidth") <= width
        )  # the bracket scrolls in its box
        shoot(page, f"bracket-{size}-{lang}")
        context.close()
