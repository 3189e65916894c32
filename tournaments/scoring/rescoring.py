"""A tournament's ruleset changed after deals were recorded: every played deal is scored again under the new
rules, in deal order, then every match is recomputed (``fold.recompute_match``).

The desk saves the settings in ``tournaments.setup.services.save_settings``, which calls ``rescore_tournament``
inside the save's transaction. A deal the new rules cannot score, or that they would leave with an unsettled
violation, refuses the change (a ``RecordingError`` naming the table and round, which the desk shows) and the
transaction rolls back: the tournament keeps its rules.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

from django.db import transaction
from django.utils.translation import gettext as _

from rules.match import MatchDeal, MatchError
from rules.ruleset import RulesetError
from tournaments.models import Deal, Match
from tournaments.scoring.errors import RecordingError
from tournaments.scoring.fold import (
    PLAYED,
    first_banker_of,
    fold_rows,
    match_deal,
    recompute_match,
    replay_deals,
)
from tournaments.scoring.quick_totals import quick_verdict
from tournaments.scoring.rulesets import ruleset_for
from tournaments.scoring.settlement import read_settlement
from tournaments.scoring.snapshot import snapshot
from tournaments.scoring.versions import touch


@transaction.atomic
def rescore_tournament(tournament, user) -> int:
    """Score every played deal of the tournament again and recompute every match; the number of deals whose
    verdict changed."""
    changed = 0
    matches = Match.objects.of(tournament).select_related("round__tournament")
    for match in matches.order_by("round__number", "table"):
        try:
            changed += rescore_match(match, user)
            recompute_match(match)
        except (RecordingError, RulesetError, MatchError) as exc:
            raise RecordingError(
                _(
                    "Under these rules a deal of table %(table)s in round %(round)s cannot be scored, so the "
                    "rules were not changed."
                )
                % {"table": match.table, "round": match.round.number}
            ) from exc
    return changed


def rescore_match(match: Match, user) -> int:
    """Each played deal's verdict again under the match's rules (``judged_verdicts``), stored where it changed;
    the number of deals whose verdict changed."""
    changed = 0
    for deal, verdict in judged_verdicts(match):
        if verdict != deal.verdict:
            deal.verdict = verdict
            deal._change_reason = "scored again under the tournament's new rules"
            touch(deal, user)
            changed += 1
    return changed


def judged_verdicts(match: Match) -> Iterator[tuple[Deal, dict]]:
    """Each played deal with the verdict the rules engine gives it now, in order: each deal starts at the levels
    the deals before it give, folded in memory from the verdicts just made (as ``fold.levels_before`` would read
    them back, one read of the match's deals instead of one per deal). The rescoring and the archive's import
    (``tournaments.backup.archive``) judge through this one loop. RecordingError when a deal cannot be scored."""
    rs = ruleset_for(match)
    rows = {row["pk"]: row for row in fold_rows(match, PLAYED, None)}  # void deals left out, as the fold does
    first_banker = first_banker_of(match, list(rows.values()))
    played: list[MatchDeal] = []
    for deal in match.deals.filter(state__in=PLAYED).order_by("number"):
        deal.match = match
        state, _notes = replay_deals(match, rs, played, first_banker, next_start=deal.started_at)
        verdict = rescored_verdict(deal, rs, dict(state.levels))
        yield deal, verdict
        if deal.pk in rows:
            row = {**rows[deal.pk], "verdict__result": verdict["result"]}
            played.append(match_deal({**row, "attackers_total": verdict["attackers_points"]["total"]}, rs))


def rescored_verdict(deal: Deal, rs, levels: dict[str, str]) -> dict:
    """The deal's verdict under ``rs`` from ``levels`` (both sides' when it began); RecordingError when it has no
    result or an unsettled violation."""
    if deal.mode == Deal.Mode.QUICK:
        return json.loads(json.dumps(quick_verdict(deal, rs, levels)))
    judged = snapshot(deal, levels).judged()
    if not judged.as_dict().get("result"):
        raise RecordingError(_("The engine could not score this deal."))
    if judged.violations and read_settlement(deal).open(judged):
        raise RecordingError(_("A violation would be left unsettled."))
    return json.loads(json.dumps(judged.as_dict()))  # as stored: lists, not tuples
