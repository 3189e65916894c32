"""An adjusted result in words, and the match page's list of them (no change to the match page's view)."""

from __future__ import annotations

from django import template
from django.utils.translation import gettext as _

from rules.ranks import rank_text
from tournaments.adjusted.awarding import adjustments_of
from tournaments.competition import access
from tournaments.models import Adjustment

register = template.Library()


@register.filter
def adjustment_text(adjustment: Adjustment) -> str:
    """ "Forfeit win: 东风队", "Assigned levels: 5 : 3", "Deal 4 void", "Both sides lose"."""
    kind = adjustment.get_kind_display()
    if adjustment.kind == Adjustment.Kind.FORFEIT:
        return _("%(kind)s: %(pair)s") % {"kind": kind, "pair": adjustment.match.pair_of(adjustment.side)}
    if adjustment.kind == Adjustment.Kind.LEVELS:
        levels = f"{rank_text(adjustment.level_ns)} : {rank_text(adjustment.level_ew)}"
        return _("%(kind)s: %(levels)s") % {"kind": kind, "levels": levels}
    if adjustment.kind == Adjustment.Kind.VOID_DEAL and adjustment.deal is not None:
        return _("Deal %(n)s void") % {"n": adjustment.deal.number}
    return str(kind)


@register.filter
def is_void(deal) -> bool:
    """The deal is voided by an adjustment in force (the match page marks it)."""
    return deal.adjustments.filter(kind=Adjustment.Kind.VOID_DEAL, withdrawn_at__isnull=True).exists()


@register.inclusion_tag("tournaments/adjusted/_match_box.html", takes_context=True)
def adjustments_box(context, match) -> dict:
    """The match's adjusted results (marked on its page for whoever sees its result), and the director's link."""
    user = context["request"].user
    shown = access.can_read_results(user, match)
    return {
        "match": match,
        "adjustments": [a for a in adjustments_of(match) if a.withdrawn_at is None] if shown else [],
        "is_director": access.directs(user, match.round.tournament),
    }
