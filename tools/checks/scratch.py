"""The serve checks' scratch server: a folder in /tmp with the site's stores (a new SQLite database, or a new
PostgreSQL database the tool creates and drops), and ``python -m referee.serve`` started on it, as ``make serve``
starts it, on 127.0.0.1."""

from __future__ import annotations

import argparse
import os
import secrets
import shutil
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import dj_database_url

from referee import serve
from referee.serve import free_port
from tools.loadtest.server import Server

BASE_DIR = Path(__file__).resolve().parent.parent.parent
START_SECONDS = 600.0  # a first start migrates a new database: minutes on a busy machine


class ServeProcess(Server):
    """``python -m referee.serve`` (what ``make serve`` runs) in its own process group, on 127.0.0.1 only."""

    def command(self) -> list[str]:
        return [sys.executable, "-m", "referee.serve", "--bind", f"127.0.0.1:{self.port}"]


def scratch_env(folder: Path, database_url: str) -> dict[str, str]:
    """The environment of a server on ``database_url`` with its stores in ``folder``: cache and throttle store,
    static files, backups and a key of its own; everything else is this process's, as ``make serve`` would see
    it."""
    (folder / "cache").mkdir()
    return {
        **os.environ,
        "DATABASE_URL": database_url,
        "CACHE_DIR": str(folder / "cache"),
        "STATIC_ROOT": str(folder / "static"),
        "SECRET_KEY": secrets.token_urlsafe(50),  # else referee.serve writes .secret_key in the repository
        "DEBUG": "0",
        # The site's settings, unless this process was given others (the test suite's: its fast password hasher).
        "DJANGO_SETTINGS_MODULE": os.environ.get("DJANGO_SETTINGS_MODULE", "").strip() or "referee.settings",
    }


def postgresql(url: str, sql: str) -> None:
    """One statement on the PostgreSQL server of ``url``, in its own ``postgres`` database (autocommit)."""
    import psycopg

    config = dj_database_url.parse(url)
    with psycopg.connect(
        dbname="postgres",
        host=config.get("HOST") or None,
        port=config.get("PORT") or None,
        user=config.get("USER") or None,
        password=config.get("PASSWORD") or None,
        autocommit=True,
    ) as link:
        link.execute(sql)  # type: ignore[arg-type]  # a name this tool was given, quoted


@contextmanager
def scratch_database(folder: Path, args: argparse.Namespace) -> Iterator[str]:
    """The scratch database's URL: ``--postgres`` names a PostgreSQL database made now (it must not exist) and
    dropped after; else a SQLite file in ``folder`` (a copy of ``--database``, a migrated one, when given)."""
    if not args.postgres:
        database = folder / "db.sqlite3"
        if args.database:
            shutil.copy(args.database, database)
        yield f"sqlite:///{database}"
        return
    name = dj_database_url.parse(args.postgres).get("NAME", "")
    if not name or '"' in name:
        raise SystemExit(f"--postgres: no database name in {args.postgres!r}")
    postgresql(args.postgres, f'CREATE DATABASE "{name}"')
    try:
        yield args.postgres
    finally:
        postgresql(args.postgres, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextmanager
def scratch_server(args: argparse.Namespace) -> Iterator[tuple[str, Path]]:
    """A server as ``make serve`` starts it, on a scratch folder and database; its URL and folder. This process
    takes the same environment (its settings then name the same stores). The folder goes unless ``--keep`` or a
    failure."""
    folder = Path(tempfile.mkdtemp(prefix="referee-serve-checks-", dir=args.folder))
    with scratch_database(folder, args) as database_url:
        env = scratch_env(folder, database_url)
        os.environ.update(env)
        port = args.port or free_port()
        server = ServeProcess(BASE_DIR, env, port, folder / "server.log", serve.WORKERS, serve.THREADS)
        failed = True
        try:
            server.start(timeout=START_SECONDS)
            yield f"http://127.0.0.1:{port}", folder
            failed = False
        finally:
            server.stop()
            close_connections()
            if failed or args.keep:
                print(f"scratch folder kept: {folder} (the server's log: {server.log_path})")
            else:
                shutil.rmtree(folder, ignore_errors=True)


def close_connections() -> None:
    """This process's database connections closed (a database is dropped only once nobody is connected)."""
    from django.apps import apps

    if apps.ready:
        from django.db import connections

        connections.close_all()
