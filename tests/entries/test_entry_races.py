"""Twenty identical posts of one entry form at once make one entry: the form's key is unique per tournament and
the entries are taken under the tournament's lock, so each post either finds the entry the first made or is
throttled; none makes a second entry and none is a 500."""

from __future__ import annotations

import threading

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from tests.entries.helpers import form_data
from tests.table.conftest import file_db, migrated_file  # noqa: F401 — the fixtures, for SQLite
from tests.threads import in_thread
from tournaments.entries import services
from tournaments.entries.links import own_page_path
from tournaments.models import Entry, Tournament

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def threaded_db(request):
    """A database whose connections in threads queue for writes as in production: PostgreSQL's own (committed
    rows, seen by every thread), or on SQLite a migrated file with the write gate (the in-memory one refuses
    threads with table locks)."""
    if connection.vendor == "sqlite":
        yield request.getfixturevalue("file_db")
    else:
        yield None


POSTS = 20


def test_twenty_identical_posts_at_once_make_one_entry(threaded_db):
    tournament = Tournament.objects.create(name="春季赛", slug="spring-races")
    services.open_entries(tournament, capacity=8)
    data, url = form_data(1), reverse("enter", args=[tournament.slug])
    start = threading.Barrier(POSTS)

    def post():
        client = Client()
        start.wait()
        return client.post(url, data)

    runs = [in_thread(post) for _n in range(POSTS)]
    for thread, _outcome in runs:
        thread.join(30)
    answers = [outcome[0] for _thread, outcome in runs]
    assert not [a for a in answers if isinstance(a, Exception)], answers
    entry = Entry.objects.get()
    page = own_page_path(entry) + "?new=1"
    assert {a.status_code for a in answers} <= {302, 429}
    assert [a["Location"] for a in answers if a.status_code == 302] and all(
        a["Location"] == page for a in answers if a.status_code == 302
    )
