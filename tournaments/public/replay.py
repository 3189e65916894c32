"""A deal's replay, trick by trick: the four seats' cards, the lead, the winner and the points of each trick.

For appeals (the deal's officials, the TD) and, when the deal log is public, for spectators: the same reader as
the deal pages (``access.can_read_deals``). Each trick is a section with an anchor; stepping forward and back is
following links (``:target`` shows one trick at a time), so the page needs no script.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from tournaments.competition import access
from tournaments.competition.page_guards import tournament_page
from tournaments.duplicate.visibility import shown_deals
from tournaments.models import SEAT_CHOICES, Deal, Match, Tournament
from tournaments.public.caching import public_cache
from tournaments.public.charts import TrickCards, trick_picture

SEAT_NAMES = dict(SEAT_CHOICES)


def trick_cards(deal: Deal) -> list[TrickCards]:
    """The deal's recorded tricks, with the verdict's winner and points of each."""
    summaries = (deal.verdict or {}).get("tricks") or []
    tricks = []
    for trick in deal.tricks.prefetch_related("plays").order_by("number"):
        plays = sorted(trick.plays.all(), key=lambda play: play.order)
        summary = summaries[trick.number] if trick.number < len(summaries) else {}
        tricks.append(
            TrickCards(
                number=trick.number + 1,
                plays={play.seat: play.cards for play in plays},
                leader=plays[0].seat if plays else summary.get("leader", ""),
                winner=summary.get("winner"),
                points=int(summary.get("points") or 0),
            )
        )
    return tricks


def seat_labels(match: Match) -> dict[str, str]:
    """Each seat as the replay names it: the seat, then its player (北 · 甲)."""
    players = match.seat_players()
    return {seat: f"{SEAT_NAMES[seat]} · {players[seat]}" for seat in "NESW"}


def replayed_deals(user, match: Match):
    """The deals a replay may show this user: confirmed ones, and submitted ones to the match's officials."""
    shown = [Deal.State.CONFIRMED] + ([Deal.State.SUBMITTED] if access.is_official(user, match) else [])
    return shown_deals(match.deals.filter(state__in=shown), match.round.tournament, user)


@tournament_page
def _tournament(request: HttpRequest, tournament: Tournament) -> Tournament:
    return tournament


@public_cache
def deal_replay_page(request: HttpRequest, slug: str, match_id: int, number: int) -> HttpResponse:
    """One deal, trick by trick (``#trick-3`` shows the third alone)."""
    tournament = _tournament(request, slug)
    match = get_object_or_404(
        Match.objects.select_related(
            "round__tournament",
            "pair_ns__player1",
            "pair_ns__player2",
            "pair_ew__player1",
            "pair_ew__player2",
        ),
        pk=match_id,
        round__tournament=tournament,
    )
    if not access.can_read_deals(request.user, match):
        raise Http404
    deal = get_object_or_404(replayed_deals(request.user, match), number=number)
    seats = seat_labels(match)
    tricks = [{"trick": t, "picture": trick_picture(t, seats)} for t in trick_cards(deal)]
    return render(
        request,
        "tournaments/public/deal_replay.html",
        {"tournament": tournament, "match": match, "deal": deal, "tricks": tricks, "seats": seats},
    )
