"""Issue 38 item 11: the director's writes made twice at once stand once — six identical "assigned levels"
posts leave one adjustment, two forfeits one (so withdrawing it leaves none in force), six "new series" posts
one series. Each post runs in a thread of its own, with a connection of its own: on a SQLite file as in
production, or on the suite's PostgreSQL database."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from tests.table.test_draft_and_concurrency import in_threads, table
from tournaments.adjusted import awarding as adjusting
from tournaments.competition.accounts import create_director
from tournaments.models import Adjustment, Match, Series

# PostgreSQL: the suite's own database, committed (each thread reads what the others wrote).
pytestmark = [] if connection.vendor == "sqlite" else [pytest.mark.django_db(transaction=True)]


@pytest.fixture
def shared_db(request):
    """A database every thread shares: on SQLite a file as in production (the in-memory one is per thread)."""
    if connection.vendor == "sqlite":
        return request.getfixturevalue("file_db")
    return None


def test_six_identical_assigned_levels_at_once_leave_one_adjustment(shared_db):
    _judge, match = table()
    director = create_director("td", "director-pass-1")

    def post(_i):
        return adjusting.award(match, director, kind="levels", level_ns="6", level_ew="5", reason="判定").pk

    kept = in_threads(6, post)
    assert Adjustment.objects.filter(match=match, withdrawn_at__isnull=True).count() == 1
    assert set(kept) == {Adjustment.objects.get().pk}


def test_two_forfeits_at_once_leave_one_and_withdrawing_it_leaves_none_in_force(shared_db):
    _judge, match = table()
    director = create_director("td", "director-pass-1")
    in_threads(2, lambda _i: adjusting.award(match, director, kind="forfeit", side="EW", reason="缺席"))
    assert Adjustment.objects.filter(match=match).count() == 1
    adjusting.withdraw(Adjustment.objects.get(), director)
    assert Match.objects.get(pk=match.pk).forfeited_by == ""


def test_six_new_series_posts_at_once_make_one_series(shared_db):
    director = create_director("td", "director-pass-1")
    clients = []
    for _ in range(6):
        client = Client(raise_request_exception=False)
        client.force_login(director)
        clients.append(client)
    fields = {"name": "春季系列赛", "points": "10 8 6", "best_of": "", "is_public": "on"}
    statuses = in_threads(6, lambda i: clients[i].post(reverse("desk-series-new"), fields).status_code)
    assert Series.objects.count() == 1 and 500 not in statuses
