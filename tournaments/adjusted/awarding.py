"""The director's adjusted results: a forfeit win, both sides losing, assigned levels, a deal voided — each with
its reason — and withdrawing one; the match is folded again at once (``recompute_match``), so its state, the
standings, the pages and the workbook follow."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.competition.access import can_reopen
from tournaments.competition.free_text import text_problem
from tournaments.models import RANK_CHOICES, Adjustment, Match
from tournaments.scoring.entries import lock_for_entry
from tournaments.scoring.errors import PermissionRefused, RecordingError
from tournaments.scoring.fold import recompute_match

OTHER_SIDE = {"NS": "EW", "EW": "NS"}
REASON_LENGTH = 300


def require_director(user, tournament) -> None:
    if not can_reopen(user, tournament):
        raise PermissionRefused(_("Only the tournament director can adjust a result."))


def checked_reason(reason: str) -> str:
    reason = " ".join((reason or "").split())
    if not reason:
        raise RecordingError(_("Say why the result is adjusted: the reason is shown with it."))
    if problem := text_problem(reason, REASON_LENGTH):
        raise RecordingError(problem)
    return reason


def adjustment_for(
    match: Match, kind: str, *, side: str, level_ns: str, level_ew: str, deal_number
) -> Adjustment:
    """The adjustment asked for, checked (not saved)."""
    adjustment = Adjustment(match=match, kind=kind)
    if kind == Adjustment.Kind.FORFEIT:
        if side not in OTHER_SIDE:
            raise RecordingError(_("Choose the side that wins by forfeit."))
        adjustment.side = side
    elif kind == Adjustment.Kind.LEVELS:
        ranks = dict(RANK_CHOICES)
        if level_ns not in ranks or level_ew not in ranks:
            raise RecordingError(_("Choose both sides' levels."))
        adjustment.level_ns, adjustment.level_ew = level_ns, level_ew
    elif kind == Adjustment.Kind.VOID_DEAL:
        deal = match.deals.filter(number=deal_number).first() if deal_number else None
        if deal is None:
            raise RecordingError(_("Choose a deal of this match."))
        if deal.adjustments.filter(withdrawn_at__isnull=True).exists():
            raise RecordingError(_("This deal is void already."))
        adjustment.deal = deal
    elif kind != Adjustment.Kind.BOTH_LOSE:
        raise RecordingError(_("Choose the adjusted result."))
    return adjustment


@transaction.atomic
def award(
    match: Match,
    user,
    *,
    kind: str,
    reason: str,
    side: str = "",
    level_ns: str = "",
    level_ew: str = "",
    deal_number: int | None = None,
) -> Adjustment:
    """The director awards a result: it stands over what was played until withdrawn."""
    require_director(user, match.round.tournament)
    match = lock_for_entry(match)
    adjustment = adjustment_for(
        match, kind, side=side, level_ns=level_ns, level_ew=level_ew, deal_number=deal_number
    )
    if (standing := same_ruling_standing(adjustment)) is not None:
        return standing  # a double tap, or the same ruling posted twice: it stands once
    adjustment.reason, adjustment.made_by = checked_reason(reason), user
    adjustment.save()
    if kind == Adjustment.Kind.FORFEIT:
        forfeit_as(match, user, adjustment)
    recompute_match(match)
    return adjustment


def same_ruling_standing(adjustment: Adjustment) -> Adjustment | None:
    """The match result in force when it is already the one asked for (read under the match's lock, so six
    identical posts at once leave one; withdrawing it then leaves no twin in force)."""
    if adjustment.kind not in Adjustment.MATCH_KINDS:
        return None  # a deal voided twice is refused by ``adjustment_for``
    standing = Adjustment.objects.match_result(adjustment.match)
    fields = ("kind", "side", "level_ns", "level_ew")
    same = standing is not None and all(getattr(standing, f) == getattr(adjustment, f) for f in fields)
    return standing if same else None


def forfeit_as(match: Match, user, adjustment: Adjustment | None) -> None:
    """The match's forfeit (what the engine's fold reads) as a forfeit adjustment says; none clears it."""
    forfeit = adjustment is not None and adjustment.kind == Adjustment.Kind.FORFEIT
    match.forfeited_by = OTHER_SIDE[adjustment.side] if adjustment is not None and forfeit else ""
    match._history_user = user
    match.save(update_fields=["forfeited_by"])


@transaction.atomic
def withdraw(adjustment: Adjustment, user) -> Adjustment:
    """The director takes an adjustment back: it stays listed as withdrawn, the match is folded again."""
    require_director(user, adjustment.match.round.tournament)
    match = lock_for_entry(adjustment.match)
    adjustment = Adjustment.objects.select_for_update().get(pk=adjustment.pk)
    if adjustment.withdrawn_at is not None:
        raise RecordingError(_("This adjustment is withdrawn already."))
    adjustment.withdrawn_at, adjustment.withdrawn_by = timezone.now(), user
    adjustment.save(update_fields=["withdrawn_at", "withdrawn_by"])
    if adjustment.kind == Adjustment.Kind.FORFEIT:
        forfeit_as(match, user, Adjustment.objects.match_result(match))
    recompute_match(match)
    return adjustment


def adjustments_of(match: Match) -> list[Adjustment]:
    """Every adjustment of the match, withdrawn ones too, in order (the match page lists them)."""
    related = ("deal", "made_by", "withdrawn_by")
    return list(match.adjustments.select_related(*related).order_by("made_at", "pk"))
