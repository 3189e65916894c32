"""Issue 31 item 4 in a browser: table 1's judge calls time after the limit, in both languages. Under the
``sudden_death`` time rule the match page then says both sides play at A with the side ahead banking first and
a new deal can start; under the ``points`` rule the match ends by the time limit.

The browser clicks each rule's button once, sudden death in Chinese and the points rule in English; the pages'
words in both languages for both rules, with the levels and the match's state, are Django client tests
(``tests/table/test_time_rules.py``). The judge logs in by session cookie."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from referee.table.recording import records
from tests.browser.helpers import expect, sign_in
from tests.table.helpers import simulated_first
from tournaments.models import Match
from tournaments.setup.demo import create_demo

pytestmark = pytest.mark.django_db(transaction=True)

WORDS = {
    "zh-hans": {
        "sudden_death": "时间到：双方定为打A",
        "overtime": "时间到：双方定为打A，领先方先坐庄",
        "new deal": "新的一局",
        "points": "时间已到：结束本场比赛",
        "ended": "结束方式：时间到",
    },
    "en": {
        "sudden_death": "Time is up: both sides to A",
        "overtime": "Time is up: both sides play at A, the side ahead banks first",
        "new deal": "New deal",
        "points": "Time is up: end the match",
        "ended": "ended by: time limit",
    },
}


def timed_table(time_rule: str) -> Match:
    """The demo's table 1 on the standard preset with ``time_rule`` and a 30-minute limit, one deal played well
    inside it, the limit passed since."""
    demo = create_demo()
    t = demo.tournament
    t.ruleset, t.match_time_limit = {"preset": "standard", "time_rule": time_rule}, 30
    t.save()
    match = Match.objects.get(round__tournament=t, round__number=1, table=1)
    now = timezone.now()
    director = User.objects.get(username="director")
    records.record_deal(
        match,
        simulated_first(match),
        director,
        started_at=now - dt.timedelta(minutes=40),
        finished_at=now - dt.timedelta(minutes=35),
    )
    match.refresh_from_db()
    match.started_at = now - dt.timedelta(minutes=40)
    match.save()
    return match


@pytest.mark.parametrize("language", ["zh-hans"])
def test_time_called_in_sudden_death_plays_on_at_a(page, live_server, screenshot, language):
    match = timed_table("sudden_death")
    words = WORDS[language]
    page.context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    sign_in(page.context, live_server, match.judge.username)
    page.goto_path(f"/match/{match.pk}/")
    page.get_by_role("button", name=words["sudden_death"]).click()
    expect(page.get_by_test_id("overtime")).to_have_text(words["overtime"])
    for side in ("NS", "EW"):
        expect(page.get_by_test_id(f"level-{side}")).to_have_text("A")
    page.get_by_role("link", name=words["new deal"], exact=True).click()
    expect(page.get_by_test_id("overtime")).to_have_text(words["overtime"])
    screenshot(page, f"new-deal-{language}")
    match.refresh_from_db()
    assert match.state == Match.State.IN_PROGRESS


@pytest.mark.parametrize("language", ["en"])
def test_time_called_under_the_points_rule_ends_the_match(page, live_server, screenshot, language):
    match = timed_table("points")
    words = WORDS[language]
    page.context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    sign_in(page.context, live_server, match.judge.username)
    page.goto_path(f"/match/{match.pk}/")
    page.get_by_role("button", name=words["points"]).click()
    expect(page.locator(".result-box")).to_contain_text(words["ended"])
    screenshot(page, f"ended-{language}")
    match.refresh_from_db()
    assert (match.state, match.ended_by) == (Match.State.FINISHED, "time")
