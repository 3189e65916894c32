"""The desk's "export the whole tournament" button: the tournament's archive (``tractor-tournament/1``, gzip) as a
download, for its directors (the chief director, its organisation's admins and directors, the site admin)."""

from __future__ import annotations

import io

from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from tournaments.backup.archive.files import dump
from tournaments.backup.archive.writing import archive_of
from tournaments.competition.page_guards import desk_page
from tournaments.models import Tournament
from tournaments.workbook.download import attach

GZIP = "application/gzip"


def archive_name(name: str) -> str:
    """``春季公开赛-20261201.tractor.json.gz``: the tournament's name, the day, what the file is."""
    return f"{name}-{timezone.localdate():%Y%m%d}.tractor.json.gz"


@desk_page
def desk_export_archive(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The same archive as ``manage.py export_tournament``, made by the same service."""
    out = io.BytesIO()
    dump(archive_of([tournament]), out, compress=True)
    response = HttpResponse(out.getvalue(), content_type=GZIP)
    return attach(response, archive_name(tournament.name), archive_name(tournament.slug))
