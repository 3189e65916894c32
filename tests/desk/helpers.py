"""Building finished matches and confirmed deals straight through the models (as the recording service would),
the files a director uploads, the setup forms as posted, and a client that reads English."""

from __future__ import annotations

import io

import openpyxl
from django.urls import reverse

from tournaments.models import Deal, Match, Round, Tournament
from tournaments.setup.forms import RulesetForm, TournamentForm


def xlsx_bytes(rows) -> bytes:
    """A workbook whose first sheet holds ``rows``."""
    wb = openpyxl.Workbook()
    for row in rows:
        wb.active.append(row)
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def play(rnd: Round, table: int, ns, ew, winner=None, level_ns="2", level_ew="2", ended_by="target") -> Match:
    """A finished match: ``winner`` None is a draw."""
    return Match.objects.create(
        round=rnd,
        table=table,
        pair_ns=ns,
        pair_ew=ew,
        state=Match.State.FINISHED,
        winner=winner,
        level_ns=level_ns,
        level_ew=level_ew,
        ended_by=ended_by,
    )


def finish(match: Match, winner=None, level_ns="2", level_ew="2", ended_by="target") -> Match:
    match.state = Match.State.FINISHED
    match.winner = winner
    match.level_ns, match.level_ew, match.ended_by = level_ns, level_ew, ended_by
    match.save()
    return match


def verdict(
    total: int, outcome: str, levels: int = 1, kitty: int = 0, multiplier: int = 0, penalties: int = 0
):
    bonus = kitty * multiplier
    return {
        "ok": True,
        "violations": [],
        "tricks": [],
        "attackers_points": {
            "tricks": total - bonus - penalties,
            "kitty": kitty,
            "multiplier": multiplier,
            "kitty_bonus": bonus,
            "penalties": penalties,
            "total": total,
        },
        "result": {
            "outcome": outcome,
            "side": "banker" if outcome != "takeover" else "attackers",
            "levels": levels,
            "next_banker": None if outcome == "match_won" else "N",
        },
    }


def deal(
    match: Match,
    number: int,
    banker: str,
    total: int,
    outcome: str,
    *,
    level="2",
    trump="S",
    state=Deal.State.CONFIRMED,
    **kw,
) -> Deal:
    return Deal.objects.create(
        match=match,
        number=number,
        banker=banker,
        level=level,
        trump=trump,
        state=state,
        verdict=verdict(total, outcome, **kw),
    )


def settings_data(tournament=None, *, preset: str | None = None, **changes) -> dict:
    """What the settings page posts when saved as shown (a new tournament's defaults, or ``tournament``'s
    settings; ``preset`` starts the ruleset from that preset), with ``changes`` by field name: the ruleset's
    settings are ``rules-<setting>``. A value None leaves the field out, as an unticked box."""

    tournament = tournament or Tournament()
    data: dict = {}
    forms = (TournamentForm(instance=tournament), RulesetForm(spec=tournament.ruleset, preset=preset))
    for form in forms:
        for bound in form:
            value = bound.value()
            if value is True:
                value = "on"
            if value is False or value is None and bound.widget_type == "checkbox":
                continue
            data[bound.html_name] = "" if value is None else value
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


def en(client):
    client.cookies["django_language"] = "en"
    return client


def settings_url(t: Tournament) -> str:
    return reverse("desk-settings", args=[t.slug])


def delete_url(t: Tournament) -> str:
    return reverse("desk-delete-tournament", args=[t.slug])


def tournament_form(**changes) -> TournamentForm:
    from django.http import QueryDict

    data = QueryDict(mutable=True)
    for key, value in settings_data(**({"name": "Spring Cup"} | changes)).items():
        if isinstance(value, list):
            data.setlist(key, value)
        elif not key.startswith("rules-"):
            data[key] = str(value)
    return TournamentForm(data, instance=Tournament())


def ruleset_form(preset: str = "standard", **changes) -> RulesetForm:
    from django.http import QueryDict

    data = QueryDict(mutable=True)
    for key, value in settings_data(preset=preset, **changes).items():
        if not key.startswith("rules-"):
            continue
        if isinstance(value, list):
            data.setlist(key, value)
        else:
            data[key] = str(value)
    return RulesetForm(data)
