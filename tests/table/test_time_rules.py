"""The ruleset's time rule at the table: calling time under ``sudden_death`` puts both sides at A and the match
plays on; under ``points`` the match ends and the standings score it 2 / 1–1 whatever the event's points."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from referee.table.recording import deal_entry, records
from rules.ranks import RANK_INDEX
from rules.seats import side_of
from tests.table.helpers import as_user, simulated_first
from tournaments.models import Match
from tournaments.scoring import errors, fold
from tournaments.standings.compute import compute_standings

pytestmark = pytest.mark.django_db


def timed_match(match, director, time_rule: str, **tournament):
    """The match's tournament on the standard preset with ``time_rule`` and a 30-minute limit, one deal played
    and finished well inside it, the limit passed since; returns the deal's verdict result."""
    t = match.round.tournament
    t.ruleset = {"preset": "standard", "time_rule": time_rule}
    t.match_time_limit = 30
    for key, value in tournament.items():
        setattr(t, key, value)
    t.save()
    now = timezone.now()
    deal = records.record_deal(
        match,
        simulated_first(match),
        director,
        started_at=now - dt.timedelta(minutes=40),
        finished_at=now - dt.timedelta(minutes=35),
    )
    match.refresh_from_db()
    match.started_at = now - dt.timedelta(minutes=40)
    match.save()
    return deal, deal.verdict["result"]


def side_ahead(result) -> str | None:
    ns, ew = RANK_INDEX[result["levels_after"]["NS"]], RANK_INDEX[result["levels_after"]["EW"]]
    return None if ns == ew else "NS" if ns > ew else "EW"


def test_calling_time_in_sudden_death_puts_both_sides_at_a_and_the_next_deal_starts(match, judge, director):
    deal, result = timed_match(match, director, "sudden_death")
    state = fold.call_time(match, judge)
    assert state.overtime and not state.over
    match.refresh_from_db()
    assert fold.match_summary(match)["overtime"]  # manage.py match_state says so too
    assert (match.state, match.ended_by, match.level_ns, match.level_ew) == (
        Match.State.IN_PROGRESS,
        "",
        "A",
        "A",
    )
    ahead = side_ahead(result)
    if ahead is not None:
        assert side_of(state.banker) == ahead  # the side ahead banks first
    deal.refresh_from_db()
    assert deal.start_levels == {
        "NS": "2",
        "EW": "2",
    }  # the deal before the call was played at its own levels
    with translation.override("zh-hans"), pytest.raises(errors.RecordingError, match="比赛继续"):
        fold.call_time(match, judge)
    second = deal_entry.start_deal(match, judge, trump="S")
    assert (second.number, second.level, second.start_levels) == (2, "A", {"NS": "A", "EW": "A"})
    assert second.banker == state.banker


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("zh-hans", "时间到：双方定为打A，领先方先坐庄"),
        ("en", "Time is up: both sides play at A, the side ahead"),
    ],
)
def test_the_match_page_says_the_match_plays_on_at_a_after_time(match, judge, director, language, words):
    timed_match(match, director, "sudden_death")
    client = as_user(judge)
    client.cookies["django_language"] = language
    before = client.get(reverse("match", args=[match.pk])).content.decode()
    button = "时间到：双方定为打A" if language == "zh-hans" else "Time is up: both sides to A"
    assert button in before and words not in before
    client.post(reverse("match-call-time", args=[match.pk]))
    page = client.get(reverse("match", args=[match.pk])).content.decode()
    assert words in page and 'data-testid="overtime"' in page
    for side in ("NS", "EW"):
        assert f'data-testid="level-{side}">A<' in page
    new_deal = client.get(reverse("new_deal", args=[match.pk])).content.decode()
    assert words in new_deal
    match.refresh_from_db()
    assert match.state == Match.State.IN_PROGRESS


@pytest.mark.parametrize(
    ("language", "button", "ended"),
    [
        ("zh-hans", "时间已到：结束本场比赛", "结束方式：时间到"),
        ("en", "Time is up: end the match", "ended by: time limit"),
    ],
)
def test_the_match_page_ends_the_match_when_time_is_called_under_the_points_rule(
    match, judge, director, language, button, ended
):
    """The page's button and the ended match's line in each language. The button is a plain form (no script), so
    the post here is what a browser's click sends; this was also a browser test."""
    timed_match(match, director, "points")
    client = as_user(judge)
    client.cookies["django_language"] = language
    before = client.get(reverse("match", args=[match.pk])).content.decode()
    assert button in before and ended not in before
    client.post(reverse("match-call-time", args=[match.pk]))
    page = client.get(reverse("match", args=[match.pk])).content.decode()
    assert ended in re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", page)) and button not in page
    match.refresh_from_db()
    assert (match.state, match.ended_by) == (Match.State.FINISHED, "time")


def test_calling_time_under_the_points_rule_scores_two_and_one_whatever_the_events_points(
    match, judge, director
):
    _deal, result = timed_match(match, director, "points", points_win=3, points_draw=2)
    fold.call_time(match, judge)
    match.refresh_from_db()
    assert (match.state, match.ended_by) == (Match.State.FINISHED, "time")
    ahead = side_ahead(result)
    assert match.winner == (match.pair_of(ahead) if ahead else None)  # equal levels: a draw, not the banker's
    points = {line.pair.pk: line.match_points for line in compute_standings(match.round.tournament)}
    ns, ew = match.pair_ns.pk, match.pair_ew.pk
    expected = {None: (1, 1), "NS": (2, 0), "EW": (0, 2)}[ahead]
    assert (points[ns], points[ew]) == expected


def test_calling_time_under_the_higher_level_rule_scores_the_events_points(match, judge, director):
    _deal, result = timed_match(match, director, "higher_level", points_win=3, points_draw=2)
    fold.call_time(match, judge)
    match.refresh_from_db()
    points = {line.pair.pk: line.match_points for line in compute_standings(match.round.tournament)}
    assert sorted(points.values()) == [0, 3]  # a win (the banker side takes equal levels) worth the event's 3


def test_a_new_deal_after_the_limit_in_sudden_death_asks_for_time_to_be_called_first(match, judge, director):
    timed_match(match, director, "sudden_death")
    with (
        translation.override("zh-hans"),
        pytest.raises(errors.RecordingError, match="请先在比赛页面宣布时间到"),
    ):
        deal_entry.start_deal(match, judge, trump="S")
    fold.call_time(match, judge)
    assert deal_entry.start_deal(match, judge, trump="S").level == "A"


def test_a_new_deal_after_the_limit_under_the_higher_level_rule_is_refused_as_before(match, judge, director):
    timed_match(match, director, "higher_level")
    with translation.override("en"), pytest.raises(errors.RecordingError, match="no new deal may start"):
        deal_entry.start_deal(match, judge, trump="S")


def test_the_trick_entry_page_says_the_match_plays_on_at_a_after_time(match, judge, director):
    timed_match(match, director, "sudden_death")
    fold.call_time(match, judge)
    second = deal_entry.start_deal(match, judge, trump="S")
    with translation.override("zh-hans"):
        page = as_user(judge).get(reverse("deal", args=[second.pk])).content.decode()
    assert 'data-testid="overtime"' in page and "时间到：双方打A，继续比赛" in page
    assert 'data-testid="deal-clock"' not in page  # no clock once time is called


def test_the_trick_entry_page_has_no_overtime_note_inside_the_limit(match, judge):
    t = match.round.tournament
    t.ruleset, t.match_time_limit = {"preset": "standard", "time_rule": "sudden_death"}, 30
    t.save()
    deal = deal_entry.start_deal(match, judge, trump="S", declarer="N")
    page = as_user(judge).get(reverse("deal", args=[deal.pk])).content.decode()
    assert 'data-testid="overtime"' not in page and 'data-testid="deal-clock"' in page


@pytest.mark.parametrize("time_rule", ["higher_level", "sudden_death"])
def test_the_new_deal_page_after_the_limit_says_why_at_once_and_shows_no_form(
    match, judge, director, time_rule
):
    timed_match(match, director, time_rule)
    page = as_user(judge).get(reverse("new_deal", args=[match.pk])).content.decode()
    assert 'data-testid="time-up"' in page and 'name="trump"' not in page
