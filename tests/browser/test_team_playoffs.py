"""A 6-team zone's last match day followed by the playoffs, in a real browser, in Chinese: the
director hands in both line-ups of the last league fixture, its table is seated and played, the director draws
the playoffs of the zone's top four at the desk, the bracket page shows the semi-finals; once both are played
the final is made by itself and the bracket shows it, and the screen shows the team panels. The English pages
are the same markup with other words: the Django client reads them (tests/teams/test_playoffs.py,
``test_the_playoffs_page_and_the_screen_read_in_english``)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser import shots
from tests.browser.helpers import sign_in
from tests.teams.scene import hand_in_both, league, play
from tournaments.models import TeamMatch
from tournaments.teams import services

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = shots.folder("teams")
WORDS = {
    "zh-hans": {"playoffs": "季后赛", "semis": "半决赛", "final": "决赛", "zone": "A积分表", "team": "队伍"},
}


def number(team) -> int:
    return int(team.name[1:-1])  # 第1队 is the strongest


def result(fx) -> None:
    play(fx, home_wins=1 if number(fx.home) < number(fx.away) else 0)


@pytest.mark.parametrize("lang", sorted(WORDS))
def test_a_zones_last_match_day_is_followed_by_the_playoffs(browser, live_server, director, lang):
    words = WORDS[lang]
    t = league(teams=6, tables=1)
    fixtures = list(
        TeamMatch.objects.filter(round__tournament=t)
        .select_related("home", "away", "round")
        .order_by("round__number", "number")
    )
    *played, last = fixtures
    for fx in played:
        hand_in_both(fx, director)
        result(fx)

    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="zh-CN")
    context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
    page = context.new_page()
    page.goto_path = lambda p: page.goto(live_server.url + p)
    sign_in(page.context, live_server, "td")  # by session cookie: the form is the log-in page's tests'

    page.goto_path(f"/t/{t.slug}/fixtures/{last.pk}/")
    for team in (last.home, last.away):
        pair = services.roster(team)[0]
        form = page.locator("[data-testid=lineup-form]").filter(
            has=page.locator(f"select[name='t{team.pk}-table_1']")
        )
        form.locator(f"select[name='t{team.pk}-table_1']").select_option(str(pair.pk))
        form.locator("button[type=submit]").click()
    expect(page.locator("[data-testid=team-tables] tbody tr")).to_have_count(1)
    result(last)  # the table's result, as its judges confirm it
    page.goto_path(f"/t/{t.slug}/fixtures/{last.pk}/")
    expect(page.get_by_test_id("team-result")).to_contain_text("2 : 0")

    page.goto_path(f"/t/{t.slug}/desk/teams/")
    form = page.get_by_test_id("playoff-form")
    form.locator("input[name=per_zone]").fill("4")
    form.locator("button[value=playoffs-preview]").click()  # the bracket is shown before it is saved
    expect(page.get_by_test_id("playoff-preview")).to_be_visible()
    page.get_by_test_id("playoff-save").click()
    page.wait_for_url(f"**/t/{t.slug}/playoffs/")
    expect(page.locator("h1")).to_contain_text(words["playoffs"])
    expect(page.locator(".bracket-round h3").first).to_contain_text(words["semis"])
    expect(page.locator(".bracket-round").first.locator(".bracket-line")).to_have_count(4)
    expect(page.locator(".bracket-round").first).to_contain_text("第1队")
    expect(page.locator(".bracket-round").first).to_contain_text("第4队")

    semis = TeamMatch.objects.filter(round__number=t.rounds.count()).select_related("home", "away", "round")
    assert semis.count() == 2
    for fx in semis:
        hand_in_both(fx, director)
        result(fx)  # each finished table commits: the final is made on commit
    page.reload()
    final = page.locator(".bracket-round").last
    expect(final.locator("h3")).to_contain_text(words["final"])
    expect(final.locator(".bracket-line")).to_have_count(2)
    expect(final).to_contain_text("第1队")
    expect(final).to_contain_text("第2队")
    expect(page.get_by_test_id("placings").locator("th").nth(1)).to_have_text(words["team"])
    shots.save(page, SHOTS / f"team-playoffs-{lang}.png", full_page=True)

    page.goto_path(f"/t/{t.slug}/screen/")
    expect(page.get_by_test_id("panel-zone")).to_contain_text(words["zone"])
    context.close()
