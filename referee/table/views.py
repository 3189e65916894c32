"""The judges' pages: the match, a new deal, trick entry (JSON actions, no reload), review and submit, quick entry.

Views stay thin: they read the request, make one call (a screen of ``referee.table.screens``, a play of ``referee.table.play``, or a posted write of
``referee.table.actions``, which answers a retried write once) and render. Every refusal of the service comes back to
the judge as a message in the active language; what the judge typed stays on the page.
"""

from __future__ import annotations

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

from referee.table import actions, offline, play
from referee.table.forms import NewDealForm, PenaltyForm, QuickEntryForm
from referee.table.screens import pages
from referee.table.screens.deal_state import current_deal_state
from referee.table.screens.labels import done_sentence
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


def saved_message(match: Match, action: str) -> str:
    """What the page says after a match action: a forfeit names the pair that wins by it."""
    if action == "forfeit":
        match.refresh_from_db(fields=["winner"])
        if match.winner is not None:
            return _("Forfeit recorded: %(pair)s wins the match.") % {"pair": match.winner.name}
    return done_sentence(action)


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


@login_required
@require_POST
def match_action(request: HttpRequest, match_id: int, action: str) -> HttpResponse:
    """Call time after the limit (the judge or the TD), or record a forfeit (the TD)."""
    match = load_match(request, match_id)
    if action not in actions.MATCH_ACTIONS:
        raise Http404
    outcome = actions.act_on_match(match, request.user, action, request.POST, actions.request_key(request))
    if outcome.status == PermissionRefused.status:
        return forbidden(request, outcome.message)
    if outcome.ok:
        messages.success(request, saved_message(match, action))
    else:
        messages.error(request, outcome.message)
    return redirect(same_site_next(request) or reverse("match", args=[match.pk]))


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


@login_required
@require_POST
def deal_action(request: HttpRequest, deal_id: int, action: str) -> HttpResponse:
    """One write to a deal. The page's script gets JSON (the new state, or the refusal with the state)."""
    deal = load_deal(request, deal_id)
    if action not in actions.DEAL_ACTIONS:
        raise Http404
    answer = actions.act_on_deal(deal, request.user, action, request.POST, actions.request_key(request))
    return answered(request, deal, action, answer)


@login_required
@require_POST
def deal_play(request: HttpRequest, deal_id: int) -> HttpResponse:
    """A play (``/deal/<id>/play/``): one call of the play service (``play.play``), answered as every action is."""
    deal = load_deal(request, deal_id)
    return answered(
        request, deal, "play", play.play(deal, request.user, request.POST, actions.request_key(request))
    )


def answered(request: HttpRequest, deal: Deal, action: str, answer: actions.DealAnswer) -> HttpResponse:
    """An action's answer: JSON for the page's script (the new state, or the refusal with the state), else the
    message and the page to go on to."""
    if wants_json(request):
        return json_response(answer.payload(), status=answer.status)
    if action == "pin_confirm" and not answer.ok:  # the players stay on the form, the sentence on it
        return pin_form_again(request, deal, answer.outcome.message, answer.status)
    if action == "submit" and answer.ok and submitted_here(request.user, deal):
        return redirect(reverse("review", args=[deal.pk]) + "#pin")  # submitted at the table: the PINs next
    if answer.ok:
        messages.success(request, done_sentence(action))
    else:
        messages.error(request, answer.outcome.message)
    target = request.POST.get("next") or ""
    if action == "confirm" and target == "queue" and access.scores(request.user, deal.match.round.tournament):
        return redirect("desk-queue", slug=deal.match.round.tournament.slug)  # the director works through it
    reopened_to_change = (
        action == "reopen" and target == "review"
    )  # the review's reopen: the change comes next
    if (
        target == "match"
        or action in ("confirm", "pin_confirm")
        or (action in ("submit", "reopen") and answer.ok and not reopened_to_change)
    ):
        return redirect("match", deal.match_id)
    return redirect("review" if target == "review" else "deal", deal.pk)


def submitted_here(user, deal: Deal) -> bool:
    """Whether the deal, just submitted, waits for the PINs on this screen (the table's own)."""
    deal.refresh_from_db()
    return access.can_confirm_by_pin(user, deal)


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
