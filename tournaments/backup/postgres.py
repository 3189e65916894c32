"""PostgreSQL's side: ``pg_dump -Fc`` while the site serves, checked with ``pg_restore --list``; a dump restored.

The rows are counted inside the very snapshot pg_dump copies: a connection of our own opens a repeatable-read
transaction, exports its snapshot, counts, and stays open while ``pg_dump --snapshot`` runs, so the summary is the
dump's and not the database's a moment later. Without pg_dump the backup is the portable archive (item 5's
``tournaments.backup.archive.write_site_archive``) when that exists.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from django.db import connection

from tournaments.backup import reading

MAGIC = b"PGDMP"
TIMEOUT = 3600


class DumpError(Exception):
    """pg_dump or pg_restore failed; the message is theirs (for the log and the desk)."""


def is_dump_file(path: Path) -> bool:
    try:
        with path.open("rb") as handle:
            return handle.read(len(MAGIC)) == MAGIC
    except OSError:
        return False


def tools_present() -> bool:
    return shutil.which("pg_dump") is not None and shutil.which("pg_restore") is not None


def _target() -> tuple[list[str], dict[str, str]]:
    """The connection options the tools take, and their environment (the password never on a command line)."""
    db = connection.settings_dict
    args = ["--dbname", str(db["NAME"])]
    if db.get("HOST"):
        args += ["--host", str(db["HOST"])]
    if db.get("PORT"):
        args += ["--port", str(db["PORT"])]
    if db.get("USER"):
        args += ["--username", str(db["USER"])]
    env = dict(os.environ)
    if db.get("PASSWORD"):
        env["PGPASSWORD"] = str(db["PASSWORD"])
    return args, env


def _run(argv: list[str], env: dict[str, str]) -> str:
    done = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=TIMEOUT, check=False)
    if done.returncode:
        raise DumpError(f"{Path(argv[0]).name}: {(done.stderr or done.stdout).strip()[:500]}")
    return done.stdout


def dump(target: Path) -> tuple[dict[str, int], object]:
    """``pg_dump -Fc`` of the site's database into ``target``; returns the counts and newest change of the rows
    it copied."""
    args, env = _target()
    own = connection.copy()
    try:
        own.ensure_connection()
        own.set_autocommit(False)
        with own.cursor() as cursor:
            cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            cursor.execute("SELECT pg_export_snapshot()")
            snapshot = cursor.fetchone()[0]
            counted = reading.counts(cursor)
            newest = reading.newest_work(cursor)
            _run(["pg_dump", "--format=custom", f"--snapshot={snapshot}", f"--file={target}", *args], env)
        own.rollback()
    finally:
        own.close()
    listing = _run(["pg_restore", "--list", str(target)], env)
    if "TABLE DATA" not in listing:
        raise DumpError("pg_restore --list: the dump holds no table data")
    return counted, newest


def restore(path: Path) -> None:
    """Restore a dump over the site's database, in one transaction (all or nothing)."""
    args, env = _target()
    connection.close()
    _run(
        [
            "pg_restore",
            "--clean",
            "--if-exists",
            "--no-owner",
            "--no-privileges",
            "--single-transaction",
            *args,
            str(path),
        ],
        env,
    )
