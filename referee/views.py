"""The judges' pages."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from tournaments.models import Match
from tournaments.roles import is_director


def match_page(request: HttpRequest, match_id: int) -> HttpResponse:
    match = get_object_or_404(
        Match.objects.select_related(
            "round__tournament",
            "pair_ns__player1",
            "pair_ns__player2",
            "pair_ew__player1",
            "pair_ew__player2",
            "judge",
        ),
        pk=match_id,
    )
    if not match.round.tournament.is_public and not is_director(request.user):
        raise Http404
    return render(request, "referee/match.html", {"match": match, "tournament": match.round.tournament})
