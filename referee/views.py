"""The judges' pages: the match, a new deal, trick entry (JSON actions, no reload), review and submit, quick entry.

Views stay thin: they read the request, call the recording service and render. Every refusal of the service
comes back to the judge as a message in the active language; what the judge typed stays on the page.
"""

from __future__ import annotations

from itertools import chain

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from referee import recording
from referee.forms import NewDealForm, PenaltyForm, QuickEntryForm
from referee.recording import PermissionRefused, RecordingError, Throw
from referee.screens import card_label, deal_state, seat_players
from rules.scoring import PENALTY_FOR_VIOLATION
from rules.seats import SEATS, side_of
from tournaments import access
from tournaments.models import Deal, Match, Penalty, Play, Trick


def load_match(request: HttpRequest, match_id: int) -> Match:
    match = get_object_or_404(
        Match.objects.select_related(
            "round__tournament",
            "pair_ns__player1",
            "pair_ns__player2",
            "pair_ew__player1",
            "pair_ew__player2",
            "judge",
        ),
        pk=match_id,
    )
    if not access.can_read_match(request.user, match):
        raise Http404
    return match


def load_deal(request: HttpRequest, deal_id: int) -> Deal:
    deal = get_object_or_404(Deal.objects.select_related("match"), pk=deal_id)
    deal.match = load_match(request, deal.match_id)
    return deal


def describe_history(h) -> str:
    """One history record in words: which object, with the values that identify it."""
    model = h.instance_type
    name = model._meta.verbose_name
    if model is Play:
        return f"{name} {h.seat} {h.cards}"
    if model is Trick:
        return f"{name} {h.number + 1}" + (f" ({h.throw_attempted})" if h.throw_attempted else "")
    if model is Penalty:
        return f"{name} {h.seat} {h.code} {h.note}".rstrip()
    if model is Deal:
        return f"{name} {h.number} · {h.get_state_display()} · v{h.version}"
    return f"{name} {h.level_ns}:{h.level_ew} {h.get_state_display()}"


def match_history(match: Match) -> list[dict]:
    """Every change to the match and its deals, tricks, plays and penalties, newest first (for the TD)."""
    deal_ids = list(match.deals.values_list("pk", flat=True))
    records = chain(
        match.history.select_related("history_user")[:50],
        Deal.history.filter(match_id=match.pk).select_related("history_user")[:200],
        Trick.history.filter(deal_id__in=deal_ids).select_related("history_user")[:200],
        Play.history.filter(trick__deal_id__in=deal_ids).select_related("history_user")[:200],
        Penalty.history.filter(deal_id__in=deal_ids).select_related("history_user")[:100],
    )
    kinds = {"+": _("created"), "-": _("deleted"), "~": _("changed")}
    rows = [
        {
            "when": h.history_date,
            "who": h.history_user,
            "what": describe_history(h),
            "change": kinds.get(h.history_type, h.history_type),
            "reason": h.history_change_reason or "",
        }
        for h in records
    ]
    return sorted(rows, key=lambda r: r["when"], reverse=True)[:200]


@require_GET
def match_page(request: HttpRequest, match_id: int) -> HttpResponse:
    match = load_match(request, match_id)
    state = recording.table_state(match)
    deals = list(match.deals.select_related("submitted_by", "confirmed_by").order_by("number"))
    open_deal = next((d for d in deals if d.state == Deal.State.RECORDING), None)
    user = request.user
    context = {
        "match": match,
        "tournament": match.round.tournament,
        "state": state,
        "deals": deals,
        "open_deal": open_deal,
        "players": seat_players(match),
        "can_record": access.can_record(user, match),
        "confirmable": {
            d.pk for d in deals if d.state == Deal.State.SUBMITTED and access.can_confirm(user, d)
        },
        "history": match_history(match) if access.can_reopen(user) else None,
        "banker_side": side_of(state.banker) if state.banker else None,
        "time_is_up": bool(state.deadline and timezone.now() >= state.deadline and not state.over),
    }
    return render(request, "referee/match.html", context)


@login_required
@require_POST
def match_action(request: HttpRequest, match_id: int, action: str) -> HttpResponse:
    """Call time after the limit (the judge or the TD), or record a forfeit (the TD)."""
    match = load_match(request, match_id)
    try:
        if action == "call-time":
            recording.call_time(match, request.user)
        elif action == "forfeit":
            recording.forfeit_match(match, request.user, side=request.POST.get("side", ""))
        else:
            raise Http404
    except PermissionRefused as exc:
        return forbidden(request, exc.message)
    except RecordingError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Saved."))
    return redirect("match", match.pk)


@login_required
def new_deal(request: HttpRequest, match_id: int) -> HttpResponse:
    match = load_match(request, match_id)
    if not access.can_record(request.user, match):
        return forbidden(request, _("You may not record this match: it is assigned to another judge."))
    state = recording.table_state(match)
    form = NewDealForm(request.POST or None, needs_declarer=state.banker is None)
    if request.method == "POST" and form.is_valid():
        try:
            deal = recording.start_deal(
                match,
                request.user,
                trump=form.cleaned_data["trump"],
                declarer=form.cleaned_data.get("declarer") or None,
                kitty=form.cleaned_data.get("kitty") or "",
            )
        except RecordingError as exc:
            form.add_error(None, exc.message)
        else:
            return redirect("deal", deal.pk)
    banker = state.banker
    return render(
        request,
        "referee/new_deal.html",
        {
            "match": match,
            "form": form,
            "state": state,
            "banker": banker,
            "level": state.levels[side_of(banker)] if banker else None,
            "players": seat_players(match),
        },
    )


def forbidden(request: HttpRequest, message: str) -> HttpResponse:
    return render(request, "referee/forbidden.html", {"message": message}, status=403)


def entry_labels() -> dict[str, str]:
    """The words the trick-entry script shows, in the judge's language."""
    return {
        "trick": _("Trick %(n)s"),
        "turn": _("to play: %(seat)s"),
        "won": _("won by %(seat)s, %(points)s points"),
        "done": _("All tricks are played."),
        "saved": _("Saved."),
        "network": _("The server did not answer; nothing was lost — try again."),
        "nothing": _("Tap or type the cards first."),
        "leader": _("lead"),
        "throw": _("Failed throw, challenged by %(seat)s: penalty %(penalty)s points."),
        "attempted": _("tried"),
        "shown": _("shown"),
        "forced": _("actually played"),
    }


@login_required
@require_GET
def deal_page(request: HttpRequest, deal_id: int) -> HttpResponse:
    deal = load_deal(request, deal_id)
    return render(
        request,
        "referee/deal.html",
        {
            "deal": deal,
            "match": deal.match,
            "state": deal_state(deal, request.user),
            "seats": SEATS,
            "labels": entry_labels(),
        },
    )


@login_required
@require_GET
def deal_state_json(request: HttpRequest, deal_id: int) -> JsonResponse:
    deal = load_deal(request, deal_id)
    return JsonResponse(deal_state(deal, request.user))


def post_version(request: HttpRequest) -> int | None:
    raw = request.POST.get("version")
    try:
        return int(raw) if raw not in (None, "") else None
    except ValueError:
        return None


def run_action(request: HttpRequest, deal: Deal, action: str, levels: dict | None):
    """Call the service for one posted action; returns what the service returned."""
    user, version, post = request.user, post_version(request), request.POST
    if version is None:  # every page sends the version it shows, so a stale page can never overwrite
        raise RecordingError(_("The page sent no version of the deal: reload it and try again."))
    if action == "play":
        throw = None
        if post.get("throw_attempted", "").strip():
            throw = Throw(
                post["throw_attempted"], post.get("throw_challenger", ""), post.get("throw_shown", "")
            )
        return recording.record_play(
            deal,
            user,
            cards=post.get("cards", ""),
            seat=post.get("seat") or None,
            version=version,
            throw=throw,
            force=post.get("force") == "1",
            levels=levels,
        )
    if action == "undo":
        return recording.undo_last_play(deal, user, version=version)
    if action == "undo_trick":
        return recording.undo_last_trick(deal, user, version=version)
    if action == "kitty":
        return recording.set_kitty(deal, user, post.get("kitty", ""), version=version)
    if action == "penalty":
        form = PenaltyForm(post)
        if not form.is_valid():
            raise RecordingError("; ".join(e for errors in form.errors.values() for e in errors))
        return recording.add_penalty(deal, user, version=version, **form.penalty())
    if action == "remove_penalty":
        return recording.remove_penalty(
            deal, user, penalty_id=int(post.get("penalty", 0) or 0), version=version
        )
    if action == "submit":
        return recording.submit_deal(deal, user, version=version)
    if action == "confirm":
        return recording.confirm_deal(deal, user, version=version)
    if action == "reopen":
        return recording.reopen_deal(deal, user, version=version, reason=post.get("reason", ""))
    raise Http404


def wants_json(request: HttpRequest) -> bool:
    return "application/json" in request.headers.get("Accept", "")


@login_required
@require_POST
def deal_action(request: HttpRequest, deal_id: int, action: str) -> HttpResponse:
    """One write to a deal. The page's script gets JSON (the new state, or the refusal with the state)."""
    deal = load_deal(request, deal_id)
    # The deal's start levels, read once for the play's check and the new screen (only they need them).
    levels = recording.levels_before(deal) if action == "play" or wants_json(request) else None
    status, payload = 200, {"ok": True}
    try:
        run_action(request, deal, action, levels)
    except RecordingError as exc:
        status = {"forbidden": 403, "stale": 409, "illegal": 422}.get(exc.code, 400)
        payload = {"ok": False, "error": exc.code, "message": exc.message, **exc.details}
    match = deal.match
    deal.refresh_from_db()
    deal.match = match  # already loaded with its pairs and players
    if wants_json(request):
        payload["state"] = deal_state(deal, request.user, levels)
        return JsonResponse(payload, status=status)
    if payload["ok"]:
        messages.success(request, _("Saved."))
    else:
        messages.error(request, payload["message"])
    target = request.POST.get("next") or ""
    if target == "match" or action in ("confirm",):
        return redirect("match", deal.match_id)
    if action in ("submit", "reopen") and payload["ok"]:
        return redirect("match", deal.match_id)
    return redirect("review" if target == "review" else "deal", deal.pk)


@login_required
@require_GET
def review(request: HttpRequest, deal_id: int) -> HttpResponse:
    """End of deal: the whole-deal verdict, penalties, and a preview of points and levels before submitting."""
    deal = load_deal(request, deal_id)
    snap = recording.snapshot(deal)  # one read for the verdict and the completeness check
    if deal.mode == Deal.Mode.TRICKS:
        verdict = recording.judge_probe(snap.record()).as_dict()
    else:
        verdict = deal.verdict or {}
    violations = [
        {
            **v,
            "penalty": PENALTY_FOR_VIOLATION.get(v["code"]),
            "message_local": v["message_zh"] if request.LANGUAGE_CODE.startswith("zh") else v["message"],
        }
        for v in verdict.get("violations", [])
    ]
    return render(
        request,
        "referee/review.html",
        {
            "deal": deal,
            "match": deal.match,
            "verdict": verdict,
            "violations": violations,
            "penalties": deal.penalties.select_related("recorded_by"),
            "penalty_form": PenaltyForm(),
            "kitty": [card_label(c) for c in deal.kitty.split()],
            "complete": snap.complete,
            "can_record": access.can_record(request.user, deal.match),
            "can_confirm": deal.state == Deal.State.SUBMITTED and access.can_confirm(request.user, deal),
        },
    )


@login_required
def quick_entry(request: HttpRequest, match_id: int) -> HttpResponse:
    match = load_match(request, match_id)
    if not access.can_record(request.user, match):
        return forbidden(request, _("You may not record this match: it is assigned to another judge."))
    if not match.round.tournament.quick_entry_allowed:
        return forbidden(request, _("Quick entry is not allowed in this tournament."))
    state = recording.table_state(match)
    form = QuickEntryForm(request.POST or None, needs_declarer=state.banker is None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        penalties = (
            [{"seat": data["penalty_seat"], "code": data["penalty_code"], "note": data["penalty_note"]}]
            if data.get("penalty_code")
            else []
        )
        try:
            deal = recording.quick_entry(
                match,
                request.user,
                trump=data["trump"],
                points=data["points"],
                kitty_points=data["kitty_points"],
                last_lead=data["last_lead"],
                attackers_won_last=data["attackers_won_last"],
                declarer=data.get("declarer") or None,
                penalties=penalties,
            )
        except RecordingError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(
                request, _("Deal %(n)s submitted; another person must confirm it.") % {"n": deal.number}
            )
            return redirect("match", match.pk)
    return render(request, "referee/quick.html", {"match": match, "form": form, "state": state})
