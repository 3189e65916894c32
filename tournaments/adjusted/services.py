"""Adjusted results on the database: which deals are void, which match result the director set, and that result
put on the match when its deals are folded again (``referee.table.recording.match_fold.recompute_match`` asks
``apply_to_match`` last, so an adjustment survives every later confirm, reopen or re-scoring)."""

from __future__ import annotations

from django.db.models import QuerySet
from django.utils import timezone

from rules.ruleset import Ruleset
from rules.standings import ladder_positions
from tournaments.models import Adjustment, Match, Tournament


def void_deal_ids(**where) -> QuerySet:
    """The ids of the deals voided by an adjustment in force (a subquery; ``where`` narrows it: ``match=…``)."""
    rows = Adjustment.objects.standing().filter(kind=Adjustment.Kind.VOID_DEAL, **where)
    return rows.values("deal_id")


def match_adjustment(match: Match) -> Adjustment | None:
    """The match result the director awarded and still stands (the latest, when several were made)."""
    rows = Adjustment.objects.standing().filter(match=match, kind__in=Adjustment.MATCH_KINDS)
    return rows.order_by("-made_at", "-pk").first()


def winner_by_levels(match: Match, level_ns: str, level_ew: str):
    """The pair on the higher level (its rung on the ladder), None when level."""
    positions = ladder_positions(Ruleset.from_spec(match.round.tournament.ruleset))
    ns, ew = positions.get(level_ns, 0), positions.get(level_ew, 0)
    return None if ns == ew else (match.pair_ns if ns > ew else match.pair_ew)


def apply_to_match(match: Match) -> Adjustment | None:
    """Put the awarded result on the match (not saved: the fold saves it). A forfeit needs nothing here: it is
    the match's ``forfeited_by``, which the engine's fold reads."""
    adjustment = match_adjustment(match)
    if adjustment is None or adjustment.kind == Adjustment.Kind.FORFEIT:
        return adjustment
    if adjustment.kind == Adjustment.Kind.LEVELS:
        match.level_ns, match.level_ew = adjustment.level_ns, adjustment.level_ew
        match.winner = winner_by_levels(match, adjustment.level_ns, adjustment.level_ew)
    else:  # both sides lose
        match.winner = None
    match.state = Match.State.FINISHED
    match.ended_by = Match.EndedBy.ADJUSTED
    match.ended_at = match.ended_at or timezone.now()
    return adjustment


def both_lose_ids(tournament: Tournament) -> set[int]:
    """The matches of the tournament where the director ruled that both sides lose (standings count two losses)."""
    rows = Adjustment.objects.of(tournament).standing().filter(kind=Adjustment.Kind.BOTH_LOSE)
    both = set(rows.values_list("match_id", flat=True))
    # Only where it is the match's standing result (a later adjustment replaces it).
    return {pk for pk in both if match_adjustment(Match(pk=pk)).kind == Adjustment.Kind.BOTH_LOSE}


def adjusted_pair_ids(tournament: Tournament) -> set[int]:
    """The pairs with an adjusted result in force (a match result or a void deal), for the standings' mark."""
    rows = Adjustment.objects.of(tournament).standing()
    pairs = rows.values_list("match__pair_ns_id", "match__pair_ew_id")
    return {pk for pair in pairs for pk in pair}


def adjustments_of(match: Match) -> list[Adjustment]:
    """Every adjustment of the match, withdrawn ones too, in order (the match page lists them)."""
    related = ("deal", "made_by", "withdrawn_by")
    return list(match.adjustments.select_related(*related).order_by("made_at", "pk"))


def voided_deal_numbers(match_ids) -> dict[int, list[int]]:
    """By match, the numbers of its deals voided by an adjustment in force (the result lists mark them)."""
    rows = Adjustment.objects.standing().filter(kind=Adjustment.Kind.VOID_DEAL, match_id__in=list(match_ids))
    out: dict[int, list[int]] = {}
    for match_id, number in rows.order_by("deal__number").values_list("match_id", "deal__number"):
        out.setdefault(match_id, []).append(number)
    return out
