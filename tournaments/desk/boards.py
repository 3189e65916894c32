"""The director's boards page of a duplicate: deal the session's boards from a fresh secret seed or import a
boards file, mark a board no-trump or called, download the boards file, see every board's fingerprint, each
table's boards round by round with what is recorded there, and give or take back artificial scores.

The director sees every result here as it comes in (``visibility.visible_board_ids`` for the director); the
seed stays secret here too until the session is over. Every write is a service's: ``duplicate.dealing`` and
``adjusted.artificial``.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.db.models import Count
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from tournaments.adjusted.artificial import give_artificial, take_back_artificial
from tournaments.competition.finishing import TournamentFinished
from tournaments.competition.page_guards import desk_page
from tournaments.duplicate.dealing import boards_file, deal_session, import_session, mark_board
from tournaments.duplicate.display import figure
from tournaments.duplicate.movement import DuplicateError, boards_of, duplicate_event
from tournaments.duplicate.results import travellers
from tournaments.duplicate.visibility import published_seed, visible_board_ids
from tournaments.models import ArtificialScore, Board, Deal, Match, TeamTable, Tournament, VenueResults
from tournaments.scoring.errors import RecordingError


class BoardsFileForm(forms.Form):
    file = forms.FileField(label=gettext_lazy("boards file (tractor-boards/1)"))


class ArtificialForm(forms.Form):
    match = forms.IntegerField(widget=forms.HiddenInput)
    board = forms.IntegerField(widget=forms.HiddenInput)
    ns_fault = forms.ChoiceField(choices=ArtificialScore.FAULT_CHOICES, label=gettext_lazy("North–South"))
    ew_fault = forms.ChoiceField(choices=ArtificialScore.FAULT_CHOICES, label=gettext_lazy("East–West"))
    fouled = forms.BooleanField(required=False, label=gettext_lazy("fouled board"))
    note = forms.CharField(required=False, max_length=200, label=gettext_lazy("note"))


def duplicate_only(tournament: Tournament) -> None:
    if duplicate_event(tournament) is None:
        raise Http404


def table_rows(tournament: Tournament) -> list[dict]:
    """Each published table's boards, with what is recorded on each (for the director)."""
    deals = {
        (d.match_id, d.board_id): d
        for d in Deal.objects.of(tournament)
        .filter(board__isnull=False)
        .only("pk", "match_id", "board_id", "state")
    }
    scores = {(a.match_id, a.board_id): a for a in ArtificialScore.objects.of(tournament)}
    # Duplicate teams: each table's team match, whose page takes the director's rulings (RULES §14.5).
    fixtures = dict(
        TeamTable.objects.filter(team_match__round__tournament=tournament).values_list(
            "match_id", "team_match_id"
        )
    )
    rows = []
    matches = Match.objects.of(tournament).select_related("round", "pair_ns", "pair_ew")
    for match in matches.order_by("round__number", "table"):
        try:
            boards = boards_of(match)
        except DuplicateError:
            boards = []
        cells = [
            {"board": b, "deal": deals.get((match.pk, b.pk)), "score": scores.get((match.pk, b.pk))}
            for b in boards
        ]
        rows.append({"match": match, "cells": cells, "fixture": fixtures.get(match.pk)})
    return rows


@desk_page
@require_GET
def desk_boards(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    duplicate_only(tournament)
    event = duplicate_event(tournament)
    boards = list(Board.objects.of(tournament).order_by("number"))
    complete = visible_board_ids(tournament)  # the public's: the director's page says which are out
    scores = travellers(tournament, [b.pk for b in boards])
    return render(
        request,
        "tournaments/desk/boards.html",
        {
            "tournament": tournament,
            "event": event,
            "boards": [
                {
                    "board": b,
                    "complete": b.pk in complete,
                    "played": len(scores.get(b.number, [])),
                    "lines": [(r, figure(r.ns_matchpoints)) for r in scores.get(b.number, [])],
                }
                for b in boards
            ],
            "seed": published_seed(tournament),
            "tables": table_rows(tournament),
            "file_form": BoardsFileForm(),
            "venues": VenueResults.objects.of(tournament).annotate(line_count=Count("lines")),
            "fault_choices": ArtificialScore.FAULT_CHOICES,
            "marks": Board.Trump.choices,
        },
    )


def _done(request: HttpRequest, tournament: Tournament, action) -> HttpResponse:
    """Run a desk write; its refusal is one sentence above the page."""
    try:
        said = action()
    except (DuplicateError, RecordingError, TournamentFinished) as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, said)
    return redirect("desk-boards", tournament.slug)


@desk_page
@require_POST
def desk_deal_boards(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    duplicate_only(tournament)

    def deal() -> str:
        deal_session(tournament, request.user)
        return _("The boards are dealt from a fresh secret seed.")

    return _done(request, tournament, deal)


@desk_page
@require_POST
def desk_import_boards(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    duplicate_only(tournament)
    form = BoardsFileForm(request.POST, request.FILES)

    def take() -> str:
        if not form.is_valid():
            raise DuplicateError(_("Choose a boards file."))
        data = form.cleaned_data["file"].read(2_000_001)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise DuplicateError(_("This is not a boards file the desk can read.")) from None
        import_session(tournament, text, request.user)
        return _("The boards are imported: every fingerprint checks.")

    return _done(request, tournament, take)


@desk_page
@require_GET
def desk_export_boards(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    duplicate_only(tournament)
    try:
        text = boards_file(tournament).dumps()
    except DuplicateError as exc:
        messages.error(request, exc.message)
        return redirect("desk-boards", tournament.slug)
    response = HttpResponse(text, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{tournament.slug}-boards.json"'
    return response


@desk_page
@require_POST
def desk_mark_board(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    duplicate_only(tournament)
    board = get_object_or_404(Board.objects.of(tournament), number=number)

    def mark() -> str:
        mark_board(board, request.POST.get("trump", ""), request.user)
        return _("Board %(n)s is marked; its fingerprint is new.") % {"n": number}

    return _done(request, tournament, mark)


@desk_page
@require_POST
def desk_artificial(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    duplicate_only(tournament)
    form = ArtificialForm(request.POST)

    def give() -> str:
        if not form.is_valid():
            raise DuplicateError(_("Choose each side's share of the fault."))
        data = form.cleaned_data
        match = get_object_or_404(Match.objects.of(tournament), pk=data["match"])
        board = get_object_or_404(Board.objects.of(tournament), pk=data["board"])
        give_artificial(
            match,
            board,
            request.user,
            ns_fault=data["ns_fault"],
            ew_fault=data["ew_fault"],
            fouled=data["fouled"],
            note=data["note"],
        )
        return _("Board %(n)s is scored by the director at table %(t)s.") % {
            "n": board.number,
            "t": match.table,
        }

    return _done(request, tournament, give)


@desk_page
@require_POST
def desk_take_back_artificial(request: HttpRequest, tournament: Tournament, score_id: int) -> HttpResponse:
    duplicate_only(tournament)
    score = get_object_or_404(ArtificialScore.objects.of(tournament), pk=score_id)

    def take_back() -> str:
        take_back_artificial(score, request.user)
        return _("The artificial score is taken back.")

    return _done(request, tournament, take_back)
