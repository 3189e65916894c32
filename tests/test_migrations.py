"""Data migrations: stored tournaments keep loading after a change of codes."""

from __future__ import annotations

import sqlite3
import time
from contextlib import contextmanager

import pytest
from django.db import connection, connections
from django.db.migrations.executor import MigrationExecutor

from tests.databases import postgresql_server

BEFORE = ("tournaments", "0003_time_called")
AFTER = ("tournaments", "0004_engine_tie_break_codes")


def migrate(*targets):
    """Migrate to ``targets`` (none: to the latest of every app) and return the models as they were then."""
    executor = MigrationExecutor(connection)
    targets = list(targets) or executor.loader.graph.leaf_nodes()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@contextmanager
def other_database(tmp_path, *, copy: bool = False):
    """The default connection pointed at another database of the suite's own kind (a SQLite file, or a
    PostgreSQL database beside the test database): empty, or a copy of the test database with its rows; dropped
    after. Migrating an empty one up to an old state is a few migrations, and a copy taken down needs no way back
    up, where the test database itself must be taken down and up again."""
    saved_settings, saved = connections.settings["default"], connections["default"]
    postgresql = saved.vendor == "postgresql"
    test_name = saved.settings_dict["NAME"]
    name = f"{test_name}_migrations"[:63] if postgresql else str(tmp_path / "migrations.sqlite3")
    if postgresql:
        saved.close()  # a database is copied only while nobody is connected to it
        with postgresql_server(saved.settings_dict) as cursor:
            if copy:
                leave_alone(cursor, test_name)
            cursor.execute(f'DROP DATABASE IF EXISTS "{name}"')
            cursor.execute(f'CREATE DATABASE "{name}"' + (f' TEMPLATE "{test_name}"' if copy else ""))
    elif copy:
        saved.ensure_connection()
        with sqlite3.connect(name) as target:
            saved.connection.backup(target)
        target.close()
    connections.settings["default"] = {**saved.settings_dict, "NAME": name, "TEST": {}, "CONN_MAX_AGE": 0}
    connections["default"] = connections.create_connection("default")
    try:
        yield
    finally:
        connections["default"].close()
        connections.settings["default"], connections["default"] = saved_settings, saved
        if postgresql:
            with postgresql_server(saved.settings_dict) as cursor:
                cursor.execute(f'DROP DATABASE IF EXISTS "{name}"')


def leave_alone(cursor, database: str) -> None:
    """Nobody else connected to this worker's test database, so that it can be copied. The worker's earlier tests
    may have left an idle session on it: after the browser tests, one whose thread (a live server's) had ended, kept
    open until Python collects its connection — the whole suite on PostgreSQL failed here on it. Each worker has its
    own test database, so these sessions are this process's own and idle. SQLite's copy (a backup of the in-memory
    database) waits for nobody."""
    cursor.execute(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
        [database],
    )
    for _ in range(100):  # the sessions end a moment after they are told to
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = %s", [database])
        if cursor.fetchone()[0] == 0:
            return
        time.sleep(0.05)


@pytest.mark.django_db(transaction=True)
def test_stored_tie_breaks_take_the_engine_codes_and_back(tmp_path):
    with other_database(tmp_path):
        stored_tie_breaks_take_the_engine_codes_and_back()


def stored_tie_breaks_take_the_engine_codes_and_back():
    old = migrate(BEFORE).get_model("tournaments", "Tournament")
    old.objects.create(name="T", slug="t", tie_breaks=["banker_deals", "buchholz", "level_difference"])
    old.objects.create(name="U", slug="u", tie_breaks=[])
    new = migrate(AFTER).get_model("tournaments", "Tournament")
    assert new.objects.get(slug="t").tie_breaks == ["banker_wins", "buchholz", "level_diff"]
    assert new.objects.get(slug="u").tie_breaks == []
    back = migrate(BEFORE).get_model("tournaments", "Tournament")
    assert back.objects.get(slug="t").tie_breaks == ["banker_deals", "buchholz", "level_difference"]


@pytest.mark.django_db
def test_a_migrated_tournament_ranks_by_its_tie_breaks(tournament):
    from tournaments.standings.compute import compute_standings, tie_break_columns

    tournament.tie_breaks = ["banker_wins", "level_diff"]
    tournament.full_clean()
    assert [code for code, _label in tie_break_columns(tournament)] == ["banker_wins", "level_diff"]
    assert compute_standings(tournament) == []


@pytest.mark.django_db(transaction=True)
def test_stored_deals_get_their_start_levels_from_the_fold(match, director, judge, tmp_path):
    """Deals recorded before ``Deal.start_levels`` existed get the fold of the played deals before each."""
    from referee.table.recording import deal_entry, records
    from rules.simulate import simulate_deal
    from tournaments.scoring import fold

    ruleset = match.round.tournament.ruleset
    for seed in range(100):  # a first deal the banker side holds, so the second starts above the start level
        record = {**simulate_deal(ruleset, banker="N", level="2", seed=seed), "ruleset": ruleset}
        first = records.record_deal(match, record, director)
        if first.banker_held:
            break
        first.delete()
    deal_entry.start_deal(match, judge, trump="S")
    expected = [fold.levels_before(d) for d in match.deals.order_by("number")]
    with other_database(tmp_path, copy=True):  # these rows, taken down and up in a copy
        migrate(("tournaments", "0004_engine_tie_break_codes"))
        # The deals read as the models were then: a column added since would be missing from the table.
        then = migrate(("tournaments", "0005_deal_start_levels")).get_model("tournaments", "Deal")
        stored = list(
            then.objects.filter(match_id=match.pk).order_by("number").values_list("start_levels", flat=True)
        )
    assert stored == expected
    assert stored[1] != {"NS": "2", "EW": "2"}
