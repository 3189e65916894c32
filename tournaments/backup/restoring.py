"""A backup restored onto this site's database (``manage.py restore``), with the site stopped.

It restores into an empty database, or over one whose newest work (a deal, a play or a round changed) is not newer
than the backup's; a database holding later work is refused unless the director says ``replace``. Afterwards the
schema is brought up to date (a backup from an older version) and the desk's identity renewed, so every table's
phone sees the change and sends back what the desk lacks.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from django.core.management import call_command
from django.db import connection
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.backup import files, identity, postgres, reading, sqlite_copy
from tournaments.models import Deal


class RestoreError(Exception):
    """A restore refused or failed; ``message`` says why in one sentence."""

    status = 409

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass
class Restored:
    file_name: str
    taken_at: datetime
    counts: dict[str, int]


def _kind(path: Path) -> str:
    if sqlite_copy.is_sqlite_file(path):
        return "sqlite"
    if postgres.is_dump_file(path):
        return "pgdump"
    if path.name.endswith(files.KINDS["archive"]):
        return "archive"  # read by the archive's own checks when it is imported
    raise RestoreError(_("This file is not a backup of this site."))


def taken_at(path: Path) -> datetime:
    """When the backup was taken: its sidecar, else its name, else the file's own time."""
    summary = files.read_sidecar(path)
    if summary and summary.taken():
        return summary.taken()  # type: ignore[return-value]
    return files.time_from_name(path.name) or datetime.fromtimestamp(
        path.stat().st_mtime, tz=timezone.get_current_timezone()
    )


def live_work() -> tuple[bool, datetime | None]:
    """Whether the live database holds any work, and its newest change (an unmigrated one holds none)."""
    if Deal._meta.db_table not in connection.introspection.table_names():
        return False, None
    with connection.cursor() as cursor:
        counted = reading.counts(cursor)
        newest = reading.newest_work(cursor)
    return any(counted.values()), newest


def _backup_newest(path: Path, kind: str, when: datetime) -> datetime:
    """The newest work the backup holds (read from it when it is SQLite, else its sidecar), at worst its time."""
    if kind == "sqlite":
        return sqlite_copy.newest_work_in(path) or when
    summary = files.read_sidecar(path)
    return reading.as_time(summary.newest_work) if summary and summary.newest_work else when  # type: ignore[return-value]


def refusal(path: Path, replace: bool) -> tuple[str, datetime, dict[str, int]]:
    """Check the file and the database before anything is touched: the file's kind, its time and its counts, or
    ``RestoreError``."""
    if not path.is_file():
        raise RestoreError(_("There is no such file."))
    kind = _kind(path)
    vendor = connection.vendor
    if kind == "pgdump" and vendor != "postgresql":
        raise RestoreError(_("A PostgreSQL backup restores only onto PostgreSQL: set DATABASE_URL to it."))
    if kind == "sqlite" and vendor != "sqlite":
        raise RestoreError(
            _("A SQLite backup restores only onto SQLite: leave DATABASE_URL unset or name a file.")
        )
    counted: dict[str, int] = {}
    if kind == "sqlite":
        try:
            counted = sqlite_copy.check(path)
        except sqlite_copy.CopyError as exc:
            raise RestoreError(_("The backup is damaged: %(why)s") % {"why": exc}) from exc
    when = taken_at(path)
    has_work, newest = live_work()
    if has_work and not replace and newest and newest > _backup_newest(path, kind, when):
        local = timezone.localtime(newest).strftime("%Y-%m-%d %H:%M")
        raise RestoreError(
            _(
                "This database holds work from %(when)s, newer than the backup: restore over it only with --replace."
            )
            % {"when": local}
        )
    return kind, when, counted


def restore(path: Path | str, *, replace: bool = False) -> Restored:
    """Restore the backup over the site's database; raises ``RestoreError`` before touching it when refused."""
    path = Path(path)
    kind, when, counted = refusal(path, replace)
    if kind == "archive":
        restore_archive(path)
    elif kind == "sqlite":
        sqlite_copy.restore_into_live(path)
    else:
        try:
            postgres.restore(path)
        except postgres.DumpError as exc:
            raise RestoreError(_("The restore failed: %(why)s") % {"why": exc}) from exc
    if kind != "archive":
        call_command("migrate", interactive=False, verbosity=0)
    identity.renew(restored_from=path.name, backup_taken_at=when)
    if not counted:
        with connection.cursor() as cursor:
            counted = reading.counts(cursor)
    return Restored(path.name, when, counted)


def restore_archive(path: Path) -> None:
    """A site archive (the backup of a PostgreSQL site without ``pg_dump``), on either database: migrated first,
    then every tournament imported and judged again, all or nothing; a tournament the site already holds is
    refused by its address (the archive never overwrites)."""
    from tournaments.backup.archive import ArchiveError, import_archive, read_file

    call_command("migrate", interactive=False, verbosity=0)
    try:
        import_archive(read_file(path))
    except ArchiveError as exc:
        raise RestoreError(exc.message) from exc
