"""The public's bracket page (``/t/<slug>/bracket/``): the knockout as a picture, updated as results come in.

It is a page of pairings: shown when the pairings are public (the director sees it always); the winners, levels
and placings only when the results are too. A draft round is the director's alone, as on every page."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from tournaments.pairing.bracket import bracket_picture
from tournaments.public.caching import public_cache
from tournaments.public.views import links_for, public_tournament


@public_cache
def bracket_page(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = public_tournament(request, slug, "public_pairings")
    if tournament.bracket_start is None:
        raise Http404
    links = links_for(request, tournament)
    picture = bracket_picture(tournament, links["rounds"], show_results=links["show_results"])
    return render(
        request,
        "tournaments/public/bracket.html",
        {"tournament": tournament, "bracket": picture, **links},
    )
