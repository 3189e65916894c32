"""A 6-team zone's match day in a real browser, in Chinese: the home captain hands in a line-up (hidden from
the away captain until theirs is in), the away captain hands in theirs, the three tables are seated, the tables'
results come in and the fixture's page and the zone's table show the team result combined from them."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser import shots
from tests.browser.helpers import login
from tests.teams.scene import captain, league, play
from tournaments.models import TeamMatch
from tournaments.teams import services

pytestmark = pytest.mark.django_db(transaction=True)


def hand_in(page, fixture, team, pairs) -> None:
    for i, pair in enumerate(pairs, 1):
        page.select_option(f"select[name='t{team.pk}-table_{i}']", str(pair.pk))
    page.locator("[data-testid=lineup-form] button[type=submit]").click()


def test_two_captains_line_up_three_tables_and_the_zone_table_combines_their_results(browser, live_server):
    t = league(teams=6, tables=3)
    fixture = TeamMatch.objects.select_related("home", "away").get(
        round__tournament=t, round__number=1, number=1
    )
    captain(fixture.home, "home-cap")
    captain(fixture.away, "away-cap")
    home_pairs, away_pairs = services.roster(fixture.home)[:3], services.roster(fixture.away)[1:4]
    path = f"/t/{t.slug}/fixtures/{fixture.pk}/"

    def captain_page(username):
        context = browser.new_context(viewport={"width": 390, "height": 844}, locale="zh-CN")
        page = context.new_page()
        page.goto_path = lambda p: page.goto(live_server.url + p)
        login(page, username, "captain-pass-1")
        page.goto_path(path)
        return context, page

    home_ctx, home = captain_page("home-cap")
    hand_in(home, fixture, fixture.home, home_pairs)
    expect(home.locator("[data-testid=lineup-status]")).to_contain_text(fixture.home.name)
    expect(home.locator("[data-testid=lineup]")).to_contain_text(home_pairs[0].player1.name)

    away_ctx, away = captain_page("away-cap")
    expect(away.locator("body")).not_to_contain_text(home_pairs[0].player1.name)  # hidden until both are in
    hand_in(away, fixture, fixture.away, away_pairs)
    tables = away.locator("[data-testid=team-tables] tbody tr")
    expect(tables).to_have_count(3)
    expect(tables.nth(0)).to_contain_text(home_pairs[0].name)
    expect(tables.nth(1)).to_contain_text(away_pairs[1].name)

    play(fixture, home_wins=2)  # the tables' results, as their judges confirm them
    home.goto_path(path)
    expect(home.locator("[data-testid=team-result]")).to_contain_text("4 : 2")
    home.goto_path(f"/t/{t.slug}/teams/")
    first = home.locator("[data-testid=zone-table] tbody tr").first
    expect(first).to_contain_text(fixture.home.name)
    shots.save(home, shots.folder("teams") / "zone-table.png", full_page=True)
    home_ctx.close()
    away_ctx.close()
