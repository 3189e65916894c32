"""The site's answers to a request it refuses as a whole (400, 403, 404, 405, 500): styled pages like every other,
and for the page scripts (``Accept: application/json``) the judges' actions' JSON: ``ok``, an ``error`` code and
a one-sentence ``message`` in the active language.

Django calls the ``handler…`` views of ``referee.urls`` when ``DEBUG`` is off; ``require_POST`` and friends answer
a wrong method with an empty 405, which ``referee.middleware.MethodNotAllowedPage`` replaces by ``method_not_allowed``.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template import loader
from django.utils.translation import gettext as _

from referee.views import wants_json


def refusal(request: HttpRequest, status: int, code: str, title: str, message: str) -> HttpResponse:
    """One refused request: JSON for the page scripts, the styled page for people."""
    if wants_json(request):
        return JsonResponse({"ok": False, "error": code, "message": message}, status=status)
    return render(request, "error.html", {"title": title, "message": message}, status=status)


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return refusal(
        request, 400, "bad_request", _("Bad request"), _("The page sent something the site cannot read.")
    )


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return refusal(request, 403, "forbidden", _("Not allowed"), _("You may not open this page."))


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return refusal(request, 404, "not_found", _("Not found"), _("There is no such page."))


def method_not_allowed(request: HttpRequest) -> HttpResponse:
    return refusal(
        request,
        405,
        "method",
        _("Not allowed"),
        _("This address cannot be used that way: use the page's buttons."),
    )


def server_error(request: HttpRequest) -> HttpResponse:
    """The page of last resort: no database, no context processors (whatever failed may fail again)."""
    message = _("Something went wrong on the server. What was saved before is kept; try again.")
    if wants_json(request):
        return JsonResponse({"ok": False, "error": "server", "message": message}, status=500)
    return HttpResponse(loader.get_template("500.html").render({"message": message}), status=500)
