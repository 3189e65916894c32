"""Data migrations: stored tournaments keep loading after a change of codes."""

from __future__ import annotations

from contextlib import contextmanager

import pytest
from django.db import connection, connections
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.loader import MigrationLoader

from tests.databases import postgresql_server

BEFORE = ("tournaments", "0003_time_called")
AFTER = ("tournaments", "0004_engine_tie_break_codes")
BEFORE_0005, AFTER_0005 = AFTER, ("tournaments", "0005_deal_start_levels")


def migrate(*targets):
    """Migrate to ``targets`` (none: to the latest of every app) and return the models as they were then."""
    executor = MigrationExecutor(connection)
    targets = list(targets) or executor.loader.graph.leaf_nodes()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@contextmanager
def other_database(tmp_path):
    """The default connection pointed at an empty database of the suite's own kind (a SQLite file, or a
    PostgreSQL database beside the test database); dropped after. Migrating an empty one up to an old state is a
    few migrations, where the test database would have to be taken down through every later one and up again."""
    saved_settings, saved = connections.settings["default"], connections["default"]
    postgresql = saved.vendor == "postgresql"
    test_name = saved.settings_dict["NAME"]
    name = f"{test_name}_migrations"[:63] if postgresql else str(tmp_path / "migrations.sqlite3")
    if postgresql:
        with postgresql_server(saved.settings_dict) as cursor:
            cursor.execute(f'DROP DATABASE IF EXISTS "{name}"')
            cursor.execute(f'CREATE DATABASE "{name}"')
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


# The rows the data migration 0005 reads (a match's round and tournament, its deals and their penalties) and
# those they point to, in the order they can be inserted.
READ_BY_0005 = (
    *("auth.User", "tournaments.Player", "tournaments.Tournament", "tournaments.Pair", "tournaments.Round"),
    *("tournaments.Match", "tournaments.Deal", "tournaments.Penalty"),
)


@pytest.mark.django_db(transaction=True)
def test_stored_deals_get_their_start_levels_from_the_fold(match, director, judge, tmp_path):
    """Deals recorded before ``Deal.start_levels`` existed get the fold of the played deals before each.

    The deals are recorded by the site's own services in the test database, then copied, as the models were before
    0005 (without the column), into an empty database migrated only that far (``auth`` to its latest, for the users
    they point to); migrating it forward to 0005 adds the column and fills it. Taking a copy of the test database
    down through every later migration of every app instead cost Django half a minute of rendering states."""
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
    before = [*(node for node in MigrationLoader(None).graph.leaf_nodes() if node[0] == "auth"), BEFORE_0005]
    then = MigrationLoader(connection).project_state(before).apps
    rows = {label: list(then.get_model(label).objects.values()) for label in READ_BY_0005}
    with other_database(tmp_path):
        migrate(*before)
        for label, values in rows.items():
            then.get_model(label).objects.bulk_create(then.get_model(label)(**row) for row in values)
        assert "start_levels" not in {f.name for f in then.get_model("tournaments", "Deal")._meta.fields}
        deal = migrate(AFTER_0005).get_model("tournaments", "Deal")
        stored = list(
            deal.objects.filter(match_id=match.pk).order_by("number").values_list("start_levels", flat=True)
        )
    assert len(rows["tournaments.Deal"]) == 2 and stored == expected
    assert stored[1] != {"NS": "2", "EW": "2"}
