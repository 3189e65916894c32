"""SQLite's side: a consistent copy of the live database while the site writes, checked, and a copy restored.

The copy uses SQLite's online backup API in one step: it reads every page inside one read transaction, which in
WAL mode blocks no writer, so the copy is the database as of one commit (a step-by-step backup would start over
each time another connection wrote). The copy is then made a plain file (``journal_mode=DELETE``: no ``-wal``
beside it to lose), checked with ``PRAGMA integrity_check`` and counted before it is renamed into place.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

from django.db import connection

from tournaments.backup import reading

HEADER = b"SQLite format 3\x00"
COPY_SECONDS = 300  # a copy still locked out after this long is a failure, never a hang


class CopyError(Exception):
    """The copy could not be written or failed its check; the message names why (for the log and the desk)."""


def is_sqlite_file(path: Path) -> bool:
    try:
        with path.open("rb") as handle:
            return handle.read(len(HEADER)) == HEADER
    except OSError:
        return False


def database_file() -> Path | None:
    """The live database's file, or None for an in-memory one (the tests'), which is copied through Django's own
    connection instead."""
    name = str(connection.settings_dict["NAME"])
    if not name or "memory" in name:
        return None
    return Path(name)


def _source() -> tuple[sqlite3.Connection, Callable[[], None]]:
    """A connection to read the live database from, and how to let it go."""
    path = database_file()
    if path is None:
        if connection.in_atomic_block:  # its own write lock would keep the copy waiting for ever
            raise CopyError("an in-memory database is copied outside a transaction only")
        connection.ensure_connection()
        return connection.connection, lambda: None
    source = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=20)
    return source, source.close


def check(path: Path) -> dict[str, int]:
    """Open the copy, run SQLite's integrity check, count its rows; raises ``CopyError`` when it is not whole."""
    try:
        copy = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            verdict = copy.execute("PRAGMA integrity_check").fetchall()
            if verdict != [("ok",)]:
                raise CopyError(f"integrity check: {'; '.join(str(row[0]) for row in verdict[:5])}")
            cursor = copy.cursor()
            return reading.counts(cursor)
        finally:
            copy.close()
    except sqlite3.Error as exc:
        raise CopyError(f"the copy cannot be read: {exc}") from exc


def newest_work_in(path: Path):
    copy = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return reading.newest_work(copy.cursor())
    finally:
        copy.close()


def _deadline() -> Callable[[int, int, int], None]:
    """The backup API waits while the source is locked; this gives up after ``COPY_SECONDS``."""
    end = time.monotonic() + COPY_SECONDS

    def progress(status: int, remaining: int, total: int) -> None:
        if time.monotonic() > end:
            raise CopyError(f"the database stayed locked for {COPY_SECONDS} s")

    return progress


def copy_database(target: Path, source_path: Path | None = None) -> None:
    """Write a consistent copy of the live database (or of ``source_path``) to ``target``, a plain SQLite file."""
    if source_path is not None:
        source = sqlite3.connect(f"file:{source_path}?mode=ro", uri=True, timeout=20)
        release: Callable[[], None] = source.close
    else:
        source, release = _source()
    try:
        copy = sqlite3.connect(target)
        try:
            source.backup(
                copy, progress=_deadline()
            )  # pages=-1: every page in one step, one read transaction
            copy.execute("PRAGMA journal_mode=DELETE")
            copy.commit()
        finally:
            copy.close()
    except sqlite3.Error as exc:
        raise CopyError(str(exc)) from exc
    finally:
        release()
    with target.open("rb") as handle:  # the copy is on the disk before it is renamed into place
        os.fsync(handle.fileno())


def restore_into_live(path: Path) -> None:
    """Replace the live database's contents with the backup's, page by page, through SQLite's backup API (the
    database stays the same file; the site must be stopped). Then back to WAL, as the site runs it."""
    connection.close()
    connection.ensure_connection()
    target = connection.connection
    source = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        source.backup(target)
    finally:
        source.close()
    if database_file() is not None:
        target.execute("PRAGMA journal_mode=WAL")
    connection.close()
