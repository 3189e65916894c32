"""The desk's pages for people: pairs and players (list, add, edit, withdraw with a prompt to forfeit, reinstate,
delete one entered by mistake, the captain's account), judges (accounts, passwords shown once, the judge at each table) and directors (another
director's account, one's own password). Thin: read the request, one service call
(``tournaments.people.pairs``, ``tournaments.people.accounts``), render."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth import get_user_model, update_session_auth_hash
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.forms import PasswordChangeForm
from django.core.exceptions import PermissionDenied
from django.db.models import F
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from tournaments.competition import access
from tournaments.competition.accounts import display_name
from tournaments.competition.page_guards import desk_page, director_required
from tournaments.models import Match, Pair, Tournament
from tournaments.people.accounts import (
    assign_judge,
    create_director_account,
    create_judge,
    give_captain_account,
    remove_captain_account,
    require_no_captain,
    reset_captain_password,
    reset_password,
    set_active,
)
from tournaments.people.errors import PeopleError
from tournaments.people.forms import CaptainForm, DirectorForm, JudgeForm, PairForm, TableJudgeForm
from tournaments.people.pairs import (
    delete_pair,
    draft_rounds_with,
    late_entry_note,
    open_matches,
    save_pair,
    set_withdrawn,
    sharing_pairs,
    why_not_delete_pair,
)

MATCH_PAIRS = ("pair_ns__player1", "pair_ns__player2", "pair_ew__player1", "pair_ew__player2", "judge")


def _refused(request: HttpRequest, exc: PeopleError, target: str) -> HttpResponse:
    messages.error(request, exc.message)
    return redirect(target)


def _pair(tournament: Tournament, pair_id: int) -> tuple[Tournament, Pair]:
    """The tournament and its pair (404 for another tournament's pair), the players and captain read with it."""
    pairs = tournament.pairs.select_related("player1", "player2", "captain")
    return tournament, get_object_or_404(pairs, pk=pair_id)


# --- pairs -------------------------------------------------------------------------------------------------


@desk_page
def pairs(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    rows = tournament.pairs.select_related("player1", "player2", "captain", "pin").order_by(
        F("seed").asc(nulls_last=True), "name"
    )
    return render(
        request,
        "tournaments/people/pairs.html",
        {"tournament": tournament, "pairs": rows, "active_count": sum(1 for p in rows if not p.withdrawn)},
    )


def _pair_form(request: HttpRequest, tournament: Tournament, pair=None) -> HttpResponse:
    form = PairForm(request.POST or None, tournament=tournament, pair=pair)
    if request.method == "POST" and form.is_valid():
        try:
            saved = save_pair(tournament, form.entry(), pair)
        except PeopleError as exc:
            form.add_error(None, exc.message)
        else:
            done = _("%(pair)s is entered.") if pair is None else _("%(pair)s is saved.")
            messages.success(request, done % {"pair": saved.name})
            return redirect("desk-pairs", slug=tournament.slug)
    return render(
        request,
        "tournaments/people/pair_form.html",
        {
            "tournament": tournament,
            "pair": pair,
            "form": form,
            "late_note": late_entry_note(tournament) if pair is None else "",
            "delete_blocker": why_not_delete_pair(pair) if pair is not None else None,
        },
    )


@desk_page
@require_http_methods(["GET", "POST"])
def pair_add(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return _pair_form(request, tournament)


@desk_page
@require_http_methods(["GET", "POST"])
def pair_edit(request: HttpRequest, tournament: Tournament, pair_id: int) -> HttpResponse:
    return _pair_form(request, *_pair(tournament, pair_id))


@desk_page
@require_http_methods(["GET", "POST"])
def pair_withdraw(request: HttpRequest, tournament: Tournament, pair_id: int) -> HttpResponse:
    """Before: the confirmation. After (the pair has withdrawn): its open published matches, each with the
    button that records its forfeit (the match page's own forfeit action, the one way to record one)."""
    tournament, pair = _pair(tournament, pair_id)
    if request.method == "POST":
        try:
            set_withdrawn(pair, True, by=request.user)
        except PeopleError as exc:
            return _refused(request, exc, request.path)
        messages.success(request, _("%(pair)s has withdrawn.") % {"pair": pair.name})
        return redirect("desk-pair-withdraw", slug=tournament.slug, pair_id=pair.pk)
    return render(
        request,
        "tournaments/people/pair_withdraw.html",
        {
            "tournament": tournament,
            "pair": pair,
            "open_matches": [(m, "NS" if m.pair_ns_id == pair.pk else "EW") for m in open_matches(pair)],
            "drafts": draft_rounds_with(pair),
        },
    )


@desk_page
@require_POST
def pair_reinstate(request: HttpRequest, tournament: Tournament, pair_id: int) -> HttpResponse:
    _tournament, pair = _pair(tournament, pair_id)
    try:
        set_withdrawn(pair, False, by=request.user)
    except PeopleError as exc:
        return _refused(request, exc, reverse("desk-pairs", args=[tournament.slug]))
    messages.success(request, _("%(pair)s plays again from the next round.") % {"pair": pair.name})
    return redirect("desk-pairs", slug=tournament.slug)


@desk_page
@require_http_methods(["GET", "POST"])
def pair_delete(request: HttpRequest, tournament: Tournament, pair_id: int) -> HttpResponse:
    """What deleting the pair removes (the pair, its players no other pair uses; its captain's account stays),
    or why it cannot be deleted; the post deletes it and goes back to the pairs."""
    tournament, pair = _pair(tournament, pair_id)
    refusal, status = None, 200
    if request.method == "POST":
        try:
            delete_pair(pair, by=request.user)
        except PeopleError as exc:
            refusal, status = exc.message, exc.status
        else:
            messages.success(request, _("%(name)s is deleted.") % {"name": pair.name})
            return redirect("desk-pairs", slug=tournament.slug)
    return render(
        request,
        "tournaments/people/pair_delete.html",
        {
            "tournament": tournament,
            "pair": pair,
            "refusal": refusal or why_not_delete_pair(pair),
            "drafts": draft_rounds_with(pair),  # to edit or discard
            "players": sharing_pairs(pair),
        },
        status=status,
    )


@desk_page
@never_cache
@require_http_methods(["GET", "POST"])
def pair_captain(request: HttpRequest, tournament: Tournament, pair_id: int) -> HttpResponse:
    """The pair's captain's account: the form that gives one (a new account's password shown once), or the
    account with its new-password and remove buttons."""
    tournament, pair = _pair(tournament, pair_id)
    form = CaptainForm(request.POST or None, pair=pair)
    if request.method == "POST":
        try:
            require_no_captain(pair)  # a stale form's answer, whatever it typed
        except PeopleError as exc:
            return _refused(request, exc, request.path)
    if request.method == "POST" and form.is_valid():
        try:
            account, password = give_captain_account(
                pair, form.cleaned_data["username"], form.cleaned_data["name"], by=request.user
            )
        except PeopleError as exc:
            return _refused(request, exc, request.path)
        if password is not None:
            return _password_page(request, tournament, account, password, _("A captain's log-in"), pair)
        messages.success(
            request,
            _("%(name)s is now the captain's account of %(pair)s; its password is unchanged.")
            % {"name": account.get_username(), "pair": pair.name},
        )
        return redirect(request.path)
    return render(
        request,
        "tournaments/people/pair_captain.html",
        {"tournament": tournament, "pair": pair, "form": form},
    )


@desk_page
@never_cache
@require_POST
def pair_captain_password(request: HttpRequest, tournament: Tournament, pair_id: int) -> HttpResponse:
    """A new password for the captain's account, shown once (the captain's page asked first)."""
    tournament, pair = _pair(tournament, pair_id)
    try:
        account, password = reset_captain_password(pair)
    except PeopleError as exc:
        return _refused(request, exc, reverse("desk-pair-captain", args=[tournament.slug, pair.pk]))
    return _password_page(request, tournament, account, password, _("A captain's new password"), pair)


@desk_page
@require_POST
def pair_captain_remove(request: HttpRequest, tournament: Tournament, pair_id: int) -> HttpResponse:
    _tournament, pair = _pair(tournament, pair_id)
    back = reverse("desk-pair-captain", args=[tournament.slug, pair.pk])
    try:
        account = remove_captain_account(pair, by=request.user)
    except PeopleError as exc:
        return _refused(request, exc, back)
    messages.success(
        request,
        _("%(name)s is no longer the captain's account of %(pair)s: it confirms none of its deals.")
        % {"name": account.get_username(), "pair": pair.name},
    )
    return redirect(back)


# --- judges ------------------------------------------------------------------------------------------------


def _judge(user_id: int):
    account = get_object_or_404(get_user_model(), pk=user_id)
    if not access.is_judge_account(account):  # a TD's account is never managed from here
        raise Http404
    return account


@desk_page
def judges(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return render(
        request,
        "tournaments/people/judges.html",
        {
            "tournament": tournament,
            "judges": [(j, access.is_judge_account(j)) for j in access.judge_accounts(include_inactive=True)],
            "rounds": tournament.rounds.order_by("number"),
        },
    )


def _password_page(
    request: HttpRequest,
    tournament: Tournament,
    account,
    password: str,
    heading: str | Promise,
    pair=None,
    back=None,
) -> HttpResponse:
    """The password, shown this once (never stored in clear, never cached), ready to print for the judge, the
    captain or the director; back to the judges, the captain's pair, or ``back``."""
    back = back or (
        (reverse("desk-pair-captain", args=[tournament.slug, pair.pk]), _("Back to the pair"))
        if pair is not None
        else (reverse("desk-judges", args=[tournament.slug]), _("Back to the judges"))
    )
    response = render(
        request,
        "tournaments/people/password.html",
        {
            "tournament": tournament,
            "account": account,
            "name": display_name(account),
            "password": password,
            "heading": heading,
            "pair": pair,
            "back": back,
            "login_url": request.build_absolute_uri(reverse("login")),
        },
    )
    response["Cache-Control"] = "no-store"
    return response


# The accounts the desk creates: form, service, the password page's heading, the form's line, where to go back.
ACCOUNT_KINDS: dict[
    str,
    tuple[
        type[JudgeForm] | type[DirectorForm],
        Callable[..., tuple[AbstractBaseUser, str]],
        Promise,
        Promise,
        str,
        Promise,
    ],
] = {
    "judge": (
        JudgeForm,
        create_judge,
        gettext_lazy("A new judge's log-in"),
        gettext_lazy(
            "The password is made for you and shown once, on the next page: print it or write it down."
        ),
        "desk-judges",
        gettext_lazy("Back to the judges"),
    ),
    "director": (
        DirectorForm,
        create_director_account,
        gettext_lazy("A new director's log-in"),
        gettext_lazy(
            "The new director runs every event of this tournament's organisation (or this tournament alone, when it "
            "belongs to none). The password is made for you and shown once, on the next page: hand it over, then "
            "they change it."
        ),
        "desk-directors",
        gettext_lazy("Back to the directors"),
    ),
}


def _account_add(request: HttpRequest, tournament: Tournament, kind: str) -> HttpResponse:
    """A new judge's or director's account (``ACCOUNT_KINDS``): the form, then the password shown once."""
    form_class, create, heading, intro, back_to, back_label = ACCOUNT_KINDS[kind]
    form = form_class(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            if kind == "director":
                account, password = create(
                    form.cleaned_data["username"], form.cleaned_data["name"], tournament
                )
            else:
                account, password = create(form.cleaned_data["username"], form.cleaned_data["name"])
        except PeopleError as exc:
            form.add_error("username", exc.message)
        else:
            back = (reverse(back_to, args=[tournament.slug]), back_label)
            return _password_page(request, tournament, account, password, heading, back=back)
    return render(
        request,
        "tournaments/people/account_form.html",
        {
            "tournament": tournament,
            "form": form,
            "heading": form_class.title,
            "intro": intro,
            "back": back_to,
        },
    )


@desk_page
@never_cache
@require_http_methods(["GET", "POST"])
def judge_add(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return _account_add(request, tournament, "judge")


@desk_page
@never_cache
@require_http_methods(["GET", "POST"])
def judge_password(request: HttpRequest, tournament: Tournament, user_id: int) -> HttpResponse:
    """A new password for a judge: the confirmation, then the password shown once."""
    account = _judge(user_id)
    if request.method == "POST":
        password = reset_password(account)
        return _password_page(request, tournament, account, password, _("A judge's new password"))
    return render(
        request,
        "tournaments/people/judge_reset.html",
        {"tournament": tournament, "account": account, "name": display_name(account)},
    )


@desk_page
@require_POST
def judge_active(request: HttpRequest, tournament: Tournament, user_id: int) -> HttpResponse:
    account = _judge(user_id)
    active = request.POST.get("active") == "1"
    set_active(account, active)
    done = _("%(name)s may log in again.") if active else _("%(name)s can no longer log in.")
    messages.success(request, done % {"name": display_name(account)})
    return redirect("desk-judges", slug=tournament.slug)


@desk_page
def round_judges(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    """The judge at each table of a round, to assign or change, drafted or published."""
    rnd = get_object_or_404(tournament.rounds, number=number)
    matches = rnd.matches.select_related(*MATCH_PAIRS).order_by("table")
    rows = [(m, TableJudgeForm(initial={"judge": m.judge_id}, prefix=f"m{m.pk}")) for m in matches]
    return render(
        request,
        "tournaments/people/round_judges.html",
        {"tournament": tournament, "round": rnd, "rows": rows},
    )


@desk_page
@require_POST
def table_judge(request: HttpRequest, tournament: Tournament, match_id: int) -> HttpResponse:
    match = get_object_or_404(
        Match.objects.select_related("round"), pk=match_id, round__tournament=tournament
    )
    back = reverse("desk-round-judges", args=[tournament.slug, match.round.number])
    form = TableJudgeForm(request.POST, prefix=f"m{match.pk}")
    if not form.is_valid():
        messages.error(request, _("Choose an active judge."))
        return redirect(back)
    try:
        assign_judge(match, form.cleaned_data["judge"], request.user)
    except PeopleError as exc:
        return _refused(request, exc, back)
    messages.success(request, _("Table %(table)s is saved.") % {"table": match.table})
    return redirect(back)


# --- directors ---------------------------------------------------------------------------------------------


@desk_page
def directors(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return render(
        request,
        "tournaments/people/directors.html",
        {"tournament": tournament, "directors": access.tournament_directors(tournament)},
    )


@desk_page
@never_cache
@require_http_methods(["GET", "POST"])
def director_add(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return _account_add(request, tournament, "director")


@director_required
@never_cache
@require_http_methods(["GET", "POST"])
def password_change(request: HttpRequest) -> HttpResponse:
    """A director changes their own password (Django's form: the old one, the new one twice, its validators);
    this session stays logged in, the account's others end."""
    user = request.user
    if not isinstance(
        user, get_user_model()
    ):  # never: ``director_required`` let in a signed-in director only
        raise PermissionDenied
    form = PasswordChangeForm(user, request.POST or None)
    if request.method == "POST" and form.is_valid():
        update_session_auth_hash(request, form.save())
        messages.success(request, _("Your password is changed."))
        return redirect("home")
    return render(request, "registration/password_change.html", {"form": form})
