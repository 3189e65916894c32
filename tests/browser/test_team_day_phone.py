"""The team day on a 390×844 phone: a captain hands in a line-up on the match day before the deadline and reads
why there is no form after it; the kiosk's tablet link checks a pair in with no director's session and opens
nothing else; the trick entry's four-colour switch can be tapped above the record bar; the team pages fit the
phone's width (screenshots under test-output/screenshots/)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.utils import timezone

from referee.table.recording import deal_entry
from tests.browser.helpers import expect, login
from tests.teams.scene import captain, hand_in_both, league, play_league, two_zones
from tournaments.checkin.kiosk import issue_kiosk
from tournaments.league.playoffs import start_playoffs
from tournaments.models import Pair, TeamMatch
from tournaments.setup.demo import create_demo
from tournaments.table_links.services import make_pin
from tournaments.teams import services

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def phone(browser, live_server):
    """A fresh phone-sized page, its context closed after the test (an open page's timers and requests would
    go on running through the module's later tests)."""
    context = browser.new_context(viewport=PHONE, locale="zh-CN", has_touch=True)
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.goto_path = lambda path: page.goto(live_server.url + path)
    yield page
    context.close()


def overflow(page) -> int:
    """How far the page reaches past the phone's width (0: it fits)."""
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


def test_a_captain_hands_in_on_the_match_day_and_reads_why_after_the_deadline(
    phone, live_server, director, screenshot
):
    t = league(teams=6, tables=3)
    first, second = TeamMatch.objects.filter(round__tournament=t, round__number=1).order_by("number")[:2]
    today = timezone.localdate()
    TeamMatch.objects.filter(pk=first.pk).update(
        date=today, lineup_deadline=timezone.now() + dt.timedelta(hours=1)
    )
    TeamMatch.objects.filter(pk=second.pk).update(
        date=today, lineup_deadline=timezone.now() - dt.timedelta(minutes=5)
    )
    captain(first.home, "cap-1")
    captain(second.home, "cap-2")
    page = phone
    login(page, "cap-1", "captain-pass-1")
    page.goto_path(f"/t/{t.slug}/fixtures/{first.pk}/")
    for i, pair in enumerate(services.roster(first.home)[:3], 1):
        page.select_option(f"select[name='t{first.home.pk}-table_{i}']", str(pair.pk))
    page.locator("[data-testid=lineup-form] button[type=submit]").click()
    expect(page.locator("[data-testid=lineup-status]")).to_contain_text(first.home.name)
    assert overflow(page) <= 0
    screenshot(page, "before-deadline")

    page.context.clear_cookies()
    login(page, "cap-2", "captain-pass-1")
    page.goto_path(f"/t/{t.slug}/fixtures/{second.pk}/")
    expect(page.locator("[data-testid=lineup-late]")).to_contain_text("只有裁判长还能提交")
    expect(page.locator("[data-testid=lineup-form]")).to_have_count(0)
    screenshot(page, "after-deadline")


def test_the_kiosk_link_checks_a_pair_in_without_a_directors_session_and_opens_nothing_else(
    phone, live_server, director, tournament, make_pair, screenshot
):
    pair: Pair = make_pair()
    pin = make_pin(pair, director)
    token = issue_kiosk(tournament, director)
    page = phone
    page.goto_path(f"/t/{tournament.slug}/check-in/{token}/")
    expect(page.locator("[data-testid=kiosk-header]")).to_contain_text(tournament.name)
    assert page.locator("a[href*='/desk/'], a[href*='/admin/'], a[href*='/login/']").count() == 0
    page.select_option("select[name=pair]", str(pair.pk))
    page.fill("input[name=pin]", pin)
    page.locator("form.check-in-tablet button[type=submit]").click()
    expect(page.locator(".messages")).to_contain_text(pair.name)
    assert overflow(page) <= 0
    screenshot(page, "kiosk")
    page.goto_path(f"/t/{tournament.slug}/desk/check-in/")
    assert "/login/" in page.url  # the tablet is nobody: the desk asks for a login


def test_the_four_colour_switch_clears_the_record_bar_and_the_call_reasons_fit_a_thumb(
    phone, live_server, db
):
    demo = create_demo()
    match = demo.tournament.rounds.get(number=1).matches.get(table=1)
    deal = deal_entry.start_deal(match, match.judge, trump="S", declarer="N")
    client = Client()
    client.force_login(match.judge)
    page = phone
    page.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    page.goto_path(f"/deal/{deal.pk}/")
    page.wait_for_selector("#deal-app[data-version]")
    switch = page.locator("[data-deck-switch]")
    switch.scroll_into_view_if_needed()
    switch.click()  # Playwright refuses a click the record bar would take
    expect(switch).to_have_attribute("aria-pressed", "true")
    page.goto_path(f"/match/{match.pk}/")  # the call for the referee: reasons a thumb can hit
    page.locator("details.call-referee summary").click()
    reason = page.locator(".call-reason").first
    assert reason.bounding_box()["height"] >= 44
    assert page.locator(".call-reason input[type=radio]").first.bounding_box()["width"] >= 20


def test_the_team_pages_and_a_drawn_playoff_bracket_fit_a_phones_width(
    phone, live_server, director, screenshot
):
    """A league's team pages with long names and venues, and another league's playoff bracket once drawn (two
    tournaments, one phone)."""
    t = league(teams=6, tables=3)
    for team in t.teams.all():  # a real league's names: long ones
        team.name = f"上海浦东新区桥牌俱乐部{team.name}"
        team.save()
    TeamMatch.objects.filter(round__tournament=t).update(venue="上海市浦东新区世纪大道一百号体育馆三楼")
    fixture = TeamMatch.objects.select_related("home", "away").get(
        round__tournament=t, round__number=1, number=1
    )
    hand_in_both(fixture, director)
    drawn = two_zones()
    play_league(drawn, director)
    start_playoffs(drawn, 2, "crossover", third_place=True)
    page = phone
    for name, path in [
        ("tables", f"/t/{t.slug}/teams/"),
        ("team", f"/t/{t.slug}/teams/{fixture.home.pk}/"),
        ("fixtures", f"/t/{t.slug}/fixtures/"),
        ("fixture", f"/t/{t.slug}/fixtures/{fixture.pk}/"),
        ("playoffs", f"/t/{t.slug}/playoffs/"),
        ("playoffs-drawn", f"/t/{drawn.slug}/playoffs/"),
    ]:
        page.goto_path(path)
        screenshot(page, name)
        assert overflow(page) <= 0, name
