"""The clock of a timed match where people look (issue 31 item 4): on the trick-entry page at the table and on the
projector's progress panel, counting to the time limit; none without a limit or once time is called."""

from __future__ import annotations

import datetime as dt
import re

from django.test import Client
from django.urls import reverse
from django.utils import timezone

from referee.table.recording import deal_entry
from tests.table.helpers import as_user
from tournaments.models import Match, Round


def timed(match: Match, minutes: int | None, started_minutes_ago: int = 10) -> Match:
    """The match's tournament with a ``minutes`` limit (None: none), the match started a while ago."""
    tournament = match.round.tournament
    tournament.match_time_limit = minutes
    tournament.save()
    match.started_at = timezone.now() - dt.timedelta(minutes=started_minutes_ago)
    match.state = Match.State.IN_PROGRESS
    match.save()
    return match


def deadline_on(html: str, testid: str) -> dt.datetime | None:
    found = re.search(rf'data-testid="{testid}".*?data-deadline="([^"]+)"', html, re.S)
    return dt.datetime.fromisoformat(found[1]) if found else None


def test_the_trick_entry_page_counts_down_to_the_matchs_time_limit(match, judge):
    timed(match, 45)
    deal = deal_entry.start_deal(match, judge, trump="S", declarer="N")
    match.refresh_from_db()
    html = as_user(judge).get(reverse("deal", args=[deal.pk])).content.decode()
    assert deadline_on(html, "deal-clock") == match.started_at + dt.timedelta(minutes=45)
    assert "限时至" in html


def test_no_clock_on_the_trick_entry_page_without_a_limit_or_once_time_is_called(match, judge):
    timed(match, None)
    deal = deal_entry.start_deal(match, judge, trump="S", declarer="N")
    page = reverse("deal", args=[deal.pk])
    assert deadline_on(as_user(judge).get(page).content.decode(), "deal-clock") is None
    timed(match, 45)
    Match.objects.filter(pk=match.pk).update(time_called_at=timezone.now())
    assert deadline_on(as_user(judge).get(page).content.decode(), "deal-clock") is None


def test_the_projector_shows_when_the_first_table_playing_reaches_the_limit(match, round1, make_pair):
    round1.state = Round.State.PUBLISHED
    round1.save()
    timed(match, 60, started_minutes_ago=20)
    later = Match.objects.create(round=round1, table=2, pair_ns=make_pair(), pair_ew=make_pair())
    timed(later, 60, started_minutes_ago=5)
    match.refresh_from_db()
    html = Client().get(reverse("screen", args=[round1.tournament.slug])).content.decode()
    assert deadline_on(html, "round-clock") == match.started_at + dt.timedelta(minutes=60)


def test_the_projector_has_no_clock_without_a_limit(match, round1):
    round1.state = Round.State.PUBLISHED
    round1.save()
    timed(match, None)
    html = Client().get(reverse("screen", args=[round1.tournament.slug])).content.decode()
    assert 'data-testid="round-clock"' not in html
