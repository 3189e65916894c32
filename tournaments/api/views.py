"""The public JSON API's views (``/api/v1/…``), thin: each asks ``answers`` for its data.

A tournament's answers are kept as its public pages are (``tournaments.public.caching``): under the address,
the language and the tournament's generation, which is also the answer's ETag, so a poll sending it back gets a
304 before anything is read. Every answer is the public's, whoever is signed in, so every request may be served
from the cache. Refusals are JSON too: ``error`` (a code) and ``message`` (one sentence in the active language).
The rate limit per address is the project's (``referee.middleware.ApiRateLimit``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from functools import wraps

from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified, JsonResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from tournaments.api import answers
from tournaments.api import boards as duplicate_boards
from tournaments.api.openapi import document
from tournaments.models import Tournament
from tournaments.public.caching import PAGE_TIMEOUT, RECENT, finish, matches, page_key
from tournaments.public.generation import tokens

JSON = "application/json"


def not_found() -> JsonResponse:
    return JsonResponse(
        {"error": "not_found", "message": _("There is nothing public at this address.")}, status=404
    )


def as_json(data: dict) -> HttpResponse:
    return JsonResponse(data, json_dumps_params={"ensure_ascii": False, "separators": (",", ":")})


def number(request: HttpRequest, name: str) -> int | None:
    """A whole-number query parameter; a bad one is a 400 in words (``BadNumber``)."""
    text = request.GET.get(name)
    if text is None:
        return None
    if not (text.isascii() and text.isdigit()) or len(text) > 5:
        raise BadNumber(name)
    return int(text)


class BadNumber(Exception):
    def response(self) -> JsonResponse:
        message = _("The parameter %(name)s must be a whole number.") % {"name": self.args[0]}
        return JsonResponse({"error": "bad_parameter", "message": message}, status=400)


def answered(request: HttpRequest, build: Callable[[], dict]) -> HttpResponse:
    try:
        return as_json(build())
    except Http404:
        return not_found()
    except BadNumber as bad:
        return bad.response()


def of_tournament(view: Callable[..., dict]) -> Callable[..., HttpResponse]:
    """A tournament's answer: cached under its generation, with its ETag and a 304 for an unchanged poll."""

    @require_safe
    @wraps(view)
    def wrapped(request: HttpRequest, slug: str, *args, **kwargs) -> HttpResponse:
        generation = tokens(slug)
        if generation is None:
            return not_found()
        key = "api-" + page_key(request, generation)
        etag = f'"{key}"'
        if matches(request, etag):
            return finish(HttpResponseNotModified(), etag)
        stored = RECENT.get(key) or cache.get(f"public-page:{key}")
        if stored is None:
            response = answered(request, lambda: view(request, slug, *args, **kwargs))
            if response.status_code != 200:
                return response
            stored = response.content
            cache.set(f"public-page:{key}", stored, PAGE_TIMEOUT)
        RECENT.put(key, stored)
        return finish(HttpResponse(stored, content_type=JSON), etag)

    return wrapped


def with_content_etag(response: HttpResponse, request: HttpRequest) -> HttpResponse:
    """An answer not tied to one tournament: its ETag is its content's digest."""
    if response.status_code != 200:
        return response
    etag = f'"{hashlib.blake2b(response.content, digest_size=12).hexdigest()}"'
    return finish(HttpResponseNotModified() if matches(request, etag) else response, etag)


@require_safe
def tournament_list(request: HttpRequest) -> HttpResponse:
    return with_content_etag(answered(request, answers.tournament_list), request)


@require_safe
def openapi(request: HttpRequest) -> HttpResponse:
    return with_content_etag(as_json(document()), request)


@of_tournament
def tournament(request: HttpRequest, slug: str) -> dict:
    return answers.tournament_detail(answers.the_tournament(slug))


@of_tournament
def rounds(request: HttpRequest, slug: str) -> dict:
    return answers.round_list(answers.the_tournament(slug, "public_pairings"))


@of_tournament
def round_detail(request: HttpRequest, slug: str, number: int) -> dict:
    return answers.round_detail(answers.the_tournament(slug, "public_pairings"), number)


@of_tournament
def standings(request: HttpRequest, slug: str) -> dict:
    tournament = answers.the_tournament(slug, "public_standings")
    if request.GET.get("scope") == "all" and tournament.format == Tournament.Format.DUPLICATE:
        return duplicate_boards.overall_standings(tournament)  # every venue's pairs ranked together
    return answers.standings(tournament, number(request, "round"))


@of_tournament
def results(request: HttpRequest, slug: str) -> dict:
    tournament = answers.the_tournament(slug, "public_results")
    return answers.results(tournament, number(request, "round"))


@of_tournament
def bracket(request: HttpRequest, slug: str) -> dict:
    return answers.bracket(answers.the_tournament(slug, "public_pairings"))


@of_tournament
def match(request: HttpRequest, slug: str, match_id: int) -> dict:
    return answers.match_deals(answers.the_tournament(slug, "public_deal_log"), match_id)


@of_tournament
def boards(request: HttpRequest, slug: str) -> dict:
    """A duplicate's boards and travellers (none for any other format)."""
    return duplicate_boards.boards(answers.the_tournament(slug, "public_results"))


@of_tournament
def teams(request: HttpRequest, slug: str) -> dict:
    return answers.teams(answers.the_tournament(slug, "public_standings"))
