"""The director's side of a simultaneous session (issue 40 item 8) on the desk's boards page: download this
venue's results file, upload another venue's. The same service as ``manage.py export_results`` and
``import_results`` (``duplicate.venues``); only the director of the tournament reaches these (``desk_page``).
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from tournaments.competition.page_guards import desk_page
from tournaments.desk.boards import duplicate_only
from tournaments.duplicate.dealing import MAX_FILE_BYTES
from tournaments.duplicate.movement import DuplicateError
from tournaments.duplicate.venues import dumps_results, import_results
from tournaments.models import Tournament


class ResultsFileForm(forms.Form):
    file = forms.FileField(label=gettext_lazy("another venue's results file"))


@desk_page
@require_POST
def desk_import_results(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    duplicate_only(tournament)
    form = ResultsFileForm(request.POST, request.FILES)
    try:
        if not form.is_valid():
            raise DuplicateError(_("Choose another venue's results file."))
        data = form.cleaned_data["file"].read(MAX_FILE_BYTES + 1)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise DuplicateError(_("This is not a results file the desk can read.")) from None
        venue = import_results(tournament, text, request.user)
    except DuplicateError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request,
            _("%(venue)s's results are imported: %(n)s table results.")
            % {"venue": venue.venue, "n": venue.lines.count()},
        )
    return redirect("desk-boards", tournament.slug)


@desk_page
@require_GET
def desk_export_results(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    duplicate_only(tournament)
    try:
        text = dumps_results(tournament)
    except DuplicateError as exc:
        messages.error(request, exc.message)
        return redirect("desk-boards", tournament.slug)
    response = HttpResponse(text, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{tournament.slug}-results.json"'
    return response
