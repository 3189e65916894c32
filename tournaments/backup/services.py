"""Backups while the site serves: the one service ``manage.py backup``, serve's timer, the round's publication and
the desk's button all call (``take_backup``), and the background start after a round (``backup_after_round``).

Every attempt leaves a ``BackupOutcome`` row: a failure (disk full, a folder that cannot be written, no dump tool)
is shown in red on the desk and the board until a later backup succeeds, never only in a log.
"""

from __future__ import annotations

import errno
import logging
import subprocess
import sys
import time
from pathlib import Path

from django.conf import settings
from django.db import DatabaseError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.backup import files, postgres, reading, sqlite_copy
from tournaments.backup.models import BackupOutcome
from tournaments.models import Round

log = logging.getLogger(__name__)
OUTCOMES_KEPT = 200
Problem = BackupOutcome.Problem


class BackupError(Exception):
    """A backup that failed or cannot be taken; ``message`` is the director's sentence, ``detail`` the system's."""

    status = 503

    def __init__(self, problem: str, detail: str = "") -> None:
        self.problem = problem
        self.message = _("The backup failed.") + " " + str(Problem(problem).label)
        self.detail = detail
        super().__init__(f"{self.message} {detail}".strip())


def _problem_of(exc: BaseException) -> str:
    if isinstance(exc, OSError):
        if exc.errno in (errno.ENOSPC, errno.EDQUOT):
            return Problem.DISK_FULL
        if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS, errno.ENOTDIR, errno.EEXIST):
            return Problem.NOT_WRITABLE
    text = str(exc).lower()
    if "disk is full" in text or "no space" in text:
        return Problem.DISK_FULL
    if isinstance(exc, sqlite_copy.CopyError) and "integrity" in text:
        return Problem.CHECK
    return Problem.OTHER


def _record(reason: str, *, summary: files.Summary | None = None, error: BackupError | None = None) -> None:
    """Keep the attempt's outcome; a database that cannot take even that is logged (the command's exit says it)."""
    try:
        BackupOutcome.objects.create(
            reason=reason,
            ok=error is None,
            file_name=summary.file_name if summary else "",
            summary=summary.line()[:255] if summary else "",
            problem=error.problem if error else "",
            error=error.detail if error else "",
        )
        stale = BackupOutcome.objects.order_by("-id").values_list("id", flat=True)[OUTCOMES_KEPT:]
        BackupOutcome.objects.filter(id__in=list(stale)).delete()
    except DatabaseError:
        log.exception("the backup's outcome could not be recorded")


def _write(kind: str, part: Path) -> tuple[dict[str, int], object]:
    """Write the copy to ``part`` and check it: its counts and newest change."""
    if kind == "sqlite":
        sqlite_copy.copy_database(part)
        counted = sqlite_copy.check(part)
        return counted, sqlite_copy.newest_work_in(part)
    if kind == "pgdump":
        return postgres.dump(part)
    from tournaments.backup.archive import write_site_archive

    gzipped = part.with_name(part.name + ".gz")  # the archive's file is gzipped by its name
    write_site_archive(gzipped)
    gzipped.replace(part)
    with (
        connection.cursor() as cursor
    ):  # what the archive was read from (not one snapshot, unlike the others)
        return reading.counts(cursor), reading.newest_work(cursor)


def _kind() -> str:
    if connection.vendor == "sqlite":
        return "sqlite"
    if postgres.tools_present():
        return "pgdump"
    return "archive"  # every tournament in the portable archive (docs/archive.md), read back by a restore


def take_backup(
    *, to: Path | str | None = None, reason: str = "command", round_tag: str = ""
) -> files.Summary:
    """Copy the live database into the backup folder (``to``, default BACKUP_DIR), check it, name it by the time,
    keep its summary beside it, prune the old ones; raises ``BackupError`` (already recorded) when it fails."""
    directory = files.folder(to)
    started = time.monotonic()
    part: Path | None = None
    try:
        kind = _kind()
        directory.mkdir(parents=True, exist_ok=True)
        now = timezone.now()
        name = files.new_name(kind, now, directory)
        part = directory / f".{name}.part"
        counted, newest = _write(kind, part)
        summary = files.Summary(
            file_name=name,
            kind=kind,
            taken_at=timezone.localtime(now).isoformat(),
            reason=reason,
            round_tag=round_tag,
            counts=counted,
            newest_work=newest.isoformat() if newest else None,  # type: ignore[attr-defined]
            size=part.stat().st_size,
        )
        part.replace(directory / name)  # atomic: a backup is in the folder whole or not at all
        part = None
        summary.seconds = round(time.monotonic() - started, 2)
        files.write_sidecar(directory / name, summary)
        files.prune(directory, settings.BACKUP_KEEP)
    except BackupError as exc:
        _record(reason, error=exc)
        raise
    except Exception as exc:  # any failure is the desk's red line, never a silent one
        error = BackupError(_problem_of(exc), f"{type(exc).__name__}: {exc}")
        log.error("backup failed: %s", error.detail)
        _record(reason, error=error)
        raise error from exc
    finally:
        if part is not None:
            part.unlink(missing_ok=True)
    _record(reason, summary=summary)
    return summary


def backup_argv(reason: str, round_tag: str = "") -> list[str]:
    argv = [sys.executable, str(Path(settings.BASE_DIR) / "manage.py"), "backup", "--reason", reason]
    return argv + (["--round", round_tag] if round_tag else [])


def start_in_background(reason: str, round_tag: str = "") -> None:
    """``manage.py backup`` in a process of its own, detached: the request that asked never waits for it, and
    its failure is the outcome that process records (one that cannot even start is recorded here)."""
    try:
        subprocess.Popen(  # noqa: S603 (our own interpreter and manage.py)
            backup_argv(reason, round_tag),
            cwd=settings.BASE_DIR,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
    except OSError as exc:
        _record(reason, error=BackupError(_problem_of(exc), f"cannot start the backup: {exc}"))


def round_tag(rnd: Round) -> str:
    return f"{rnd.tournament.slug}#{rnd.number}"


def backup_after_round(rnd: Round) -> None:
    """After the round's publication commits (BACKUP_AFTER_ROUND, which ``make serve`` turns on), a backup in
    the background: publishing never waits for it nor fails with it."""
    if not settings.BACKUP_AFTER_ROUND:
        return
    tag = round_tag(rnd)
    transaction.on_commit(lambda: start_in_background(BackupOutcome.Reason.ROUND, tag))
