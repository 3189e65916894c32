"""Shared fixtures: a TD, judges and a small tournament built through the same services the site uses."""

from __future__ import annotations

import gc
import os
import tempfile
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connections
from django.test import override_settings
from hypothesis import settings as hypothesis_settings

from tests import databases, server_settings
from tournaments.competition.access import JUDGE_GROUP, add_to_group
from tournaments.competition.accounts import create_director
from tournaments.models import Match, Pair, Player, Round, Tournament
from tournaments.table_links.services import PinHasher

# Hashing passwords at full strength is most of the suite's time; the tests check who may log in, not the hash.
settings.PASSWORD_HASHERS = server_settings.PASSWORD_HASHERS  # the servers the tests start use it too
PinHasher.iterations = 1_000  # the tables' PINs likewise (a round's cards hash two PINs a table)

# Each test process its own cache of the public pages (a shared file cache would mix the workers' databases).
settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
# And its own store of failed tries (tournaments/competition/throttle.py), a SQLite file of the process's own.
settings.THROTTLES = {
    "sqlite": os.path.join(tempfile.gettempdir(), f"referee-test-throttles-{os.getpid()}.sqlite3")
}

# Backups a test takes (the desk's button in a sweep of every form) go under the ignored test output, never
# beside the repository's database.
settings.BACKUP_DIR = Path(__file__).resolve().parent.parent / "test-output" / "backups"

# Timing is for the benchmarks, never the tests: a loaded CI machine must not fail a property test on time.
hypothesis_settings.register_profile("project", deadline=None)
hypothesis_settings.load_profile("project")


LOCALE = Path(__file__).resolve().parent.parent / "locale"


def pytest_configure(config):
    """A fresh clone has the catalogues' .po but not the .mo that Django reads (built, so git-ignored): compile
    them before any test runs, once — in the controller when the run is spread over workers. Django has read its
    catalogues while setting up (before this hook), so they are read again: overriding LOCALE_PATHS resets them."""
    if not hasattr(config, "workerinput") and compile_catalogues():
        with override_settings(LOCALE_PATHS=settings.LOCALE_PATHS):
            pass


def compile_catalogues() -> bool:
    """Each locale/*/LC_MESSAGES/*.po to its .mo when that is missing or older (written whole, then renamed);
    whether any was."""
    compiled = False
    for po in sorted(LOCALE.glob("*/LC_MESSAGES/*.po")):
        mo = po.with_suffix(".mo")
        if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        part = mo.with_name(f"{mo.stem}.{os.getpid()}.mo")  # git-ignored as the .mo is
        polib.pofile(str(po)).save_as_mofile(str(part))
        os.replace(part, mo)
        compiled = True
    return compiled


# Modules whose scene is built once a module and costs seconds: the archive's played and moved tournament, the
# duplicate session's two venues, the demo, the servers started as `make serve`, `make hall` and `make load` start
# them, the URL sweep's tournament with its crawl of every page. xdist's worksteal hands each worker a contiguous
# share of the run, and an idle worker takes the second half of a busy one's queue, from its end: at the head of
# the run such a module is run whole by the first worker and its scene built once; in its place in the alphabet a
# share's end could fall inside it, and the hall (nginx, two app servers, a PostgreSQL database migrated afresh)
# was built by both workers of a clean clone's run (docs/benchmarks.md).
AT_THE_HEAD = (
    "tests/archive/test_archive.py",
    "tests/duplicate/test_duplicate_session.py",
    "tests/test_demo.py",
    "tests/test_hall.py",
    "tests/table/test_serve_checks.py",
    "tests/table/test_load.py",
    "tests/test_hostile_urls.py",
)


def pytest_collection_modifyitems(items):
    """The modules of ``AT_THE_HEAD`` first, in that order, the rest as collected (a stable sort: every worker
    collects the same order, as xdist requires)."""
    rank = {path: i for i, path in enumerate(AT_THE_HEAD)}
    items.sort(key=lambda item: rank.get(item.nodeid.partition("::")[0], len(AT_THE_HEAD)))


def pytest_collection_finish(session):
    """Every object alive once the tests are collected (the modules, Django's apps and URLs, and pypinyin's
    dictionaries, loaded here: 190,000 lists a test would otherwise load on its first Chinese slug) moved out of
    the garbage collector's sight with ``gc.freeze``: each full collection of a test process walked them all
    (3.6 of 32 CPU-s in one process running tests/entries, tests/public and two desk modules; 1.8 s after).
    Nothing made by a test is frozen, so its cycles are collected (and an unraisable exception in a finaliser
    reported) as before."""
    from pypinyin import lazy_pinyin

    lazy_pinyin("升级")
    gc.collect()
    gc.freeze()


@pytest.fixture(scope="session")
def django_db_setup(
    request, django_test_environment, django_db_blocker, django_db_modify_db_settings, tmp_path_factory
):
    """pytest-django's set-up of the test databases, with the run's one migrated template copied for each worker
    instead of migrating each (tests/databases.py); nothing serialized, as no test asks for a serialized
    rollback. ``django_db_modify_db_settings`` gives each worker's test database its own name (``_gw0``…)."""
    from django.test.utils import setup_databases, teardown_databases

    verbosity = request.config.option.verbose
    with django_db_blocker.unblock(), databases.migrations_copied(tmp_path_factory):
        config = setup_databases(verbosity=verbosity, interactive=False, serialized_aliases=set())
    yield
    with django_db_blocker.unblock():
        connections.close_all()
        databases.others_disconnected()
        teardown_databases(config, verbosity=verbosity)


def pytest_sessionfinish(session):
    """The run's PostgreSQL template dropped once every worker is done (by the controller, or the lone process)."""
    if not hasattr(session.config, "workerinput"):
        databases.drop_postgresql_template()


@pytest.fixture(autouse=True)
def _empty_cache():
    """No page cached by an earlier test (whose rows' ids a later test's rows may take again)."""
    from django.core.cache import cache

    from tournaments.competition.throttle import store

    cache.clear()
    store().clear()


@pytest.fixture
def director(db):
    return create_director("td", "director-pass-1")


@pytest.fixture
def make_judge(db):
    def make(username: str = "judge"):
        user = get_user_model().objects.create_user(username=username, password="judge-pass-1")
        add_to_group(user, JUDGE_GROUP)
        return user

    return make


@pytest.fixture
def judge(make_judge):
    return make_judge("judge")


@pytest.fixture
def tournament(db):
    return Tournament.objects.create(name="春季赛", slug="spring", ruleset={"preset": "standard"})


@pytest.fixture
def make_pair(tournament):
    counter = {"n": 0}

    def make(name: str | None = None, t: Tournament | None = None, club: str = "") -> Pair:
        counter["n"] += 1
        n = counter["n"]
        return Pair.objects.create(
            tournament=t or tournament,
            name=name or f"队{n}",
            player1=Player.objects.create(name=f"甲{n}"),
            player2=Player.objects.create(name=f"乙{n}"),
            club=club,
            seed=n,
        )

    return make


@pytest.fixture
def round1(tournament):
    return Round.objects.create(tournament=tournament, number=1, state=Round.State.PUBLISHED)


@pytest.fixture
def match(round1, make_pair, judge):
    return Match.objects.create(round=round1, table=1, pair_ns=make_pair(), pair_ew=make_pair(), judge=judge)
