"""One migrated database per test run, copied for each test worker, instead of migrating once per worker.

Migrating is mostly Django rendering the models of each migration's state (seconds of CPU, whatever the database),
and a run used to do it once per worker for the test database, again per worker for the SQLite file the table's
threaded tests copy, and twice more for the load test's and the two servers' files. Now one template is migrated
(by `make test` beside its lint, else by the first worker to ask, the others waiting): a SQLite file
(``sqlite_template``) copied into each worker's in-memory test database with SQLite's backup, and on PostgreSQL a database ``test_<name>_template`` that each
worker's test database is created from (``CREATE DATABASE … TEMPLATE``); the controller drops it at the end. Both
are made by Django's own ``migrate`` command, so the test databases hold exactly what migrating gives, rows of the
data migrations and ``post_migrate`` included. Every run starts afresh: nothing is reused from an earlier run."""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from unittest import mock

from django.core import management
from django.db import connections

from referee.config import sqlite_options


def shared_folder(tmp_path_factory) -> Path:
    """The run's temporary folder that all its workers share (pytest-xdist gives each a folder inside it)."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


@contextmanager
def lock(path: Path) -> Iterator[None]:
    """One process at a time across the run's workers (a file made exclusively; no third-party lock needed)."""
    while True:
        try:
            handle = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
            break
        except FileExistsError:
            time.sleep(0.05)
    try:
        yield
    finally:
        os.close(handle)
        path.unlink()


def once(folder: Path, name: str, make: Callable[[], None]) -> None:
    """``make()`` done by the first worker to ask, the others waiting for it; a failure is every asker's."""
    done = folder / f"{name}.done"
    with lock(folder / f"{name}.lock"):
        if not done.exists():
            make()
            done.touch()


def migrate() -> None:
    """Django's migrate on the default connection, as the test runner calls it."""
    management.call_command("migrate", verbosity=0, interactive=False, run_syncdb=True)


class file_connection:
    """Point the default database at the SQLite file ``path`` for this thread and every new one (with the
    production engine and options, whichever database the suite itself runs on), then put it back."""

    def __init__(self, path) -> None:
        self.path = path

    def __enter__(self):
        self.saved_settings = connections.settings["default"]
        self.saved_connection = connections["default"]
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


# `make test` migrates the run's template beside the lint, before the workers start, and names it here: the first
# worker to need it no longer migrates while the others wait (10 s of a core idle at the start of every run).
MADE_AHEAD = "REFEREE_MIGRATED_SQLITE"


def making(ahead: Path) -> Path:
    """The mark ``make test-fast`` leaves while it makes the template beside the workers' start (removed when
    done, made or not)."""
    return ahead.with_name(ahead.name + ".making")


def sqlite_template(tmp_path_factory) -> Path:
    """The run's migrated SQLite file (production engine and options), made once for all workers: the one
    ``make test`` made ahead for this run (``MADE_AHEAD``), or that ``make test-fast`` is making while the
    workers start and collect (waited for), else by the first worker to ask."""
    ahead = Path(os.environ.get(MADE_AHEAD) or "/nonexistent")
    give_up = time.monotonic() + 120  # a mark left by an interrupted run is not waited for forever
    while not ahead.is_file() and making(ahead).exists() and time.monotonic() < give_up:
        time.sleep(0.1)
    if ahead.is_file():
        return ahead
    folder = shared_folder(tmp_path_factory)
    path = folder / "migrated.sqlite3"

    def make() -> None:
        make_sqlite_template(path)

    once(folder, "migrated.sqlite3", make)
    return path


def make_sqlite_template(path: Path) -> None:
    """Migrate a new SQLite file at ``path`` as the tests' template is made (production engine and options)."""
    with file_connection(path):
        migrate()


@contextmanager
def postgresql_server(config: dict) -> Iterator:
    """A cursor (autocommit) on the PostgreSQL server's own database, to create and drop the others."""
    import psycopg

    with psycopg.connect(
        dbname="postgres",
        host=config["HOST"] or None,
        port=config["PORT"] or None,
        user=config["USER"] or None,
        password=config["PASSWORD"] or None,
        autocommit=True,
    ) as link:
        yield link.cursor()


def postgresql_template_name(config: dict) -> str:
    return f"test_{config['NAME']}_template"[:63]


def postgresql_template(tmp_path_factory) -> str:
    """The run's migrated PostgreSQL database, made once for all workers; its name."""
    config = connections["default"].settings_dict
    name = postgresql_template_name(config)

    def make() -> None:
        with postgresql_server(config) as cursor:
            cursor.execute(f'DROP DATABASE IF EXISTS "{name}"')
            cursor.execute(f'CREATE DATABASE "{name}"')
        saved_settings, saved = connections.settings["default"], connections["default"]
        connections.settings["default"] = {**saved_settings, "NAME": name, "TEST": {}, "CONN_MAX_AGE": 0}
        connections["default"] = connections.create_connection("default")
        try:
            migrate()
        finally:
            connections["default"].close()  # nobody may be connected to a template while it is copied
            connections.settings["default"], connections["default"] = saved_settings, saved

    once(shared_folder(tmp_path_factory), name, make)
    return name


def others_disconnected() -> None:
    """Before a worker drops its PostgreSQL test database: any other session still on it ended. A thread a test
    started (a live server's, a race's) may leave its connection to the garbage collector, and PostgreSQL refuses
    to drop a database someone is on ("being accessed by other users": an error at the end of a run that passed)."""
    connection = connections["default"]
    if connection.vendor != "postgresql":
        return
    config = connection.settings_dict
    with postgresql_server(config) as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
            [config["NAME"]],
        )


def drop_postgresql_template() -> None:
    """The run's PostgreSQL template gone (the controller, at the end of the run)."""
    config = connections["default"].settings_dict
    if connections["default"].vendor == "postgresql":
        with postgresql_server(config) as cursor:
            cursor.execute(f'DROP DATABASE IF EXISTS "{postgresql_template_name(config)}"')


@contextmanager
def migrations_copied(tmp_path_factory) -> Iterator[None]:
    """While Django sets up the test databases, its ``migrate`` becomes a copy of the run's template."""
    original = management.call_command
    vendor = connections["default"].vendor
    template: Path | str = (
        postgresql_template(tmp_path_factory) if vendor == "postgresql" else sqlite_template(tmp_path_factory)
    )
    folder = shared_folder(tmp_path_factory)

    def call_command(name, *args, **options):
        if name != "migrate":
            return original(name, *args, **options)
        connection = connections[options.get("database", "default")]
        if connection.vendor == "postgresql":
            config, test_name = connection.settings_dict, connection.settings_dict["NAME"]
            connection.close()
            with lock(folder / "clone.lock"), postgresql_server(config) as cursor:
                cursor.execute(f'DROP DATABASE IF EXISTS "{test_name}"')
                cursor.execute(f'CREATE DATABASE "{test_name}" TEMPLATE "{template}"')
        else:
            connection.ensure_connection()
            with sqlite3.connect(template) as source:
                source.backup(connection.connection)
            source.close()
        return None

    with mock.patch.object(management, "call_command", call_command):
        yield


@contextmanager
def module_transaction(django_db_blocker) -> Iterator[None]:
    """A module's scene built once in a transaction rolled back at the module's end, as tests/test_hostile_urls.py
    builds its world: each test runs in its own savepoint inside it, so what a test writes is undone before the
    next, and the scene's rows are there for every test of the module (names apart from the conftest's)."""
    from django.test import TestCase

    with django_db_blocker.unblock():
        atomics = TestCase._enter_atomics()
        try:
            yield
        finally:
            TestCase._rollback_atomics(atomics)


if __name__ == "__main__":
    # `python -m tests.databases FILE`: the run's template made ahead (the Makefile's `test`), by the code the
    # workers would run, under the settings the suite's servers use (the site's, with the suite's hasher).
    import sys

    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.server_settings")
    django.setup()
    target = Path(sys.argv[1])
    partial = target.with_name(target.name + ".partial")  # named only once whole: a failed one is never used
    for stale in (target, partial, *(partial.with_name(partial.name + end) for end in ("-wal", "-shm"))):
        stale.unlink(missing_ok=True)
    make_sqlite_template(partial)
    partial.rename(target)
    # the write gate's lock file (referee.sqlite) of the partial name
    partial.with_name(partial.name + ".gate").unlink(missing_ok=True)
