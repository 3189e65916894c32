"""Deals store both sides' levels when they began (``Deal.start_levels``), so a play need not fold the deals
before it. Existing deals get them here from that fold: the played (submitted or confirmed) deals before each,
replayed by the engine as ``tournaments.scoring.fold.levels_before`` does. A match whose deals the engine
cannot fold is left empty; the site then folds it on reading, as before."""

import dataclasses

from django.db import migrations, models

from rules.match import MatchDeal, MatchError, replay_played
from rules.ruleset import Ruleset, RulesetError

PLAYED = ("submitted", "confirmed")


def penalty_entries(Penalty, match) -> dict[int, list[dict]]:
    """Each deal's DEAL-RECORD ``penalties``, in the order they were called."""
    entries: dict[int, list[dict]] = {}
    for p in Penalty.objects.filter(deal__match=match).order_by("recorded_at", "pk"):
        entry = {"seat": p.seat, "code": p.code, "note": p.note}
        if p.trick is not None:
            entry["trick"] = p.trick
        entries.setdefault(p.deal_id, []).append(entry)
    return entries


def start_levels(match, deals, penalties) -> dict[int, dict]:
    """Both sides' levels at the start of each deal (by pk), from the played deals numbered before it."""
    tournament = match.round.tournament
    rs = Ruleset.from_spec(tournament.ruleset)
    if tournament.match_time_limit:
        rs = dataclasses.replace(rs, time_limit_minutes=tournament.match_time_limit)
    played = [
        (
            deal.number,
            MatchDeal.from_record(
                rs,
                {"banker": deal.banker, "level": deal.level, "penalties": penalties.get(deal.pk, [])},
                {"result": deal.verdict["result"], "attackers_points": {"total": deal.attackers_total or 0}},
                started_at=deal.started_at,
                finished_at=deal.finished_at,
            ),
        )
        for deal in deals
        if deal.state in PLAYED and (deal.verdict or {}).get("result")
    ]
    out = {}
    for deal in deals:
        earlier = [folded for number, folded in played if number < deal.number]
        state, _notes = replay_played(rs, earlier, started_at=match.started_at)
        out[deal.pk] = dict(state.levels)
    return out


def fill(apps, schema_editor):
    Match = apps.get_model("tournaments", "Match")
    Deal = apps.get_model("tournaments", "Deal")
    Penalty = apps.get_model("tournaments", "Penalty")
    for match in Match.objects.filter(deals__isnull=False).distinct().select_related("round__tournament"):
        deals = list(Deal.objects.filter(match=match).order_by("number"))
        try:
            levels = start_levels(match, deals, penalty_entries(Penalty, match))
        except (MatchError, RulesetError, KeyError, TypeError, ValueError):
            continue
        for pk, value in levels.items():
            Deal.objects.filter(pk=pk).update(start_levels=value)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0004_engine_tie_break_codes"),
    ]

    operations = [
        migrations.AddField(
            model_name="deal",
            name="start_levels",
            field=models.JSONField(blank=True, editable=False, null=True, verbose_name="levels at the start"),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
