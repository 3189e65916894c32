"""The knockout at the desk: the bracket on the round's page and a level match decided by the director (who goes
through, and why). The rules of it are ``tournaments.pairing.knockout``'s."""

from __future__ import annotations

from typing import cast

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from tournaments.competition.page_guards import desk_page
from tournaments.models import Match, Round, Tournament
from tournaments.pairing.bracket import bracket_picture
from tournaments.pairing.knockout import is_bracket_round
from tournaments.pairing.ties import TieError, decide_tie


class TieForm(forms.Form):
    """Who goes through a level knockout match, and why (kept in the match's history)."""

    pair = forms.TypedChoiceField(label=gettext_lazy("goes through"), coerce=int, widget=forms.RadioSelect)
    reason = forms.CharField(label=gettext_lazy("why (kept in the history)"), max_length=200)

    def __init__(self, *args, match: Match, **kwargs):
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["pair"]).choices = [
            (match.pair_ns_id, match.pair_ns.name),
            (match.pair_ew_id, match.pair_ew.name),
        ]


def round_bracket(tournament: Tournament, rnd: Round) -> dict:
    """What a bracket round's desk page adds: the bracket (seeds, results) and a form for each level match."""
    if not is_bracket_round(tournament, rnd.number):
        return {"bracket_round": False}
    level = rnd.matches.filter(state=Match.State.FINISHED, winner__isnull=True).select_related(
        "pair_ns", "pair_ew"
    )
    return {
        "bracket_round": True,
        "first_bracket_round": rnd.number == tournament.bracket_start,
        "bracket": bracket_picture(tournament, tournament.rounds.all(), show_results=True),
        "level_matches": [
            (m, TieForm(match=m, initial={"pair": m.tie_winner_id, "reason": m.tie_reason})) for m in level
        ],
    }


@desk_page
@require_POST
def desk_decide_tie(request: HttpRequest, tournament: Tournament, number: int, match_id: int) -> HttpResponse:
    match = get_object_or_404(
        Match.objects.select_related("pair_ns", "pair_ew"),
        pk=match_id,
        round__tournament=tournament,
        round__number=number,
    )
    form = TieForm(request.POST, match=match)
    try:
        if not form.is_valid():
            raise TieError(_("Choose the pair that goes through and say why."), 400)
        decide_tie(match, form.cleaned_data["pair"], form.cleaned_data["reason"], request.user)
    except TieError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Table %(t)s is decided.") % {"t": match.table})
        if tournament.rounds.filter(number=number + 1).exists():  # the advance ran on the decision's commit
            messages.success(
                request, _("Round %(n)s is paired from the winners and published.") % {"n": number + 1}
            )
    return redirect("desk-round", slug=tournament.slug, number=number)
