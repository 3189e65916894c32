"""The site's middleware: what every request passes, in the order ``settings.MIDDLEWARE`` runs it.

- The language (``ChineseFirstLocaleMiddleware``). Chinese first: the language is the visitor's choice (cookie),
  else zh-hans — not the browser's header.
- The public API's rate limit (``ApiRateLimit``), before any database read.
- The guards of a club day under abuse (``RequestSizeLimitMiddleware``, ``RequestCheckMiddleware``): a body over
  the limit, a NUL character in a header or the query string, a form in another charset than UTF-8, refused
  before anything reads them.
- The site's pages for what a view answers badly: a wrong method gets the site's 405 page, not an empty answer;
  a write a finished tournament refuses, or a stored ruleset the engine refuses, the site's 409 page
  (``MethodNotAllowedPage``, ``RefusalPages``).
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import unquote_plus

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.middleware.locale import LocaleMiddleware
from django.shortcuts import render
from django.utils import translation
from django.utils.translation import gettext as _

from referee.error_pages import bad_request, method_not_allowed, tournament_finished, unplayable_ruleset
from referee.security import client_address
from rules.ruleset import RulesetError
from tournaments.competition.finishing import TournamentFinished
from tournaments.competition.throttle import API

API_PREFIX = "/api/"


class ChineseFirstLocaleMiddleware(LocaleMiddleware):
    """LocaleMiddleware that ignores Accept-Language on the pages (the API follows it).

    Clubs run the event in Chinese; a spectator's English phone should still see the Chinese page first, with
    English one click away (the switch in the header stores the choice in the language cookie).
    """

    def process_request(self, request):
        code = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
        supported = dict(settings.LANGUAGES)
        if code not in supported and request.path_info.startswith(API_PREFIX):
            # A feed's client has no language switch to click: the API follows its Accept-Language (docs/api.md).
            code = translation.get_language_from_request(request)
        if code not in supported:
            code = settings.LANGUAGE_CODE
        translation.activate(code)
        request.LANGUAGE_CODE = translation.get_language()


class ApiRateLimit:
    """The public API's rate limit: every request under ``/api/`` counted per address with the site's throttle
    (``tournaments.competition.throttle.API``); over the limit, a 429 in JSON with one sentence in the active
    language and ``Retry-After``. It is the project's, not the API's room's, because the throttle is."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not request.path.startswith(API_PREFIX):
            return self.get_response(request)
        who = client_address(request)
        if not API.take(who):
            message = _("Too many requests from this address: wait a minute and ask again.")
            response = JsonResponse({"error": "rate_limited", "message": message}, status=429)
            response["Retry-After"] = str(API.seconds)
            return response
        return self.get_response(request)


# ---------------------------------------------------------------- a club day under abuse


def content_length(request: HttpRequest) -> int:
    """The declared body size; Django reads nothing of a body whose length is missing or not a number."""
    try:
        return max(int(request.META.get("CONTENT_LENGTH") or 0), 0)
    except ValueError:
        return 0


class RequestSizeLimitMiddleware:
    """Refuse (413) a request whose Content-Length is over the limit, before anything reads its body.

    Anyone on the hall's network can reach the site, so a visitor who has not logged in may send only a small
    body (a login form); judges and the director may send more, up to the pair import's file. Sits after the
    authentication middleware (it needs ``request.user``) and before every view and CSRF check (they read the
    body).
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.user.is_authenticated:
            limit = settings.REQUEST_MAX_BYTES_SIGNED_IN
        else:
            limit = settings.REQUEST_MAX_BYTES_ANONYMOUS
        if content_length(request) > limit:
            return render(request, "request_too_large.html", {"limit": limit}, status=413)
        return self.get_response(request)


def nul_in_headers(request: HttpRequest) -> bool:
    """Whether a header carries a NUL character, which HTTP forbids (RFC 9110), so no browser sends one."""
    return any("\x00" in value for key, value in request.META.items() if key.startswith("HTTP_"))


def nul_in_query(request: HttpRequest) -> bool:
    """Whether the query string carries a NUL character (``%00``), which no page's link or form sends. Read off
    the raw string, decoded as ``request.GET`` decodes it, so a request whose view reads no query builds none."""
    return "\x00" in unquote_plus(request.META.get("QUERY_STRING", ""))


FORM = "application/x-www-form-urlencoded"


def form_not_in_utf8(request: HttpRequest) -> bool:
    """Whether a posted form declares a charset other than UTF-8, which Django refuses to read (a form is UTF-8,
    RFC 1866); a charset Python does not know is ignored, as Django ignores it."""
    return (
        request.method == "POST"
        and request.content_type == FORM
        and (request.encoding or "utf-8").lower() != "utf-8"
    )


class RequestCheckMiddleware:
    """Refuse (400, the site's page; JSON for the page scripts) what no browser sends, before anything reads it: a
    NUL character in a header or in the query string, a form posted in another charset than UTF-8.

    PostgreSQL cannot store or compare text with a NUL: django-axes stores a failed log-in's user agent and
    Accept header, and the admin's list filters and search put the query string's values in their queries (a 500
    for anyone on the hall's network, or for the director). A form declaring ``charset=utf-16`` is Django's
    ``BadRequest``, whose debug page then read the form again and failed (a 500 under ``make run``). Sits with the
    size limit: after the language is chosen (the page is in the visitor's language), before every view.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if nul_in_headers(request) or nul_in_query(request) or form_not_in_utf8(request):
            return bad_request(request)
        return self.get_response(request)


# ---------------------------------------------------------------- the site's pages for a view's bad answers


class MethodNotAllowedPage:
    """``require_POST`` and friends answer a wrong method with an empty 405: the site's page instead (Allow kept)."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if response.status_code == 405 and not getattr(response, "streaming", False) and not response.content:
            page = method_not_allowed(request)
            if response.has_header("Allow"):
                page["Allow"] = response["Allow"]
            return page
        return response


class RefusalPages:
    """A refusal raised through whichever view called the service, answered as the site's 409 page with its one
    sentence (JSON for the page scripts), so no view repeats the handling and none answers it with a 500:

    - a desk write to a finished tournament (``finishing.TournamentFinished``);
    - a stored ruleset the engine refuses (saved before it checked every setting, or written to the database
      directly), met by any page or judge's action of its tournament; the director corrects it on the settings
      page."""

    PAGES = ((TournamentFinished, tournament_finished), (RulesetError, unplayable_ruleset))

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        for kind, page in self.PAGES:
            if isinstance(exception, kind):
                return page(request, exception)
        return None
