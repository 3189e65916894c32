"""The scoring desk (the TD's pages): pair a round, edit the draft, publish or discard it, importing pairs and
exporting the official workbook, finishing the tournament and reopening it. Each view checks the request and calls
a service. Pairs and judges are ``tournaments/people/views.py``."""

from __future__ import annotations

import io

from django.contrib import messages
from django.db import IntegrityError
from django.db.models import Count
from django.forms import formset_factory
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from tournaments.backup.notice import backup_state, restore_notice
from tournaments.checkin.forfeits import publish_round
from tournaments.competition import access
from tournaments.competition.finishing import (
    FinishError,
    finish_tournament,
    finishing_log,
    reopen_tournament,
    why_not_finish,
    why_not_reopen,
)
from tournaments.competition.page_guards import desk_page
from tournaments.desk.forms import ByeForm, ByePointsForm, ImportForm, MatchRowForm, ReopenForm, SwapForm
from tournaments.desk.knockout_round import round_bracket
from tournaments.models import Bye, Round, Tournament
from tournaments.pairing.bracket import bracket_picture
from tournaments.pairing.services import (
    PairingError,
    delete_draft_round,
    pair_round,
    set_bye_points,
    set_round_matches,
    swap_pairs,
    unpublish_round,
    why_not_pair,
    why_not_unpublish,
)
from tournaments.standings.grids import PairingGrid
from tournaments.teams.sheets import team_sheets
from tournaments.workbook.download import attach
from tournaments.workbook.export import workbook_filename, workbook_title, write_workbook
from tournaments.workbook.importing import (
    MAX_BYTES,
    ImportFileError,
    entries_from_data,
    header_for,
    import_entries,
    parse,
    template_csv,
    template_xlsx,
    too_large,
)

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def _desk_redirect(tournament: Tournament):
    return redirect("desk", slug=tournament.slug)


@desk_page
def desk(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    rounds = tournament.rounds.annotate(n_matches=Count("matches", distinct=True))
    last = rounds.order_by("-number").first()
    pairs = tournament.pairs.select_related("player1", "player2")
    return render(
        request,
        "tournaments/desk/desk.html",
        {
            "tournament": tournament,
            "rounds": rounds,
            "next_number": (last.number + 1) if last else 1,
            "pair_blocker": why_not_pair(tournament),
            "pairs": pairs,
            "active_count": sum(1 for p in pairs if not p.withdrawn),
            "last_step": next(iter(finishing_log(tournament)), None),
            "bracket": bracket_picture(tournament, tournament.rounds.all(), show_results=True),
            "backup": backup_state(),
            "restored": restore_notice(tournament),
        },
    )


@desk_page
@require_POST
def desk_pair_round(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    try:
        rnd = pair_round(tournament)
    except PairingError as exc:
        messages.error(request, str(exc))
        return _desk_redirect(tournament)
    messages.success(
        request, _("Round %(n)s is paired as a draft: check it, then publish.") % {"n": rnd.number}
    )
    for note in rnd.gave_way_notes:
        messages.warning(request, note)
    return redirect("desk-round", slug=tournament.slug, number=rnd.number)


def _round_forms(request: HttpRequest, tournament: Tournament, rnd: Round):
    pairs = tournament.pairs.filter(withdrawn=False).select_related("player1", "player2")
    judges = access.judge_accounts()
    n_tables = max((pairs.count() + 1) // 2, rnd.matches.count())
    current = list(rnd.matches.order_by("table").values("pair_ns", "pair_ew", "judge"))
    # As many rows as the round has tables, however many a posted form claims (each row is a form to build).
    MatchRows = formset_factory(
        MatchRowForm, extra=0, max_num=n_tables, absolute_max=n_tables, validate_max=True
    )
    initial: list[dict[str, object]] = [dict(row) for row in current] + [{}] * (n_tables - len(current))
    data = request.POST if request.method == "POST" and "form-TOTAL_FORMS" in request.POST else None
    formset = MatchRows(data, initial=initial, form_kwargs={"pairs": pairs, "judges": judges})
    byes = ByeForm(data, pairs=pairs, initial={"byes": list(rnd.byes.values_list("pair_id", flat=True))})
    swap = SwapForm(request.POST if "first" in request.POST else None, pairs=pairs)
    return formset, byes, swap


@desk_page
@require_http_methods(["GET", "POST"])
def desk_round(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    """A round at the desk: the draft's tables to edit (manual pairing, swaps), publish or discard."""
    rnd = get_object_or_404(tournament.rounds, number=number)
    formset, byes, swap = _round_forms(request, tournament, rnd)
    if request.method == "POST":
        try:
            if "first" in request.POST:
                if swap.is_valid():
                    swap_pairs(rnd, swap.cleaned_data["first"].pk, swap.cleaned_data["second"].pk)
                    messages.success(request, _("The pairs are swapped."))
                    return redirect("desk-round", slug=tournament.slug, number=number)
            elif formset.is_valid() and byes.is_valid():
                games = [
                    (
                        f.cleaned_data["pair_ns"].pk,
                        f.cleaned_data["pair_ew"].pk,
                        getattr(f.cleaned_data["judge"], "pk", None),
                    )
                    for f in formset
                    if f.cleaned_data.get("pair_ns")
                ]
                set_round_matches(rnd, games, [p.pk for p in byes.cleaned_data["byes"]])
                messages.success(request, _("The round is saved."))
                return redirect("desk-round", slug=tournament.slug, number=number)
        except PairingError as exc:
            messages.error(request, str(exc))
    matches = rnd.matches.select_related(
        "pair_ns__player1", "pair_ns__player2", "pair_ew__player1", "pair_ew__player2", "judge"
    )
    placed = {p for m in matches for p in (m.pair_ns_id, m.pair_ew_id)} | set(
        rnd.byes.values_list("pair_id", flat=True)
    )
    unplaced = tournament.pairs.filter(withdrawn=False).exclude(pk__in=placed)
    return render(
        request,
        "tournaments/desk/round.html",
        {
            "tournament": tournament,
            "round": rnd,
            "pairing": PairingGrid(matches, orderable=False),
            "formset": formset,
            "byes_form": byes,
            "swap_form": swap,
            "byes": rnd.byes.select_related("pair"),
            "unplaced": unplaced,
            "is_draft": rnd.state == Round.State.DRAFT,
            "unpublish_blocker": why_not_unpublish(rnd),
            **round_bracket(tournament, rnd),
        },
    )


def _round_step(
    request: HttpRequest, tournament: Tournament, number: int, step, done: str, back: bool = False
) -> HttpResponse:
    """Publish, discard or unpublish a round through the pairing service; then the desk (``back``: the round's
    page, to edit it); a refusal goes back to the round's page."""
    rnd = get_object_or_404(tournament.rounds, number=number)
    try:
        step(rnd)
    except PairingError as exc:
        messages.error(request, str(exc))
        return redirect("desk-round", slug=tournament.slug, number=number)
    messages.success(request, done % {"n": number})
    return redirect("desk-round", slug=tournament.slug, number=number) if back else _desk_redirect(tournament)


@desk_page
@require_POST
def desk_publish_round(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    return _round_step(request, tournament, number, publish_round, _("Round %(n)s is published."))


@desk_page
@require_POST
def desk_unpublish_round(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    return _round_step(
        request,
        tournament,
        number,
        unpublish_round,
        _("Round %(n)s is a draft again: edit it, then publish it."),
        back=True,
    )


@desk_page
@require_POST
def desk_delete_round(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    return _round_step(
        request, tournament, number, delete_draft_round, _("The draft of round %(n)s is discarded.")
    )


@desk_page
@require_POST
def desk_bye_points(request: HttpRequest, tournament: Tournament, number: int, bye_id: int) -> HttpResponse:
    """A bye's points changed from its published round's page (the TD's ruling)."""
    bye = get_object_or_404(Bye.objects.select_related("pair"), pk=bye_id, round__tournament=tournament)
    form = ByePointsForm(request.POST)
    try:
        if not form.is_valid():
            raise PairingError(" ".join(str(e) for e in form.errors["points"]))
        set_bye_points(bye, form.cleaned_data["points"], request.user)
    except PairingError as exc:
        messages.error(request, str(exc))
    else:
        n = form.cleaned_data["points"]
        done = ngettext(
            "The bye of %(pair)s counts %(n)s match point.",
            "The bye of %(pair)s counts %(n)s match points.",
            n,
        )
        messages.success(request, done % {"pair": bye.pair.name, "n": n})
    return redirect("desk-round", slug=tournament.slug, number=number)


@desk_page
@require_http_methods(["GET", "POST"])
def desk_finish(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Finish the tournament: the page says what finishing means, or what is still open; its button posts."""
    if request.method == "POST":
        try:
            finish_tournament(tournament, request.user)
        except FinishError as exc:
            return _finish_page(request, tournament, "finish", exc.message, status=exc.status)
        messages.success(request, _("The tournament is finished: its results are final."))
        return _desk_redirect(tournament)
    return _finish_page(request, tournament, "finish", why_not_finish(tournament))


@desk_page
@require_http_methods(["GET", "POST"])
def desk_reopen(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Reopen a finished tournament for a late correction (a reason for the history may be given)."""
    form = ReopenForm(request.POST if request.method == "POST" else None)
    if request.method == "POST":
        if not form.is_valid():
            return _finish_page(request, tournament, "reopen", why_not_reopen(tournament), form, status=400)
        try:
            reopen_tournament(tournament, request.user, form.cleaned_data["reason"])
        except FinishError as exc:
            return _finish_page(request, tournament, "reopen", exc.message, form, status=exc.status)
        done = _("The tournament is open again: correct what is needed, then finish it again.")
        messages.success(request, done)
        return _desk_redirect(tournament)
    return _finish_page(request, tournament, "reopen", why_not_reopen(tournament), form)


def _finish_page(
    request: HttpRequest, tournament: Tournament, step: str, refused: str | None, form=None, status: int = 200
) -> HttpResponse:
    """The confirmation of a finish or a reopening (``step``), or why it cannot be done now (``refused``)."""
    context = {"tournament": tournament, "step": step, "refused": refused, "form": form}
    return render(request, "tournaments/desk/finish.html", context, status=status)


IMPORT_SESSION_KEY = "desk-import-%s"


@desk_page
@require_http_methods(["GET", "POST"])
def desk_import(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Upload a file; the preview shows every row and every problem; nothing is written until confirmed."""
    form = ImportForm(request.POST or None, request.FILES or None)
    parsed = None
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        if upload.size > MAX_BYTES:  # refused before reading it
            parsed = too_large()
        else:
            parsed = parse(tournament, upload.name, upload.read())
        if parsed.ok:
            request.session[IMPORT_SESSION_KEY % tournament.pk] = parsed.as_data()
        else:
            request.session.pop(IMPORT_SESSION_KEY % tournament.pk, None)
    return render(
        request,
        "tournaments/desk/import.html",
        {"tournament": tournament, "form": form, "parsed": parsed, "header": header_for()},
    )


@desk_page
@require_POST
def desk_import_confirm(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    data = request.session.pop(IMPORT_SESSION_KEY % tournament.pk, None)
    if not data:
        messages.error(request, _("Nothing to import: upload the file again."))
        return redirect("desk-import", slug=tournament.slug)
    try:
        created = import_entries(tournament, entries_from_data(data))
    except (ImportFileError, IntegrityError) as exc:
        messages.error(request, str(exc))
        return redirect("desk-import", slug=tournament.slug)
    messages.success(request, _("%(n)s pairs imported.") % {"n": len(created)})
    return _desk_redirect(tournament)


@desk_page
def desk_import_template(request: HttpRequest, tournament: Tournament, fmt: str) -> HttpResponse:
    """An empty import file with the header in the language of the request."""
    if fmt not in ("csv", "xlsx"):
        raise Http404
    if fmt == "csv":
        response = HttpResponse(template_csv(), content_type="text/csv; charset=utf-8")
    else:
        response = HttpResponse(template_xlsx(), content_type=XLSX)
    response["Content-Disposition"] = f'attachment; filename="pairs-template.{fmt}"'
    return response


@desk_page
def desk_export(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The official workbook, headers in the language of the request (a team event's zone tables, team
    matches and playoffs too)."""
    out = io.BytesIO()
    write_workbook(tournament, out, extra=team_sheets)
    response = HttpResponse(out.getvalue(), content_type=XLSX)
    return attach(response, workbook_title(tournament), workbook_filename(tournament))
