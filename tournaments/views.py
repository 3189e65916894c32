"""The desk's and the public's pages: home, first run, overview, standings, rounds, results, deal logs; the desk."""

from __future__ import annotations

import io
from functools import wraps

from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError
from django.db.models import Count, Q
from django.forms import formset_factory
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST
from django_tables2 import RequestConfig

from tournaments import access
from tournaments.access import JUDGE_GROUP
from tournaments.forms import ByeForm, DirectorSetupForm, ImportForm, MatchRowForm, SwapForm
from tournaments.importing import (
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
from tournaments.models import Deal, Match, Round, Tournament
from tournaments.pairing import (
    PairingError,
    delete_draft_round,
    pair_round,
    publish_round,
    set_round_matches,
    set_withdrawn,
    swap_pairs,
)
from tournaments.services import create_director, site_is_new
from tournaments.standings import compute_standings, standings_title, tie_break_columns
from tournaments.tables import (
    MatchTable,
    PairingTable,
    PairMatchTable,
    PairTable,
    ResultTable,
    StandingsTable,
    result_text,
)
from tournaments.workbook import outcome_label, workbook_filename, write_workbook

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def home(request: HttpRequest) -> HttpResponse:
    if site_is_new():
        return redirect("setup")
    my_matches = []
    if request.user.is_authenticated:
        my_matches = (
            Match.objects.filter(judge=request.user)
            .exclude(state=Match.State.FINISHED)
            .select_related("round__tournament", "pair_ns", "pair_ew")
            .order_by("round__tournament", "round__number", "table")
        )
    return render(
        request,
        "tournaments/home.html",
        {"tournaments": access.visible_tournaments(request.user, Tournament.objects.all()), "my_matches": my_matches},
    )


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
    if not access.can_read_tournament(request.user, tournament):
        raise Http404
    return tournament


def tournament_detail(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = tournament_for(request, slug)
    pairs = PairTable(tournament.pairs.select_related("player1", "player2"), prefix="p-")
    matches = MatchTable(
        Match.objects.filter(round__in=visible_rounds(request, tournament)).select_related(
            "round", "pair_ns", "pair_ew", "judge"
        ),
        prefix="m-",
    )
    config = RequestConfig(request, paginate=False)
    config.configure(pairs)
    config.configure(matches)
    return render(
        request,
        "tournaments/tournament_detail.html",
        {
            "tournament": tournament,
            "pairs": pairs,
            "matches": matches,
            **links_for(request, tournament),
        },
    )


# --- who may see what --------------------------------------------------------------------------------------


def director_required(view):
    """Desk pages: anonymous visitors go to the login page; a signed-in non-TD gets 403."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not access.can_use_desk(request.user):
            raise PermissionDenied
        return view(request, *args, **kwargs)

    return wrapped


def public_tournament(request: HttpRequest, slug: str, switch: str) -> Tournament:
    """The tournament when its page ``switch`` (public_standings …) is on, or for the TD; else 404."""
    tournament = get_object_or_404(Tournament, slug=slug)
    if not access.can_see_page(request.user, tournament, switch):
        raise Http404
    return tournament


def links_for(request: HttpRequest, tournament: Tournament) -> dict:
    """Which public pages the visitor may open (the TD sees them all)."""
    user = request.user
    return {
        "show_standings": access.can_see_page(user, tournament, "public_standings"),
        "show_pairings": access.can_see_page(user, tournament, "public_pairings"),
        "show_results": access.can_see_page(user, tournament, "public_results"),
        "show_deal_log": access.can_see_page(user, tournament, "public_deal_log"),
        "rounds": visible_rounds(request, tournament),
    }


def visible_rounds(request: HttpRequest, tournament: Tournament):
    rounds = tournament.rounds.all()
    return rounds if access.sees_drafts(request.user) else rounds.exclude(state=Round.State.DRAFT)


def _pair_url(tournament: Tournament):
    return lambda pair: reverse("pair", args=[tournament.slug, pair.pk])


def _deal_log_url(tournament: Tournament):
    return lambda match: reverse("deal-log", args=[tournament.slug, match.pk])


# --- public pages ------------------------------------------------------------------------------------------


def standings_page(request: HttpRequest, slug: str) -> HttpResponse:
    """Live standings: refreshes itself (the inline script fetches the table with ``X-Live: 1``); ``?round=N``."""
    tournament = public_tournament(request, slug, "public_standings")
    try:
        up_to = int(request.GET["round"])
    except (KeyError, ValueError):
        up_to = None
    links = links_for(request, tournament)
    table = StandingsTable(
        [line.as_row() for line in compute_standings(tournament, up_to)],
        tie_breaks=tie_break_columns(tournament),
        pair_url=_pair_url(tournament) if links["show_results"] else None,
    )
    RequestConfig(request, paginate=False).configure(table)
    context = {
        "tournament": tournament,
        "table": table,
        "up_to": up_to,
        "title": standings_title(up_to),
        "updated": timezone.localtime(),
        "tie_break_labels": [label for _code, label in tie_break_columns(tournament)],
        **links,
    }
    live = request.headers.get("X-Live") == "1"
    response = render(request, f"tournaments/standings{'_fragment' if live else ''}.html", context)
    patch_vary_headers(response, ["X-Live"])
    return response


def round_page(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A round's pairing list (printable); the results once the matches are over."""
    tournament = public_tournament(request, slug, "public_pairings")
    rnd = get_object_or_404(visible_rounds(request, tournament), number=number)
    matches = rnd.matches.select_related(
        "pair_ns__player1", "pair_ns__player2", "pair_ew__player1", "pair_ew__player2", "judge", "winner"
    )
    links = links_for(request, tournament)
    pairing = PairingTable(matches, prefix="p-")
    RequestConfig(request, paginate=False).configure(pairing)
    results = None
    if links["show_results"]:
        results = ResultTable(
            matches, prefix="r-", deal_log_url=_deal_log_url(tournament) if links["show_deal_log"] else None
        )
        RequestConfig(request, paginate=False).configure(results)
    return render(
        request,
        "tournaments/round.html",
        {
            "tournament": tournament,
            "round": rnd,
            "pairing": pairing,
            "results": results,
            "byes": rnd.byes.select_related("pair"),
            **links,
        },
    )


def results_page(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = public_tournament(request, slug, "public_results")
    links = links_for(request, tournament)
    matches = Match.objects.filter(
        round__in=visible_rounds(request, tournament), state=Match.State.FINISHED
    ).select_related(
        "round", "pair_ns__player1", "pair_ns__player2", "pair_ew__player1", "pair_ew__player2", "winner"
    )
    table = ResultTable(matches, deal_log_url=_deal_log_url(tournament) if links["show_deal_log"] else None)
    RequestConfig(request, paginate=False).configure(table)
    return render(request, "tournaments/results.html", {"tournament": tournament, "table": table, **links})


def pair_page(request: HttpRequest, slug: str, pair_id: int) -> HttpResponse:
    """One pair: its players, its line in the standings and its matches."""
    tournament = public_tournament(request, slug, "public_results")
    pair = get_object_or_404(tournament.pairs.select_related("player1", "player2"), pk=pair_id)
    links = links_for(request, tournament)
    matches = (
        Match.objects.filter(round__in=visible_rounds(request, tournament))
        .filter(Q(pair_ns=pair) | Q(pair_ew=pair))
        .select_related(
            "round", "pair_ns__player1", "pair_ns__player2", "pair_ew__player1", "pair_ew__player2", "winner"
        )
    )
    table = PairMatchTable(
        matches, deal_log_url=_deal_log_url(tournament) if links["show_deal_log"] else None
    )
    RequestConfig(request, paginate=False).configure(table)
    line = next((x for x in compute_standings(tournament) if x.pair.pk == pair.pk), None)
    return render(
        request,
        "tournaments/pair.html",
        {
            "tournament": tournament,
            "pair": pair,
            "table": table,
            "line": line,
            "tie_breaks": [(label, line.tiebreaks[code]) for code, label in tie_break_columns(tournament)]
            if line
            else [],
            "byes": pair.byes.filter(round__in=visible_rounds(request, tournament)).select_related("round"),
            **links,
        },
    )


def deal_log_page(request: HttpRequest, slug: str, match_id: int) -> HttpResponse:
    """A match's confirmed deals: number, banker, level, trump, attackers' points, kitty bonus, result."""
    tournament = public_tournament(request, slug, "public_deal_log")
    match = get_object_or_404(
        Match.objects.select_related("round", "pair_ns", "pair_ew", "winner"),
        pk=match_id,
        round__in=visible_rounds(request, tournament),
    )
    deals = match.deals.filter(state=Deal.State.CONFIRMED).order_by("number")
    rows = []
    for deal in deals:
        ap = deal.attackers_points or {}
        result = deal.result or {}
        rows.append(
            {
                "deal": deal,
                "banker_pair": match.pair_ns if deal.banker in ("N", "S") else match.pair_ew,
                "points": ap.get("total"),
                "kitty_bonus": ap.get("kitty_bonus"),
                "multiplier": ap.get("multiplier"),
                "outcome": outcome_label(result.get("outcome")),
                "levels": result.get("levels"),
            }
        )
    return render(
        request,
        "tournaments/deal_log.html",
        {
            "tournament": tournament,
            "match": match,
            "rows": rows,
            "result": result_text(match),
            **links_for(request, tournament),
        },
    )


# --- the desk (TD only) ------------------------------------------------------------------------------------


def _desk_redirect(tournament: Tournament):
    return redirect("desk", slug=tournament.slug)


@director_required
def desk(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    rounds = tournament.rounds.annotate(n_matches=Count("matches", distinct=True))
    last = rounds.order_by("-number").first()
    pairs = tournament.pairs.select_related("player1", "player2")
    return render(
        request,
        "tournaments/desk.html",
        {
            "tournament": tournament,
            "rounds": rounds,
            "next_number": (last.number + 1) if last else 1,
            "can_pair": (last is None or last.state != Round.State.DRAFT)
            and ((last.number if last else 0) < tournament.num_rounds),
            "pairs": pairs,
            "active_count": sum(1 for p in pairs if not p.withdrawn),
        },
    )


@director_required
@require_POST
def desk_pair_round(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    try:
        rnd = pair_round(tournament)
    except PairingError as exc:
        messages.error(request, str(exc))
        return _desk_redirect(tournament)
    messages.success(
        request, _("Round %(n)s is paired as a draft: check it, then publish.") % {"n": rnd.number}
    )
    return redirect("desk-round", slug=slug, number=rnd.number)


def _round_forms(request: HttpRequest, tournament: Tournament, rnd: Round):
    pairs = tournament.pairs.filter(withdrawn=False).select_related("player1", "player2")
    judges = get_user_model().objects.filter(groups__name=JUDGE_GROUP).order_by("username")
    n_tables = max((pairs.count() + 1) // 2, rnd.matches.count())
    current = list(rnd.matches.order_by("table").values("pair_ns", "pair_ew", "judge"))
    MatchRows = formset_factory(MatchRowForm, extra=0)
    initial = current + [{}] * (n_tables - len(current))
    data = request.POST if request.method == "POST" and "form-TOTAL_FORMS" in request.POST else None
    formset = MatchRows(data, initial=initial, form_kwargs={"pairs": pairs, "judges": judges})
    byes = ByeForm(data, pairs=pairs, initial={"byes": list(rnd.byes.values_list("pair_id", flat=True))})
    swap = SwapForm(request.POST if "first" in request.POST else None, pairs=pairs)
    return formset, byes, swap


@director_required
@require_http_methods(["GET", "POST"])
def desk_round(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A round at the desk: the draft's tables to edit (manual pairing, swaps), publish or discard."""
    tournament = get_object_or_404(Tournament, slug=slug)
    rnd = get_object_or_404(tournament.rounds, number=number)
    formset, byes, swap = _round_forms(request, tournament, rnd)
    if request.method == "POST":
        try:
            if "first" in request.POST:
                if swap.is_valid():
                    swap_pairs(rnd, swap.cleaned_data["first"].pk, swap.cleaned_data["second"].pk)
                    messages.success(request, _("The pairs are swapped."))
                    return redirect("desk-round", slug=slug, number=number)
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
                return redirect("desk-round", slug=slug, number=number)
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
        "tournaments/desk_round.html",
        {
            "tournament": tournament,
            "round": rnd,
            "pairing": PairingTable(matches, orderable=False),
            "formset": formset,
            "byes_form": byes,
            "swap_form": swap,
            "byes": rnd.byes.select_related("pair"),
            "unplaced": unplaced,
            "is_draft": rnd.state == Round.State.DRAFT,
        },
    )


def _round_step(request: HttpRequest, slug: str, number: int, step, done: str) -> HttpResponse:
    """Publish or discard a round through the pairing service; a refusal goes back to the round's page."""
    tournament = get_object_or_404(Tournament, slug=slug)
    rnd = get_object_or_404(tournament.rounds, number=number)
    try:
        step(rnd)
    except PairingError as exc:
        messages.error(request, str(exc))
        return redirect("desk-round", slug=slug, number=number)
    messages.success(request, done % {"n": number})
    return _desk_redirect(tournament)


@director_required
@require_POST
def desk_publish_round(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    return _round_step(request, slug, number, publish_round, _("Round %(n)s is published."))


@director_required
@require_POST
def desk_delete_round(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    return _round_step(request, slug, number, delete_draft_round, _("The draft of round %(n)s is discarded."))


@director_required
@require_POST
def desk_withdraw(request: HttpRequest, slug: str, pair_id: int) -> HttpResponse:
    """Withdraw a pair (it keeps its results and is not paired again), or bring it back."""
    tournament = get_object_or_404(Tournament, slug=slug)
    pair = get_object_or_404(tournament.pairs, pk=pair_id)
    set_withdrawn(pair, request.POST.get("withdrawn") == "1")
    if pair.withdrawn:
        messages.success(request, _("%(pair)s has withdrawn.") % {"pair": pair.name})
    else:
        messages.success(request, _("%(pair)s plays again.") % {"pair": pair.name})
    return _desk_redirect(tournament)


IMPORT_SESSION_KEY = "desk-import-%s"


@director_required
@require_http_methods(["GET", "POST"])
def desk_import(request: HttpRequest, slug: str) -> HttpResponse:
    """Upload a file; the preview shows every row and every problem; nothing is written until confirmed."""
    tournament = get_object_or_404(Tournament, slug=slug)
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
        "tournaments/desk_import.html",
        {"tournament": tournament, "form": form, "parsed": parsed, "header": header_for()},
    )


@director_required
@require_POST
def desk_import_confirm(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    data = request.session.pop(IMPORT_SESSION_KEY % tournament.pk, None)
    if not data:
        messages.error(request, _("Nothing to import: upload the file again."))
        return redirect("desk-import", slug=slug)
    try:
        created = import_entries(tournament, entries_from_data(data))
    except (ImportFileError, IntegrityError) as exc:
        messages.error(request, str(exc))
        return redirect("desk-import", slug=slug)
    messages.success(request, _("%(n)s pairs imported.") % {"n": len(created)})
    return _desk_redirect(tournament)


@director_required
def desk_import_template(request: HttpRequest, slug: str, fmt: str) -> HttpResponse:
    """An empty import file with the header in the language of the request."""
    get_object_or_404(Tournament, slug=slug)
    if fmt not in ("csv", "xlsx"):
        raise Http404
    if fmt == "csv":
        response = HttpResponse(template_csv(), content_type="text/csv; charset=utf-8")
    else:
        response = HttpResponse(template_xlsx(), content_type=XLSX)
    response["Content-Disposition"] = f'attachment; filename="pairs-template.{fmt}"'
    return response


@director_required
def desk_export(request: HttpRequest, slug: str) -> HttpResponse:
    """The official workbook, headers in the language of the request."""
    tournament = get_object_or_404(Tournament, slug=slug)
    out = io.BytesIO()
    write_workbook(tournament, out)
    response = HttpResponse(out.getvalue(), content_type=XLSX)
    response["Content-Disposition"] = f'attachment; filename="{workbook_filename(tournament)}"'
    return response
