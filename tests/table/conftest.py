"""Fixtures of the table's tests: a SQLite file set up as in production, for tests whose clients run in threads
(the in-memory test database shares one cache between threads and refuses them with table locks instead of
queueing them)."""

from __future__ import annotations

import shutil

import pytest

from referee.table.recording import deal_entry
from tests.databases import file_connection, sqlite_template


@pytest.fixture(scope="session")
def migrated_file(tmp_path_factory, django_db_blocker):
    """The run's migrated SQLite file (copied for each test), made once for all workers."""
    with django_db_blocker.unblock():
        return sqlite_template(tmp_path_factory)


@pytest.fixture
def file_db(migrated_file, tmp_path, django_db_blocker):
    path = tmp_path / "db.sqlite3"
    shutil.copy(migrated_file, path)
    with django_db_blocker.unblock(), file_connection(path):
        yield path


@pytest.fixture
def deal(match, judge):
    """A deal begun at the match's table by its judge (spades trump, North declares)."""
    return deal_entry.start_deal(match, judge, trump="S", declarer="N")


@pytest.fixture
def english(client):
    """The test client, reading the site in English."""
    client.cookies["django_language"] = "en"
    return client


@pytest.fixture
def empty_cache():
    """The cache's counters (links and PINs tried) start at nothing."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def card(match, director, empty_cache):
    """Table 1's card issued by the director: its link's token and both pairs' PINs."""
    from tournaments.table_links import services

    return services.issue_card(match, director)


@pytest.fixture
def other_match(round1, make_pair):
    """Table 2 of the same round, with no judge."""
    from tournaments.models import Match

    return Match.objects.create(round=round1, table=2, pair_ns=make_pair(), pair_ew=make_pair())


@pytest.fixture
def file_cache(tmp_path, settings):
    """The production default without Redis: the pages in a file cache (a small one, to cull soon) and the failed
    tries in a SQLite file of their own."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(tmp_path / "cache"),
            "OPTIONS": {"MAX_ENTRIES": 30},
        }
    }
    settings.THROTTLES = {"sqlite": str(tmp_path / "throttles.sqlite3")}
    yield settings.CACHES
