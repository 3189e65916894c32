"""A club day under load and abuse: the client's address, the login lock-out page, the request size limit and
headers no client sends."""

from __future__ import annotations

from collections.abc import Callable

from axes.backends import AxesStandaloneBackend
from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def client_address(request: HttpRequest) -> str:
    """The visitor's address for login throttling.

    Behind a reverse proxy (``BEHIND_PROXY=1``) every request comes from the proxy, so the address the proxy
    saw is the last one it appended to X-Forwarded-For; earlier entries come from the client and can be forged.
    """
    if settings.BEHIND_PROXY:
        forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
        if forwarded[-1]:
            return forwarded[-1]
    return request.META.get("REMOTE_ADDR", "")


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


class HeaderCheckMiddleware:
    """Refuse (400, the site's page) a request whose headers carry a NUL character, before anything reads them.

    django-axes stores a failed log-in's user agent and Accept header, and PostgreSQL cannot store NUL: anyone on
    the hall's network got a 500 from the login page. Sits with the size limit: after the language is chosen (the
    page is in the visitor's language), before every view.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if nul_in_headers(request):
            from referee.error_pages import bad_request  # it reads the views, which read the models

            return bad_request(request)
        return self.get_response(request)
