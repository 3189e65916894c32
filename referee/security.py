"""A club day under load and abuse: the client's address, the login lock-out page, the request size limit and
headers no client sends."""

from __future__ import annotations

from collections.abc import Callable

from axes.backends import AxesStandaloneBackend
from axes.helpers import get_client_username
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import AuthenticationForm
from django.db.models import Field
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from referee.proxies import address_of


def client_address(request: HttpRequest) -> str:
    """The visitor's address for login throttling, the throttles and the logs.

    Behind a reverse proxy (``BEHIND_PROXY=1``) every request comes from the proxy, so the address the proxy
    saw is the last one in X-Forwarded-For (deploy/nginx replaces the header with it; a proxy that appends puts
    it last; earlier entries come from the client and can be forged). The header is believed only when the
    request comes from a trusted proxy: a client that reaches an app server directly counts as itself.
    """
    return address_of(request.META)


def attempted_username(request: HttpRequest, credentials: dict | None = None) -> str | None:
    """The user name a log-in tried, as django-axes counts and stores it (``AXES_USERNAME_CALLABLE``): cut to the
    longest an account's name can be.

    Django's log-in forms show that length but do not check it, and axes stores the name in 255 characters: a
    longer one was a 500 on PostgreSQL, and the guess went uncounted. A longer name names no account, so
    counting it under its first characters locks out no one who exists.
    """
    name = credentials.get("username") if credentials else request.POST.get("username")
    if not isinstance(name, str):
        return name
    model = get_user_model()
    field = model._meta.get_field(model.USERNAME_FIELD)
    return name[: field.max_length] if isinstance(field, Field) else name


def lockout_parameters(request: HttpRequest, credentials: dict | None = None) -> list[str]:
    """What a log-in's failures are counted by (``AXES_LOCKOUT_PARAMETERS``): its account and its address.

    Once the request has signed that very account in, only its account: axes clears the counts these name
    (``AXES_RESET_ON_SUCCESS``), so a success clears its own account's failures and no other's. Counting by
    address too cleared every account's failures from that address: a captain's log-in between guesses let
    anyone at that table guess the director's password without end.
    """
    user = getattr(request, "user", None)
    if (
        user is not None
        and user.is_authenticated
        and user.get_username() == get_client_username(request, credentials)
    ):
        return ["username"]
    return ["username", "ip_address"]


class LoginThrottleBackend(AxesStandaloneBackend):
    """django-axes' check, for log-ins that come with a request.

    A log-in without one (a shell, a management command, the test client's ``login``) is nobody on the network
    guessing passwords, so it is left to the next backend instead of failing.
    """

    def authenticate(self, request, username=None, password=None, **kwargs):
        if request is None:
            return None
        return super().authenticate(request, username=username, password=password, **kwargs)


def lockout_response(request: HttpRequest, original_response=None, credentials=None) -> HttpResponse:
    """The login page again, with the lock-out message above the form (django-axes' AXES_LOCKOUT_CALLABLE)."""
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    context = {
        "form": AuthenticationForm(request),
        "next": request.POST.get("next", request.GET.get("next", "")),
        "locked_minutes": minutes,
    }
    return render(request, "registration/login.html", context, status=429)


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
    """Whether the query string carries a NUL character (``%00``), which no page's link or form sends."""
    return any(
        "\x00" in name or any("\x00" in value for value in values) for name, values in request.GET.lists()
    )


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
            from referee.error_pages import bad_request  # it reads the views, which read the models

            return bad_request(request)
        return self.get_response(request)
