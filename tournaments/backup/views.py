"""The desk's backups page: the "备份" button (a backup now), the backups in the folder and the last outcome.

Any director of the tournament may take a backup: it only adds a file. Only the site's admin (a superuser) may
download one, because a backup is the whole site's database — every organisation's tournaments, accounts and
password hashes — not this tournament's; a director takes their own tournament away with its archive instead.
"""

from __future__ import annotations

from typing import cast

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from tournaments.backup import files
from tournaments.backup.models import BackupOutcome
from tournaments.backup.notice import backup_state
from tournaments.backup.services import BackupError, take_backup
from tournaments.competition.page_guards import desk_page
from tournaments.models import Tournament

LISTED = 20


def may_download(user) -> bool:
    """A whole-site backup leaves the machine only in the site admin's hands."""
    return bool(getattr(user, "is_superuser", False))


@desk_page
@require_http_methods(["GET", "POST"])
def desk_backups(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """GET: the backups and the last outcome; POST: take one now (the button), then show where it went."""
    if request.method == "POST":
        try:
            summary = take_backup(reason=BackupOutcome.Reason.DESK)
        except BackupError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(
                request,
                _(
                    "Backup taken: %(tournaments)s tournaments, %(matches)s matches, %(deals)s deals, "
                    "%(plays)s plays."
                )
                % {name: summary.counts.get(name, 0) for name in files.COUNTED},
            )
        return redirect("desk-backups", slug=tournament.slug)
    return render(
        request,
        "tournaments/backup/backups.html",
        {
            "tournament": tournament,
            "backups": files.listed()[:LISTED],
            "backup": backup_state(),
            "may_download": may_download(request.user),
        },
    )


@desk_page
@require_GET
def desk_backup_download(request: HttpRequest, tournament: Tournament, name: str) -> HttpResponse:
    """One backup file, for the site admin only (403 for any other director: it holds every organisation)."""
    if not may_download(request.user):
        raise PermissionDenied
    path = files.find(name)
    if path is None:
        raise Http404
    # streamed, not read into memory; the desk's guard types its views as returning HttpResponse
    return cast(HttpResponse, FileResponse(path.open("rb"), as_attachment=True, filename=path.name))
