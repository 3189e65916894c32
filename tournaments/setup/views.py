"""The director's setup pages: a new tournament, an existing tournament's settings and ruleset (one form), and
deleting a tournament created by mistake (the director types its name).

Buttons that only rearrange the form (a tie-break up or down, take a preset's values) show it again without
saving. Saving a changed ruleset of a tournament whose deals are recorded first asks the director to confirm
that every deal is scored again; ``tournaments.setup.services.save_settings`` does the rest.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from rules.ruleset import PRESETS, Ruleset, RulesetError
from tournaments.competition.finishing import TournamentFinished
from tournaments.competition.page_guards import desk_page, director_required
from tournaments.models import Tournament
from tournaments.organisations.forms import organisation_field
from tournaments.organisations.services import owner_of_new
from tournaments.setup.forms import DeleteTournamentForm, RulesetForm, TournamentForm, moved
from tournaments.setup.services import (
    SettingsError,
    delete_tournament,
    recorded_deals,
    rules_change,
    save_settings,
    why_not_delete_tournament,
)


@director_required
@require_http_methods(["GET", "POST"])
def new_tournament(request: HttpRequest) -> HttpResponse:
    return settings_page(request, Tournament())


@desk_page
@require_http_methods(["GET", "POST"])
def tournament_settings(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return settings_page(request, tournament)


def tournament_form(request: HttpRequest, tournament: Tournament, data=None) -> TournamentForm:
    """The settings form; a new tournament of someone who directs several organisations asks whose it is."""
    form = TournamentForm(data, instance=tournament)
    organisation_field(form, request.user, tournament)
    return form


def stored_spec(tournament: Tournament):
    """The tournament's ruleset as the form starts from it (the standard preset if what is stored is unreadable)."""
    try:
        return Ruleset.from_spec(tournament.ruleset).to_spec()
    except RulesetError:
        return "standard"


def settings_page(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    spec = stored_spec(tournament)
    if request.method == "GET":
        return show(request, tournament, tournament_form(request, tournament), RulesetForm(spec=spec))
    data = request.POST
    if "move" in data or "take_preset" in data:
        data = moved(data, data["move"]) if "move" in data else data
        form = tournament_form(request, tournament, data)
        form.quiet = True
        if "take_preset" in data:
            chosen = data.get("rules-preset")
            rules = RulesetForm(spec=spec, preset=chosen if chosen in PRESETS else None)
        else:
            rules = RulesetForm(data, spec=spec)
            rules.quiet = True
        return show(request, tournament, form, rules)
    form, rules = tournament_form(request, tournament, data), RulesetForm(data, spec=spec)
    if not (form.is_valid() and rules.is_valid()):
        return show(request, tournament, form, rules, status=400)
    instance = form.save(commit=False)
    if instance.pk is None:
        instance.organisation = form.cleaned_data.get("organisation") or owner_of_new(request.user)
    asks = not instance.is_finished and "confirm_rescore" not in data  # a finished tournament refuses at once
    if asks and rules_change(instance, rules.spec) and recorded_deals(instance)[0]:
        return show(request, tournament, form, rules, confirm=recorded_deals(instance))
    new = instance.pk is None
    try:
        saved = save_settings(instance, rules.spec, request.user, duplicate=form.duplicate())
    except (SettingsError, TournamentFinished) as exc:  # the form stays as typed, with the refusal above it
        messages.error(request, exc.message)
        return show(request, tournament, form, rules, status=exc.status)
    messages.success(request, _("Tournament created.") if new else _("Settings saved."))
    return redirect("desk", slug=saved.slug)


def show(request, tournament, form, rules, *, confirm=None, status=200) -> HttpResponse:
    return render(
        request,
        "tournaments/setup/settings.html",
        {
            "tournament": tournament if tournament.pk else None,
            "form": form,
            "rules": rules,
            "confirm": confirm,
            "delete_blocker": why_not_delete_tournament(tournament) if tournament.pk else None,
        },
        status=status,
    )


@desk_page
@require_http_methods(["GET", "POST"])
def tournament_delete(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """What deleting the tournament removes and the field for its name (or why it cannot be deleted); the
    post deletes it and goes to the site's home page."""
    form = DeleteTournamentForm(request.POST or None, tournament=tournament)
    refusal, status = None, 200
    if request.method == "POST" and form.is_valid():
        try:
            delete_tournament(tournament, request.user)
        except SettingsError as exc:
            refusal, status = exc.message, exc.status
        else:
            messages.success(request, _("%(name)s is deleted.") % {"name": tournament.name})
            return redirect("home")
    return render(
        request,
        "tournaments/setup/tournament_delete.html",
        {
            "tournament": tournament,
            "form": form,
            "refusal": refusal or why_not_delete_tournament(tournament),
            "pairs": tournament.pairs.order_by("name"),
        },
        status=status,
    )
