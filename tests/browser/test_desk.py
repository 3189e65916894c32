"""The public standings in a real browser, in Chinese: the page's script fetches the table again on its own (on
Playwright's clock, no second waited) and shows a pair added since.

The desk's forms (importing a CSV with its preview, pairing and publishing round 1, the standings, finishing the
tournament and the final standings, a round taken back to draft, a bye's points) are server-drawn, with no
script: Django's client walks them, in English and in Chinese (tests/desk/test_pages.py, test_finishing.py,
test_round_page_words.py), and the director's day (test_directors_day) walks the desk in the browser."""

from __future__ import annotations

import pytest

from tests.browser.helpers import expect
from tournaments.models import Pair, Player, Tournament

pytestmark = pytest.mark.django_db(transaction=True)


def test_public_standings_in_chinese_refresh_themselves(page, live_server, screenshot):
    t = Tournament.objects.create(name="春季赛", slug="spring")
    Pair.objects.create(
        tournament=t,
        name="东风队",
        player1=Player.objects.create(name="甲"),
        player2=Player.objects.create(name="乙"),
    )
    page.clock.install()
    page.goto_path("/t/spring/standings/")
    assert page.locator("html").get_attribute("lang") == "zh-hans"
    Pair.objects.create(
        tournament=t,
        name="长城队",
        player1=Player.objects.create(name="丙"),
        player2=Player.objects.create(name="丁"),
    )
    expect(page.locator("table.standings tbody tr")).to_have_count(1)
    with page.expect_response(lambda r: "/standings/" in r.url and r.request.headers.get("x-live") == "1"):
        page.clock.run_for(31_000)
    page.locator("table.standings tbody tr").nth(1).wait_for()
    expect(page.locator("table.standings").get_by_text("长城队")).to_be_visible()
    screenshot(page, "standings-zh")
