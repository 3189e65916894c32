"""A table calls the referee from the judge's page (its judge or its device: a form, or ``static/js/calls.js``'s
JSON, sent again from the device when the network returns). The director's queue and ruling are the desk's
(``tournaments.calls``)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.forms import Form
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from referee.table import actions
from referee.table.views import json_response, load_match, same_site_next, wants_json
from tournaments.calls import services as calls
from tournaments.calls.forms import CallForm
from tournaments.duplicate.movement import is_duplicate_match


def first_error(form: Form) -> str:
    return str(next(iter(e for errors in form.errors.values() for e in errors), _("Check the form.")))


@login_required
@require_POST
def table_call(request: HttpRequest, match_id: int) -> HttpResponse:
    """The table calls the referee; a call sent again with its device key is the one already made."""
    match = load_match(request, match_id)
    form = CallForm(request.POST, boards=is_duplicate_match(match))
    status, message, call = 400, "", None
    if not form.is_valid():
        message = first_error(form)
    else:
        try:
            call = calls.raise_call(
                match, request.user, key=actions.request_key(request), **form.cleaned_data
            )
            status, message = 200, _("The referee is called.")
        except calls.CallError as exc:
            status, message = exc.status, exc.message
    if wants_json(request):
        body = {"ok": status == 200, "message": message, "call": call.pk if call else None}
        return json_response(body, status=status)
    (messages.success if status == 200 else messages.error)(request, message)
    return redirect(same_site_next(request) or reverse("match", args=[match.pk]))
