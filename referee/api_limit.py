"""The public API's rate limit: every request under ``/api/`` counted per address with the site's throttle
(``tournaments.competition.throttle.API``); over the limit, a 429 in JSON with one sentence in the active language and
``Retry-After``. It lives here, not in the API's room, because the throttle is the project's (``referee``)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _

from referee.security import client_address
from tournaments.competition.throttle import API

PREFIX = "/api/"


class ApiRateLimit:
    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not request.path.startswith(PREFIX):
            return self.get_response(request)
        who = client_address(request)
        if not API.take(who):
            message = _("Too many requests from this address: wait a minute and ask again.")
            response = JsonResponse({"error": "rate_limited", "message": message}, status=429)
            response["Retry-After"] = str(API.seconds)
            return response
        return self.get_response(request)
