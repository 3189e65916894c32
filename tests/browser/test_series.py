"""A club's season in a real browser: the director merges a typo on the players page, the public reads the
series' tables and a player's rating chart at phone width (390×844), in Chinese and in English, each page no wider
than the screen (a wide table scrolls in its own box); screenshots in test-output/screenshots/season/ (with
SCREENSHOTS=1). A desktop's width, three times the phone's, is not checked to fit: the pages' tables and chart
are the same markup there, and the accessibility sweep (test_accessibility) opens every page family at desktop
size."""

from __future__ import annotations

import pytest

from tests.browser import shots
from tests.browser.helpers import expect, sign_in
from tests.desk.season_scene import build_season
from tournaments.competition.accounts import create_director
from tournaments.models import Player

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = shots.folder("season")
SIZES = {"phone": {"width": 390, "height": 844}}


def shot(page, label: str) -> None:
    shots.save(page, SHOTS / f"{label}.png", full_page=True)


def fits(page) -> bool:
    """The page is no wider than the screen (a wide table scrolls in its own box)."""
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_the_director_merges_a_typo_then_everyone_reads_the_series_and_a_player(page, live_server):
    director = create_director("td", "director-pass-1")
    season = build_season(director)
    sign_in(page.context, live_server, "td")  # by session cookie: the form is the log-in page's tests'
    page.set_viewport_size(SIZES["phone"])
    page.goto_path("/desk/players/")
    kept, typo = Player.objects.get(name="郑十"), Player.objects.get(name="郑石")
    page.select_option("select[name=duplicate]", str(typo.pk))
    page.select_option("select[name=kept]", str(kept.pk))
    shot(page, "merge-phone-zh")
    page.get_by_role("button", name="合并", exact=True).click()
    expect(page.get_by_test_id("merges")).to_contain_text("郑石 已合并到 郑十")
    assert fits(page)
    shot(page, "merged-phone-zh")
    page.context.clear_cookies()

    series_url, player_url = f"/series/{season.series.slug}/", f"/players/{kept.pk}/"
    for language, labels in (("zh-hans", ("选手", "等级分")), ("en", ("Players", "rating"))):
        page.context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
        for size, viewport in SIZES.items():
            page.set_viewport_size(viewport)
            page.goto_path(series_url)
            players = page.get_by_test_id("series-players")
            expect(page.get_by_role("heading", name=labels[0], exact=True)).to_be_visible()
            expect(players.locator("tbody tr")).to_have_count(8)
            expect(players.locator("tbody tr").last).to_contain_text("郑十")
            expect(page.get_by_test_id("series-pairs").locator("tbody tr")).to_have_count(6)
            assert fits(page), f"series page wider than the {size}"
            shot(page, f"series-{size}-{language}")
            page.goto_path(player_url)
            expect(page.get_by_test_id("rating-chart").locator("circle")).to_have_count(10)
            expect(page.get_by_text(labels[1], exact=True)).to_be_visible()
            assert fits(page), f"player page wider than the {size}"
            shot(page, f"player-{size}-{language}")
