"""An archive on disk: JSON, gzip-compressed when the file's name ends in ``.gz`` (read back either way), and the
refusal every step of the archive raises."""

from __future__ import annotations

import datetime as dt
import decimal
import gzip
import json
import uuid
from pathlib import Path
from typing import IO, Any

from django.utils.translation import gettext as _

from tournaments.backup.archive.plan import FORMAT

GZIP_MAGIC = b"\x1f\x8b"
MAX_BYTES = 2 * 1024**3  # a file beyond this is not an archive this site wrote (a 64-pair day is far smaller)


class ArchiveError(Exception):
    """An archive refused (a file that is not one, a slug taken, a verdict that differs); ``message`` is for
    the director (translated), ``status`` for the page."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


def plain(value: Any) -> Any:
    """A value json cannot write as it is: times in full ISO 8601 (microseconds and offset kept, unlike Django's
    encoder, so the order of rows made in one millisecond survives), decimals and UUIDs as text."""
    if isinstance(value, dt.datetime | dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, decimal.Decimal | uuid.UUID):
        return str(value)
    raise TypeError(f"{type(value).__name__} is not JSON serialisable")


def dump(archive: dict, out: IO[bytes], *, compress: bool) -> None:
    text = json.dumps(archive, ensure_ascii=False, default=plain, separators=(",", ":")).encode()
    out.write(gzip.compress(text, compresslevel=6) if compress else text)


def write_file(archive: dict, path: str | Path) -> Path:
    path = Path(path)
    with path.open("wb") as out:
        dump(archive, out, compress=path.name.endswith(".gz"))
    return path


def parse(data: bytes) -> dict:
    """The archive in ``data`` (gzip or not); ArchiveError when it is not a ``tractor-tournament/1`` archive."""
    try:
        if data[:2] == GZIP_MAGIC:
            data = gzip.decompress(data)
        archive = json.loads(data)
    except (OSError, EOFError, ValueError) as exc:
        raise ArchiveError(_("This file is not a tournament archive.")) from exc
    if not isinstance(archive, dict) or not isinstance(archive.get("tournaments"), list):
        raise ArchiveError(_("This file is not a tournament archive."))
    if archive.get("format") != FORMAT:
        raise ArchiveError(
            _("This archive's format is %(found)s; this site reads %(known)s.")
            % {"found": str(archive.get("format"))[:40], "known": FORMAT}
        )
    return archive


def read_file(path: str | Path) -> dict:
    path = Path(path)
    try:
        if path.stat().st_size > MAX_BYTES:
            raise ArchiveError(_("This file is not a tournament archive."))
        return parse(path.read_bytes())
    except OSError as exc:
        raise ArchiveError(_("The archive %(file)s cannot be read.") % {"file": path}) from exc
