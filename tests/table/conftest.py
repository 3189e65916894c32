"""Fixtures of the table's tests: a SQLite file set up as in production, for tests whose clients run in threads
(the in-memory test database shares one cache between threads and refuses them with table locks instead of
queueing them)."""

from __future__ import annotations

import shutil

import pytest
from django.core.management import call_command
from django.db import connections

from referee.config import sqlite_options
from referee.table.recording import deal_entry


@pytest.fixture(scope="session")
def migrated_file(tmp_path_factory, django_db_blocker):
    """A migrated SQLite file (copied for each test), made once per module."""
    path = tmp_path_factory.mktemp("robust") / "template.sqlite3"
    with django_db_blocker.unblock(), file_connection(path):
        call_command("migrate", verbosity=0, interactive=False)
    return path


class file_connection:
    """Point the default database at ``path`` for this thread and every new one, then put it back."""

    def __init__(self, path) -> None:
        self.path = path

    def __enter__(self):
        self.saved_settings = connections.settings["default"]
        self.saved_connection = connections["default"]
        # SQLite with the production options, whichever database the suite itself runs on.
        connections.settings["default"] = {
            **self.saved_settings,
            "ENGINE": "referee.sqlite",  # as in production: with the write gate
            "NAME": str(self.path),
            "OPTIONS": sqlite_options(),
            "CONN_MAX_AGE": 0,
            "TEST": {},
        }
        connections["default"] = connections.create_connection("default")
        return self

    def __exit__(self, *exc) -> None:
        connections["default"].close()
        connections.settings["default"] = self.saved_settings
        connections["default"] = self.saved_connection


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
