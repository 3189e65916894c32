"""The backup folder: files named by the time they were taken, each with a small JSON sidecar (its summary) that
lets the desk list them without opening them, and the rule of which are kept.

A backup is ``referee-YYYYMMDD-HHMMSS.sqlite3`` (or ``.pgdump``) in the site's time zone, so a director reads the
time off the name; its sidecar is the same name plus ``.json``. Only names of this shape are listed, served or
pruned: nothing else in the folder is touched.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path

from django.conf import settings
from django.utils import timezone

PREFIX = "referee-"
STAMP = "%Y%m%d-%H%M%S"
KINDS = {"sqlite": ".sqlite3", "pgdump": ".pgdump", "archive": ".tractor.json.gz"}
NAME = re.compile(r"^referee-(\d{8}-\d{6})(?:-(\d+))?\.(sqlite3|pgdump|tractor\.json\.gz)$")
COUNTED = ("tournaments", "matches", "deals", "plays")


@dataclass
class Summary:
    """What a backup holds and when it was taken: the one-line summary printed, kept in the sidecar."""

    file_name: str
    kind: str
    taken_at: str  # ISO 8601 with the offset
    reason: str = "command"
    round_tag: str = ""  # "<slug>#<n>" for the backup taken after that round was published
    counts: dict[str, int] = field(default_factory=dict)
    newest_work: str | None = None  # ISO time of the newest deal, play or round change in the copy
    size: int = 0
    seconds: float = 0.0

    def line(self) -> str:
        """The one-line summary: the file, then what it holds."""
        held = ", ".join(f"{self.counts.get(name, 0)} {name}" for name in COUNTED)
        return f"{self.file_name}: {held}; {self.size / 1e6:.1f} MB in {self.seconds:.1f} s"

    def taken(self) -> datetime | None:
        try:
            return datetime.fromisoformat(self.taken_at)
        except ValueError:
            return None


def folder(to: Path | str | None = None) -> Path:
    return Path(to) if to else Path(settings.BACKUP_DIR)


def new_name(kind: str, at: datetime, directory: Path) -> str:
    """The file's name for a backup taken ``at`` (local time); a second backup in the same second gets ``-2``."""
    stamp = timezone.localtime(at).strftime(STAMP)
    name = f"{PREFIX}{stamp}{KINDS[kind]}"
    n = 2
    while (directory / name).exists():
        name = f"{PREFIX}{stamp}-{n}{KINDS[kind]}"
        n += 1
    return name


def time_from_name(name: str) -> datetime | None:
    """The time a backup's name carries (local time), or None for a name that is not a backup's."""
    found = NAME.match(name)
    if not found:
        return None
    return timezone.make_aware(datetime.strptime(found.group(1), STAMP))


def sidecar(path: Path) -> Path:
    return path.with_name(path.name + ".json")


def write_sidecar(path: Path, summary: Summary) -> None:
    sidecar(path).write_text(json.dumps(asdict(summary), ensure_ascii=False), encoding="utf-8")


def read_sidecar(path: Path) -> Summary | None:
    """The summary kept beside a backup, or None when it is missing or unreadable (a file copied alone)."""
    try:
        data = json.loads(sidecar(path).read_text(encoding="utf-8"))
        return Summary(**data)
    except (OSError, ValueError, TypeError):
        return None


def listed(directory: Path | None = None) -> list[Summary]:
    """Every backup in the folder, newest first (a file without its sidecar is listed by its name alone)."""
    directory = folder(directory)
    try:
        paths = [p for p in directory.iterdir() if NAME.match(p.name) and p.is_file()]
    except OSError:
        return []
    found = []
    for path in paths:
        summary = read_sidecar(path)
        if summary is None:
            when = time_from_name(path.name)
            kind = "pgdump" if path.suffix == ".pgdump" else "sqlite"
            summary = Summary(path.name, kind, when.isoformat() if when else "", size=path.stat().st_size)
        found.append(summary)
    return sorted(found, key=lambda s: (s.taken_at, s.file_name), reverse=True)


def find(name: str, directory: Path | None = None) -> Path | None:
    """The backup of that name in the folder, or None: a name not of a backup's shape is never a path."""
    if not NAME.match(name):
        return None
    path = folder(directory) / name
    return path if path.is_file() else None


def to_prune(backups: list[Summary], keep: int) -> list[str]:
    """The names to delete: all but the newest ``keep`` and, for each round, the newest taken after it."""
    kept = {s.file_name for s in backups[:keep]}
    rounds_seen: set[str] = set()
    for summary in backups:  # newest first
        if summary.round_tag and summary.round_tag not in rounds_seen:
            rounds_seen.add(summary.round_tag)
            kept.add(summary.file_name)
    return [s.file_name for s in backups if s.file_name not in kept]


def prune(directory: Path, keep: int) -> list[str]:
    """Delete the backups (and their sidecars) ``to_prune`` names; returns their names."""
    gone = to_prune(listed(directory), keep)
    for name in gone:
        for path in (directory / name, sidecar(directory / name)):
            path.unlink(missing_ok=True)
    return gone
