"""The director's adjusted results page of a match (award one, withdraw one): thin, over ``awarding``."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments.adjusted import awarding
from tournaments.adjusted.awarding import adjustments_of
from tournaments.adjusted.forms import AdjustmentForm
from tournaments.competition.page_guards import desk_page
from tournaments.models import Adjustment, Match, Tournament
from tournaments.scoring.errors import RecordingError


def match_of(tournament: Tournament, match_id: int) -> Match:
    match = None
    if 0 < match_id < 2**63:
        match = (
            Match.objects.of(tournament)
            .select_related("round", "pair_ns", "pair_ew")
            .filter(pk=match_id)
            .first()
        )
    if match is None:
        raise Http404
    return match


@desk_page
def desk_adjust(request: HttpRequest, tournament: Tournament, match_id: int) -> HttpResponse:
    """A match's adjusted results, and the form to award one."""
    match = match_of(tournament, match_id)
    form = AdjustmentForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                awarding.award(match, request.user, **form.cleaned_data)
            except RecordingError as exc:
                form.add_error(None, exc.message)
            else:
                messages.success(request, _("The adjusted result is recorded."))
                return redirect("desk-adjust", tournament.slug, match.pk)
        status = 400
    context = {"tournament": tournament, "match": match, "form": form, "adjustments": adjustments_of(match)}
    return render(request, "tournaments/adjusted/adjust.html", context, status=status)


@desk_page
@require_POST
def desk_adjustment_withdraw(
    request: HttpRequest, tournament: Tournament, adjustment_id: int
) -> HttpResponse:
    adjustment = None
    if 0 < adjustment_id < 2**63:
        adjustment = Adjustment.objects.of(tournament).filter(pk=adjustment_id).first()
    if adjustment is None:
        raise Http404
    try:
        awarding.withdraw(adjustment, request.user)
        messages.success(request, _("The adjustment is withdrawn."))
    except RecordingError as exc:
        messages.error(request, exc.message)
    return redirect("desk-adjust", tournament.slug, adjustment.match_id)
