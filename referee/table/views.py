"""The judges' pages: the match, a new deal, trick entry (JSON actions, no reload), review and submit, quick entry.

Views stay thin: they read the request, make one call (a screen of ``referee.table.screens``, or a posted write of
``referee.table.actions``, a play among them, which answers a retried write once) and render. One view per action
(``deal_write``, ``match_write``): the answer names the page to go on to. Every refusal of the service comes back
to the judge as a message in the active language; what the judge typed stays on the page.
"""

from __future__ import annotations

from collections.abc import Callable

import orjson
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.core.serializers.json import DjangoJSONEncoder
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from referee.table import actions, offline
from referee.table.forms import NewDealForm, PenaltyForm, QuickEntryForm
from referee.table.screens import pages
from referee.table.screens.deal_state import current_deal_state
from referee.table.screens.review import review_screen
from tournaments.competition import access
from tournaments.models import Deal, Match
from tournaments.scoring import sql
from tournaments.scoring.errors import Finished, PermissionRefused
from tournaments.table_links import services as table_links

# What the judges' pages show of a match: read with it in one query.
MATCH_RELATED = (
    "round__tournament",
    "pair_ns__player1",
    "pair_ns__player2",
    "pair_ew__player1",
    "pair_ew__player2",
    "judge",
)


def readable(request: HttpRequest, match: Match) -> Match:
    """The match, when this user may read it; otherwise it is not found (404). A table's device opens its own
    table's pages only (403, with the reason)."""
    refuse_other_table(request, match)
    if not access.can_read_match(request.user, match):
        raise Http404
    return match


def refuse_other_table(request: HttpRequest, match: Match) -> None:
    """A device signed in by a table's link opens that table's pages alone, while its link works."""
    refusal = access.table_refusal(request.user, match)
    if refusal:
        raise PermissionDenied(refusal)


def load_match(request: HttpRequest, match_id: int) -> Match:
    return readable(request, get_object_or_404(Match.objects.select_related(*MATCH_RELATED), pk=match_id))


# The deal with its match, round, tournament, pairs and players, in one query (its pages show no judge): read on
# every play, so written once as SQL (``sql``).
DEAL_WITH_MATCH = sql.ModelRead(Deal, [f"match__{name}" for name in MATCH_RELATED if name != "judge"], "id")


def load_deal(request: HttpRequest, deal_id: int) -> Deal:
    """The deal with its match and the people at its table, when this user may read the match's deals."""
    deal = None
    if 0 < deal_id < 2**63:  # a row id is a 64-bit integer
        deal = DEAL_WITH_MATCH.first(deal_id)
    if deal is not None:
        refuse_other_table(request, deal.match)
    if deal is None or not access.can_read_deals(request.user, deal.match):  # the match, and its deals
        raise Http404
    return deal


def forbidden(request: HttpRequest, message: str) -> HttpResponse:
    return render(request, "referee/forbidden.html", {"message": message}, status=403)


def refused_page(request: HttpRequest, exc: PermissionRefused | Finished) -> HttpResponse:
    """A page the service refuses to this user (403), or to everyone while the tournament is finished (409)."""
    title = _("The tournament is finished") if isinstance(exc, Finished) else ""
    context = {"message": exc.message, "title": title}
    return render(request, "referee/forbidden.html", context, status=exc.status)


def same_site_next(request: HttpRequest) -> str:
    """The posted ``next`` page when it is a path of this site (the desk's withdraw page sends one), else ""."""
    target = request.POST.get("next") or ""
    safe = url_has_allowed_host_and_scheme(target, {request.get_host()}, request.is_secure())
    return target if safe and target.startswith("/") else ""


def wants_json(request: HttpRequest) -> bool:
    return "application/json" in request.headers.get("Accept", "")


DJANGO_JSON = DjangoJSONEncoder()


def json_response(data: dict, status: int = 200) -> HttpResponse:
    """``JsonResponse``'s answer, encoded by orjson (the deal's state after every play: the hot path); what only
    Django's encoder knows (a lazy translation, a decimal) it encodes as Django's would."""
    body = orjson.dumps(
        data, default=DJANGO_JSON.default, option=orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME
    )
    return HttpResponse(body, content_type="application/json", status=status)


@require_GET
def match_page(request: HttpRequest, match_id: int) -> HttpResponse:
    match = load_match(request, match_id)
    table_links.note_visit(request.user, getattr(request, "session", None))
    return render(request, "referee/match.html", pages.match_screen(match, request.user))


def match_write(service: Callable[..., actions.MatchAnswer]) -> Callable[..., HttpResponse]:
    """The view of one action on a match (``actions.call_time``, ``actions.forfeit``): the message, then the page
    that sent the form (a path of this site) or the match."""

    @login_required
    @require_POST
    def view(request: HttpRequest, match_id: int) -> HttpResponse:
        match = load_match(request, match_id)
        answer = service(match, request.user, request.POST, actions.request_key(request))
        if answer.outcome.status == PermissionRefused.status:
            return forbidden(request, answer.outcome.message)
        (messages.success if answer.outcome.ok else messages.error)(request, answer.message)
        return redirect(answer.onward(same_site_next(request)))

    view.__doc__ = service.__doc__
    return view


@login_required
def new_deal(request: HttpRequest, match_id: int) -> HttpResponse:
    match = load_match(request, match_id)
    try:
        screen = pages.new_deal_screen(match, request.user)
    except (PermissionRefused, Finished) as exc:
        return refused_page(request, exc)
    form = NewDealForm(
        request.POST or None, needs_declarer=screen["needs_declarer"], ruleset=screen["ruleset"]
    )
    if request.method == "POST" and form.is_valid():
        key = actions.request_key(request)
        outcome = actions.start_deal(match, request.user, form.deal(), key)
        if outcome.ok:  # the key names the start this device kept for a restored desk (static/js/start.js)
            return redirect(
                reverse("deal", args=[outcome.body["deal"]])
                + (f"?{urlencode({'start': key})}" if key else "")
            )
        form.add_error(None, outcome.message)
    return render(request, "referee/new_deal.html", {**screen, "form": form})


@login_required
@require_GET
def deal_page(request: HttpRequest, deal_id: int) -> HttpResponse:
    deal = load_deal(request, deal_id)
    context = {**pages.deal_screen(deal, request.user), "journal_labels": offline.journal_labels()}
    return render(request, "referee/deal.html", context)


@login_required
@require_GET
def deal_state_json(request: HttpRequest, deal_id: int) -> HttpResponse:
    deal = load_deal(request, deal_id)
    return json_response(current_deal_state(deal, request.user))


def deal_write(service: Callable[..., actions.DealAnswer]) -> Callable[..., HttpResponse]:
    """The view of one action on a deal (``actions.play``, ``actions.undo``, …): one call of its service,
    answered by ``answered``."""

    @login_required
    @require_POST
    def view(request: HttpRequest, deal_id: int) -> HttpResponse:
        deal = load_deal(request, deal_id)
        return answered(request, service(deal, request.user, request.POST, actions.request_key(request)))

    view.__doc__ = service.__doc__
    return view


def answered(request: HttpRequest, answer: actions.DealAnswer) -> HttpResponse:
    """An action's answer: JSON for the page's script (the new state, or the refusal with the state), else the
    message and the page the answer goes on to (``DealAnswer.onward``)."""
    if wants_json(request):
        return json_response(answer.payload(), status=answer.status)
    onward = answer.onward(request.POST.get("next") or "")
    if onward.url is None:  # the players stay on the form, the sentence on it
        return pin_form_again(request, answer.deal, answer.outcome.message, answer.status)
    if onward.tell:
        (messages.success if answer.ok else messages.error)(request, answer.message)
    return redirect(onward.url)


def pin_form_again(request: HttpRequest, deal: Deal, message: str, status: int) -> HttpResponse:
    """The review with the PIN form and the refusal on it (a wrong or missing PIN), nothing typed kept."""
    deal.refresh_from_db()
    context = {
        **review_screen(deal, request.user),
        "penalty_form": PenaltyForm(),
        "pin_error": message,
    }
    return render(request, "referee/review.html", context, status=status)


@require_GET
def review(request: HttpRequest, deal_id: int) -> HttpResponse:
    """End of deal: the whole-deal verdict, penalties, and a preview of points and levels before submitting.
    Read by whoever may read the match's deals (``access.can_read_deals``): a visitor without an account too when
    the deal log is public, who sees no form (each is offered by ``can_record``, ``can_confirm`` or the TD); any other
    visitor without an account is sent to log in, as before."""
    try:
        deal = load_deal(request, deal_id)
    except Http404:
        if request.user.is_authenticated:
            raise
        return redirect_to_login(request.get_full_path())
    context = {**review_screen(deal, request.user), "penalty_form": PenaltyForm()}
    return render(request, "referee/review.html", context)


# The guide's pictures (``static/help/<name>-<language>.png``), taken from the pages at phone size by
# ``tests/browser/test_reopen_and_guide.py`` (``HELP_PICTURES=1``).
HELP_PICTURES = ("notation", "settle", "offline", "confirm")


@require_GET
def judge_guide(request: HttpRequest) -> HttpResponse:
    """The judge's one-page guide (printable on A4), with pictures of the entry screens in the reader's language."""
    suffix = "zh" if (get_language() or "").startswith("zh") else "en"
    pictures = {name: f"help/{name}-{suffix}.png" for name in HELP_PICTURES}
    return render(request, "referee/help_judge.html", {"pictures": pictures})


@login_required
def quick_entry(request: HttpRequest, match_id: int) -> HttpResponse:
    match = load_match(request, match_id)
    try:
        screen = pages.quick_screen(match, request.user)
    except (PermissionRefused, Finished) as exc:
        return refused_page(request, exc)
    form = QuickEntryForm(
        request.POST or None, needs_declarer=screen["needs_declarer"], ruleset=screen["ruleset"]
    )
    if request.method == "POST" and form.is_valid():
        outcome = actions.quick_entry(match, request.user, form.deal(), actions.request_key(request))
        if outcome.ok:
            messages.success(
                request,
                _("Deal %(n)s submitted; another person must confirm it.") % {"n": outcome.body["number"]},
            )
            return redirect("match", match.pk)
        form.add_error(None, outcome.message)
    return render(request, "referee/quick.html", {**screen, "form": form})


# One view per action, each calling its service (paths: ``urls.py``).
record_play = deal_write(actions.play)
undo = deal_write(actions.undo)
undo_trick = deal_write(actions.undo_trick)
kitty = deal_write(actions.kitty)
penalty = deal_write(actions.penalty)
remove_penalty = deal_write(actions.remove_penalty)
played = deal_write(actions.played)
apply = deal_write(actions.apply)
dismiss = deal_write(actions.dismiss)
undismiss = deal_write(actions.undismiss)
out_of_turn = deal_write(actions.out_of_turn)
winner = deal_write(actions.winner)
given_back = deal_write(actions.given_back)
submit = deal_write(actions.submit)
confirm = deal_write(actions.confirm)
reopen = deal_write(actions.reopen)
pin_confirm = deal_write(actions.pin_confirm)
call_time = match_write(actions.call_time)
forfeit = match_write(actions.forfeit)
