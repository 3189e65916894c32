"""The team desk's playoff draw: the settings and, for a shared last qualifying place, the director's choice;
the bracket shown before it is saved (``preview``), then saved (``save``); drawn again until the first playoff
deal starts. Thin, over ``teams.playoffs``."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest
from django.shortcuts import redirect
from django.utils.translation import gettext as _

from rules.knockout import seed_numbers
from tournaments.league import playoffs
from tournaments.league.errors import TeamError
from tournaments.models import Team, TeamEvent, Tournament
from tournaments.teams.forms import PlayoffForm


def _per_zone(request: HttpRequest, event: TeamEvent) -> int:
    value = request.POST.get("per_zone", "")
    return int(value) if value.isdigit() and 1 <= int(value) <= 16 else event.playoff_per_zone


def playoff_form(request: HttpRequest, tournament: Tournament, event: TeamEvent | None, action: str | None):
    """The draw's form: bound when posted, with a choice for each shared last place at the teams per zone
    asked (or saved)."""
    if event is None:
        return PlayoffForm()
    posted = action in ("playoffs", "playoffs-preview")
    per_zone = _per_zone(request, event) if posted else event.playoff_per_zone
    shared = playoffs.shared(tournament, per_zone) if tournament.teams.exists() else []
    initial = {"per_zone": event.playoff_per_zone, "seeding": event.playoff_seeding}
    initial["third_place"] = event.playoff_third_place
    return PlayoffForm(request.POST if posted else None, initial=initial, shared=shared)


def first_round(tournament: Tournament, lines: list) -> list[dict]:
    """The bracket's first round as the desk shows it before saving: each tie's two teams with their seeds
    (None: a bye)."""
    seeds = seed_numbers(lines)
    teams = Team.objects.in_bulk([t for t in lines if t is not None])
    out = []
    for a, b in zip(lines[0::2], lines[1::2], strict=True):
        out.append(
            {
                "a": teams.get(a),
                "a_seed": seeds.get(a),
                "b": teams.get(b),
                "b_seed": seeds.get(b),
            }
        )
    return out


def playoff_step(request: HttpRequest, tournament: Tournament, form: PlayoffForm, action: str | None):
    """The posted draw: (a redirect once saved, or None; the first round to show before saving)."""
    if action not in ("playoffs", "playoffs-preview") or not form.is_valid():
        return None, None
    d = form.cleaned_data
    try:
        if action == "playoffs-preview":
            lines = playoffs.draw_lines(tournament, d["per_zone"], d["seeding"], form.chosen())
            return None, first_round(tournament, lines)
        playoffs.start_playoffs(tournament, d["per_zone"], d["seeding"], d["third_place"], form.chosen())
    except TeamError as exc:
        form.add_error(None, exc.message)
        return None, None
    messages.success(request, _("The playoffs are drawn."))
    return redirect("team-playoffs", slug=tournament.slug), None
