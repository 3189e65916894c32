"""The desk's and the public's pages: home (with the first-run page), the tournament overview."""

from __future__ import annotations

from django.contrib.auth import login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods
from django_tables2 import RequestConfig

from tournaments.forms import DirectorSetupForm
from tournaments.models import Match, Tournament
from tournaments.roles import is_director
from tournaments.services import create_director, site_is_new
from tournaments.tables import MatchTable, PairTable


def visible_tournaments(user):
    """Public tournaments for everyone; the TD sees the hidden ones too."""
    qs = Tournament.objects.all()
    return qs if is_director(user) else qs.filter(is_public=True)


def home(request: HttpRequest) -> HttpResponse:
    if site_is_new():
        return redirect("setup")
    return render(request, "tournaments/home.html", {"tournaments": visible_tournaments(request.user)})


@require_http_methods(["GET", "POST"])
def setup(request: HttpRequest) -> HttpResponse:
    """First run (as in Tabbycat): create the director's account; refused once any account exists."""
    if not site_is_new():
        return redirect("home")
    form = DirectorSetupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = create_director(form.cleaned_data["username"], form.cleaned_data["password1"])
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect("home")
    return render(request, "tournaments/setup.html", {"form": form})


def tournament_for(request: HttpRequest, slug: str) -> Tournament:
    tournament = get_object_or_404(Tournament, slug=slug)
    if not tournament.is_public and not is_director(request.user):
        raise Http404
    return tournament


def tournament_detail(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = tournament_for(request, slug)
    pairs = PairTable(tournament.pairs.select_related("player1", "player2"), prefix="p-")
    matches = MatchTable(
        Match.objects.filter(round__tournament=tournament).select_related(
            "round", "pair_ns", "pair_ew", "judge"
        ),
        prefix="m-",
    )
    config = RequestConfig(request, paginate=False)
    config.configure(pairs)
    config.configure(matches)
    rounds = tournament.rounds.all()
    return render(
        request,
        "tournaments/tournament_detail.html",
        {"tournament": tournament, "pairs": pairs, "matches": matches, "rounds": rounds},
    )
