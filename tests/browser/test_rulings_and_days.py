"""Issue 38's "Done when", at a phone's 390×844: the director assigns levels to a match in progress and its table
closes (no new deal; the public match page shows the ruling), and a visitor's fixtures page shows the match day
its address asks for."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from referee.table.recording import records
from tests.browser.helpers import login
from tests.table.helpers import simulated_first
from tests.teams.scene import league
from tournaments.competition.accounts import create_director
from tournaments.setup.demo import create_demo

pytestmark = pytest.mark.django_db(transaction=True)
PHONE = {"width": 390, "height": 844}


def phone(browser, live_server):
    context = browser.new_context(viewport=PHONE, locale="zh-CN")
    context.set_default_timeout(10_000)
    context.add_cookies([{"name": "django_language", "value": "zh-hans", "url": live_server.url}])
    page = context.new_page()
    page.goto_path = lambda path: page.goto(live_server.url + path)
    return context, page


def test_assigned_levels_close_the_table_and_the_public_match_page_shows_the_ruling(browser, live_server):
    demo = create_demo()
    match = demo.tournament.rounds.get(number=1).matches.get(table=1)
    records.record_deal(match, simulated_first(match), match.judge)  # a match in progress
    context, page = phone(browser, live_server)
    try:
        login(page, "director", "demo-director-2026")
        page.goto_path(f"/t/{demo.tournament.slug}/desk/matches/{match.pk}/adjust/")
        page.locator("input[name=kind][value=levels]").check()
        page.select_option("select[name=level_ns]", "6")
        page.select_option("select[name=level_ew]", "5")
        page.fill("input[name=reason]", "双方同意按第二局结束时的级数结束比赛")
        page.locator("form.adjust-form button[type=submit]").click()
        page.goto_path(f"/match/{match.pk}/")
        expect(page.locator(f"a[href='/match/{match.pk}/deal/new/']")).to_have_count(0)
        page.goto_path(f"/match/{match.pk}/deal/new/")
        expect(
            page.locator("form[method=post] select[name=trump], form[method=post] input[name=trump]")
        ).to_have_count(0)
        visitor, public = phone(browser, live_server)
        try:
            public.goto_path(f"/match/{match.pk}/")
            expect(public.locator(".result-box:not(.adjusted)")).to_contain_text("裁判长调整")
            expect(public.get_by_test_id("level-NS")).to_have_text("6")
            expect(public.get_by_test_id("level-EW")).to_have_text("5")
        finally:
            visitor.close()
    finally:
        context.close()


def test_a_visitors_fixtures_page_shows_the_match_day_asked_for(browser, live_server):
    create_director("td", "director-pass-1")
    t = league()
    context, page = phone(browser, live_server)
    try:
        page.goto_path(f"/t/{t.slug}/fixtures/?day=3")
        expect(page.locator("h1")).to_contain_text("第3比赛日")
        expect(page.locator("#day-pick")).to_have_value("3")
    finally:
        context.close()
