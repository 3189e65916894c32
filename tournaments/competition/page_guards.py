"""What every page of a tournament begins with: the tournament its address names, and the desk's guard."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Concatenate, ParamSpec, TypeVar

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404

from tournaments.competition import access
from tournaments.models import Tournament

View = Callable[..., HttpResponse]
P = ParamSpec("P")
R = TypeVar("R")


def director_required(view: View) -> View:
    """Desk pages: anonymous visitors go to the login page; a signed-in non-TD gets 403."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not access.can_use_desk(request.user):
            raise PermissionDenied
        return view(request, *args, **kwargs)

    return wrapped


def tournament_page(
    view: Callable[Concatenate[HttpRequest, Tournament, P], R],
) -> Callable[Concatenate[HttpRequest, str, P], R]:
    """A page whose address names a tournament (``<slug>``): the view is given the tournament, or the page is a
    404, so no view looks it up again."""

    @wraps(view)
    def wrapped(request: HttpRequest, slug: str, *args: P.args, **kwargs: P.kwargs) -> R:
        return view(request, get_object_or_404(Tournament, slug=slug), *args, **kwargs)

    return wrapped


def guarded_tournament_page(may: Callable[[object, Tournament], bool]) -> Callable[[View], View]:
    """A desk page of one tournament for those ``may`` lets in: a visitor goes to the login page, anyone else who
    has no desk is refused before the tournament is looked up (they learn nothing of the address), and one whose
    desk is another organisation's is refused too."""

    def decorate(view: View) -> View:
        @wraps(view)
        def wrapped(request: HttpRequest, slug: str, *args, **kwargs):
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            if not access.has_desk(request.user):
                raise PermissionDenied
            tournament = get_object_or_404(Tournament, slug=slug)
            if not may(request.user, tournament):
                raise PermissionDenied
            return view(request, tournament, *args, **kwargs)

        return wrapped

    return decorate


desk_page = guarded_tournament_page(access.directs)  # setting up and running the tournament: its directors
scoring_page = guarded_tournament_page(access.scores)  # results, the board and the calls: its scorers too
