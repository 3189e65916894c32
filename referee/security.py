"""A club day under load and abuse: the client's address (the logs', the throttles' and the log-ins'), the log-in
throttle and its lock-out page. The guards every request passes (the size limit, headers no client sends, the
API's rate limit) are the site's middleware (``referee.middleware``)."""

from __future__ import annotations

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
