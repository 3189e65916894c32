"""A tournament's ruleset changed after deals were recorded: every played deal is scored again under the new
rules, in deal order, then every match is recomputed (``fold.recompute_match``).

The desk saves the settings in ``tournaments.setup.services.save_settings``, which calls ``rescore_tournament``
inside the save's transaction. A deal the new rules cannot score, or that they would leave with an unsettled
violation, refuses the change (a ``RecordingError`` naming the table and round, which the desk shows) and the
transaction rolls back: the tournament keeps its rules.

It answers within the director's request (a 64-pair round's deals in well under a second: docs/benchmarks.md):
the deals, their tricks and their penalties are read in a few statements for the whole tournament, each match is
folded once in memory as its deals are scored, and the changed verdicts are written in bulk with their history
rows before the matches are recomputed.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from simple_history.utils import get_history_manager_for_model

from rules.match import MatchError
from rules.ruleset import Ruleset, RulesetError
from tournaments.models import Adjustment, Deal, Match
from tournaments.scoring import sql
from tournaments.scoring.errors import RecordingError
from tournaments.scoring.fold import (
    FOLD_FIELDS,
    PLAYED,
    DealStarts,
    first_banker_of,
    match_deal,
    recompute_match,
)
from tournaments.scoring.quick_totals import quick_verdict
from tournaments.scoring.rulesets import ruleset_for
from tournaments.scoring.settlement import read_settlement
from tournaments.scoring.snapshot import DealRows

REASON = "scored again under the tournament's new rules"
WRITTEN = ["verdict", "attackers_total", "banker_held", "version", "changed_by", "changed_at"]


@transaction.atomic
def rescore_tournament(tournament, user) -> int:
    """Score every played deal of the tournament again and recompute every match; the number of deals whose
    verdict changed."""
    matches = list(
        Match.objects.of(tournament).select_related("round__tournament").order_by("round__number", "table")
    )
    deals: dict[int, list[Deal]] = {}
    for deal in Deal.objects.filter(match__in=matches, state__in=PLAYED).order_by("match_id", "number"):
        deals.setdefault(deal.match_id, []).append(deal)
    rows = DealRows.read([d.pk for played in deals.values() for d in played])
    void = set(Adjustment.objects.void_deal_ids(match__in=matches).values_list("deal_id", flat=True))
    changed: list[Deal] = []
    for match in matches:
        try:
            changed += rescore_match(match, deals.get(match.pk, []), rows, void)
        except (RecordingError, RulesetError, MatchError) as exc:
            raise RecordingError(
                _(
                    "Under these rules a deal of table %(table)s in round %(round)s cannot be scored, so the "
                    "rules were not changed."
                )
                % {"table": match.table, "round": match.round.number}
            ) from exc
    write_verdicts(changed, user)
    for match in matches:
        recompute_match(match)
    return len(changed)


def rescore_match(match: Match, played: list[Deal], rows: DealRows, void: set[int]) -> list[Deal]:
    """Each played deal's verdict again under the match's rules, in order, the deals whose verdict changed (not
    yet saved)."""
    changed = []
    for deal, verdict in judged(match, played, rows, void):
        if verdict != deal.verdict:
            deal.verdict = verdict
            changed.append(deal)
    return changed


def judged(match: Match, played: list[Deal], rows: DealRows, void: set[int]) -> Iterator[tuple[Deal, dict]]:
    """Each played deal with the verdict the rules engine gives it now, in order: each deal starts at the levels
    the deals before it now give, folded in memory from the verdicts just made, void deals left out as the fold
    leaves them out (``fold.fold_rows``). RecordingError when a deal cannot be scored."""
    rs = ruleset_for(match)
    folded = [fold_row(deal, rows) for deal in played if deal.pk not in void]
    starts = DealStarts(match, rs, first_banker_of(match, folded))
    for deal in played:
        deal.match = match
        verdict = rescored_verdict(deal, rs, dict(starts.at(deal.started_at).levels), rows)
        if deal.pk not in void:
            row = {**fold_row(deal, rows), "verdict__result": verdict["result"]}
            starts.add(match_deal({**row, "attackers_total": verdict["attackers_points"]["total"]}, rs))
        yield deal, verdict


def judged_verdicts(match: Match) -> Iterator[tuple[Deal, dict]]:
    """One match's played deals judged again (``judged``), read on their own: the rescoring and the archive's
    import (``tournaments.backup.archive``) judge through the one loop."""
    played = list(match.deals.filter(state__in=PLAYED).order_by("number"))
    rows = DealRows.read([d.pk for d in played])
    void = set(Adjustment.objects.void_deal_ids(match=match).values_list("deal_id", flat=True))
    return judged(match, played, rows, void)


def fold_row(deal: Deal, rows: DealRows) -> dict:
    """The deal as ``fold.fold_rows`` reads it: its columns, its verdict's result and its penalties."""
    return {
        **{name: getattr(deal, name) for name in FOLD_FIELDS},
        "verdict__result": deal.result,
        "penalties": rows.penalty_entries(deal.pk),
    }


def rescored_verdict(deal: Deal, rs: Ruleset, levels: dict[str, str], rows: DealRows) -> dict:
    """The deal's verdict under ``rs`` from ``levels`` (both sides' when it began); RecordingError when it has no
    result or an unsettled violation."""
    if deal.mode == Deal.Mode.QUICK:
        return json.loads(json.dumps(quick_verdict(deal, rs, levels)))
    judged = rows.snapshot(deal, rs, levels).judged()
    if not judged.as_dict().get("result"):
        raise RecordingError(_("The engine could not score this deal."))
    if judged.violations and read_settlement(deal).open(judged):
        raise RecordingError(_("A violation would be left unsettled."))
    return json.loads(json.dumps(judged.as_dict()))  # as stored: lists, not tuples


def write_verdicts(deals: Iterable[Deal], user) -> None:
    """Save the new verdicts as ``versions.touch`` saves a change (a new version, who and when, the history row
    with the reason): one UPDATE run for every deal (``sql.update_rows``), the history rows in bulk."""
    now = timezone.now()
    changed_by = user if getattr(user, "is_authenticated", False) else None
    rows = list(deals)
    for deal in rows:
        deal.fill_totals()
        deal.version += 1
        deal.changed_by, deal.changed_at = changed_by, now
        deal._history_user, deal._change_reason = changed_by, REASON
    sql.update_rows(rows, WRITTEN)
    history = get_history_manager_for_model(Deal)
    history.bulk_history_create(rows, batch_size=500, update=True, default_user=changed_by, default_date=now)
