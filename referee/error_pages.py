"""The site's answers to a request it refuses as a whole (400, 403, 404, 405, 409, 500): styled pages like every
other, and for the page scripts (``Accept: application/json``) the judges' actions' JSON: ``ok``, an ``error``
code and a one-sentence ``message`` in the active language.

Django calls the ``handler…`` views of ``referee.urls`` (the 404 one when ``DEBUG`` is off), and
``csrf_failure`` for a form sent from an out-of-date page (``CSRF_FAILURE_VIEW``); ``require_POST`` and friends answer
a wrong method with an empty 405, which ``referee.middleware.MethodNotAllowedPage`` replaces by ``method_not_allowed``;
a desk write refused because the tournament is finished reaches ``tournament_finished`` through
``referee.middleware.RefusalPages``, and a page or action meeting a stored ruleset the engine refuses
reaches ``unplayable_ruleset`` through ``referee.middleware.RefusalPages``.
"""

from __future__ import annotations

import re

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template import loader
from django.templatetags.static import static
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _

from referee.table.views import wants_json
from rules.ruleset import RulesetError
from tournaments.competition.access import can_read_tournament
from tournaments.competition.finishing import TournamentFinished
from tournaments.competition.refusals import ruleset_problem
from tournaments.competition.ruleset_settings import setting_label
from tournaments.models import Tournament

TOURNAMENT_PATH = re.compile(r"^/t/(?P<slug>[-a-zA-Z0-9_]{1,80})/")


def refusal(
    request: HttpRequest, status: int, code: str, title: str, message: str, ways_back: list | None = None
) -> HttpResponse:
    """One refused request: JSON for the page scripts, the styled page for people."""
    if wants_json(request):
        return JsonResponse({"ok": False, "error": code, "message": message}, status=status)
    context = {"title": title, "message": message, "ways_back": ways_back or []}
    return render(request, "error.html", context, status=status)


def ways_back(request: HttpRequest) -> list[tuple[str, str]]:
    """Where a lost visitor may go instead: the page they came from (on this site), the tournament the address
    names (when they may read it). The start page is always offered by the template."""
    out = []
    referer = request.headers.get("Referer", "")
    if referer and url_has_allowed_host_and_scheme(referer, {request.get_host()}, request.is_secure()):
        out.append((referer, _("Back to the page you came from")))
    found = TOURNAMENT_PATH.match(request.path)
    if found:
        tournament = Tournament.objects.filter(slug=found["slug"]).first()
        if tournament is not None and can_read_tournament(request.user, tournament):
            label = _("Back to %(name)s") % {"name": tournament.name}
            out.append((reverse("tournament", args=[tournament.slug]), label))
    return out


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return refusal(
        request, 400, "bad_request", _("Bad request"), _("The page sent something the site cannot read.")
    )


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """The refusal's own sentence when the view gave one (``PermissionDenied(message)``), else the general one."""
    given = exception.args[0] if exception is not None and exception.args else ""
    message = given if isinstance(given, str) and given else _("You may not open this page.")
    return refusal(request, 403, "forbidden", _("Not allowed"), message)


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    message = _("There is no such page: the address may be mistyped, or the page is not public.")
    return refusal(request, 404, "not_found", _("Not found"), message, ways_back(request))


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A form sent from a page that is out of date (signed in or out in another tab, a page left open overnight)."""
    message = _(
        "The page was out of date (perhaps you signed in or out in another tab): reload it and try again."
    )
    return refusal(request, 403, "csrf", _("Not allowed"), message, ways_back(request))


def method_not_allowed(request: HttpRequest) -> HttpResponse:
    return refusal(
        request,
        405,
        "method",
        _("Not allowed"),
        _("This address cannot be used that way: use the page's buttons."),
    )


def tournament_finished(request: HttpRequest, exception: TournamentFinished) -> HttpResponse:
    """A write the tournament's finish refuses (409): its one sentence, and the ways back."""
    title = _("The tournament is finished")
    return refusal(request, exception.status, exception.code, title, exception.message, ways_back(request))


def unplayable_ruleset(request: HttpRequest, exception: RulesetError) -> HttpResponse:
    """A page or a judge's action that meets a stored ruleset the engine refuses (saved before the engine checked
    every setting): one sentence naming the setting, 409, instead of a 500 on every tablet."""
    setting, _message = ruleset_problem(exception)
    message = _(
        "This tournament's ruleset cannot be played (%(setting)s): the director corrects it in the settings."
    ) % {"setting": setting_label(setting) if setting else _("preset")}
    title = _("The ruleset needs correcting")
    return refusal(request, 409, "ruleset", title, message, ways_back(request))


def stylesheet() -> str:
    """The site's stylesheet, or '' when the static files' manifest lacks it (not collected yet): the page of last
    resort is drawn without its styles rather than failing, since a failing 500 page keeps Django from logging
    the error it answers."""
    try:
        return static("css/site.css")
    except ValueError:
        return ""


def server_error(request: HttpRequest) -> HttpResponse:
    """The page of last resort: no database, no context processors (whatever failed may fail again)."""
    message = _("Something went wrong on the server. What was saved before is kept; try again.")
    if wants_json(request):
        return JsonResponse({"ok": False, "error": "server", "message": message}, status=500)
    page = loader.get_template("500.html").render({"message": message, "stylesheet": stylesheet()})
    return HttpResponse(page, status=500)
