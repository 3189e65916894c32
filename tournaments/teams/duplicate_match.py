"""A duplicate team match on its page (RULES §14.5): each board's NS score at both tables, team A's difference,
the scale points each team took, the director's ruling on a board not played or fouled; and the desk's ruling
form. What a visitor may see is ``duplicate.visibility``'s (a board's row only once every table due to play it
has; the director at once); the sums are ``duplicate.team_scale``'s; the ruling is ``adjusted.team_boards``'.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from tournaments.adjusted.team_boards import rule_team_board
from tournaments.competition import access
from tournaments.competition.finishing import TournamentFinished
from tournaments.competition.page_guards import desk_page
from tournaments.duplicate.movement import DuplicateError
from tournaments.duplicate.team_scale import duplicate_team_result
from tournaments.duplicate.visibility import visible_board_ids
from tournaments.league.results import shown
from tournaments.models import Board, BoardRuling, TeamEvent, TeamMatch, Tournament
from tournaments.scoring.errors import RecordingError


class RulingForm(forms.Form):
    award = forms.ChoiceField(choices=BoardRuling.Award.choices, label=gettext_lazy("ruling"))
    version = forms.IntegerField(min_value=0, max_value=2**31 - 1, widget=forms.HiddenInput)
    note = forms.CharField(required=False, max_length=200, label=gettext_lazy("note"))


def scale_context(fixture: TeamMatch, event: TeamEvent, user) -> dict:
    """The fixture page's boards of a duplicate team match (empty for any other, or before its boards exist)."""
    tournament = fixture.round.tournament
    if tournament.format != Tournament.Format.DUPLICATE_TEAMS or not fixture.tables.exists():
        return {}
    try:
        scale = duplicate_team_result(fixture, visible_board_ids(tournament, user))
    except DuplicateError:
        return {}
    director = access.directs(user, tournament)
    awards = award_labels(fixture)
    rulings = {r.board.number: r for r in fixture.board_rulings.select_related("board")}
    rows = []
    for swing in scale.boards:
        ruling = rulings.get(swing.board)
        rows.append(
            {
                "swing": swing,
                "home": max(swing.scale, 0),
                "away": max(-swing.scale, 0),
                "ruling": ruling if swing.ruling else None,
                "ruled": awards.get(swing.ruling, ""),
                "form": RulingForm(
                    initial={
                        "award": ruling.award if ruling else BoardRuling.Award.NONE,
                        "version": ruling.version if ruling else 0,
                        "note": ruling.note if ruling else "",
                    }
                )
                if director and swing.shown and swing.difference is None
                else None,
            }
        )
    return {
        "scale": scale,
        "scale_rows": rows,
        "scale_totals": director or scale.complete,
        "scale_points": [shown(p, event.scoring) for p in scale.points],
        "award_choices": list(awards.items()),
    }


def award_labels(fixture: TeamMatch) -> dict[str, str]:
    """The ruling's choices in the page's words, naming the teams."""
    return {
        BoardRuling.Award.NONE: _("0 scale points"),
        BoardRuling.Award.HOME: _("2 scale points to %(team)s") % {"team": fixture.home.name},
        BoardRuling.Award.AWAY: _("2 scale points to %(team)s") % {"team": fixture.away.name},
    }


@desk_page
@require_POST
def desk_board_ruling(
    request: HttpRequest, tournament: Tournament, fixture_id: int, number: int
) -> HttpResponse:
    """The director rules a board of the team match: 0, or 2 scale points to one team."""
    fixture = get_object_or_404(
        TeamMatch.objects.filter(round__tournament=tournament).select_related("round__tournament"),
        pk=fixture_id,
    )
    board = get_object_or_404(Board.objects.of(tournament), number=number)
    form = RulingForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose the ruling: 0, or 2 to the side not at fault."))
        return redirect("team-fixture", slug=tournament.slug, fixture_id=fixture.pk)
    data = form.cleaned_data
    try:
        rule_team_board(
            fixture, board, request.user, award=data["award"], version=data["version"], note=data["note"]
        )
    except (RecordingError, TournamentFinished) as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Board %(n)s is ruled.") % {"n": number})
    return redirect("team-fixture", slug=tournament.slug, fixture_id=fixture.pk)
