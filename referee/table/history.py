"""A match's change history in words, for the TD: every change to the match and its deals, tricks, plays and
penalties (kept by django-simple-history), newest first.
"""

from __future__ import annotations

from itertools import chain

from django.utils.translation import gettext as _

from rules.ranks import rank_text
from tournaments.competition.display import card_faces, penalty_note
from tournaments.models import Deal, Match, Penalty, Play, Trick


def describe_history(h) -> str:
    """One history record in words: which object, with the values that identify it (seats, cards and
    penalties by name, as the pages show them)."""
    model = h.instance_type
    name = model._meta.verbose_name
    if model is Play:
        return f"{name} {h.get_seat_display()} {card_faces(h.cards)}"
    if model is Trick:
        return f"{name} {h.number + 1}" + (f" ({card_faces(h.throw_attempted)})" if h.throw_attempted else "")
    if model is Penalty:
        return f"{name} {h.get_seat_display()} {h.get_code_display()} {penalty_note(h.note)}".rstrip()
    if model is Deal:
        return f"{name} {h.number} · {h.get_state_display()} · v{h.version}"
    return f"{name} {rank_text(h.level_ns)}:{rank_text(h.level_ew)} {h.get_state_display()}"


def match_history(match: Match) -> list[dict]:
    """Every change to the match and its deals, tricks, plays and penalties, newest first (at most 200)."""
    deal_ids = list(match.deals.values_list("pk", flat=True))
    records = chain(
        match.history.select_related("history_user")[:50],
        Deal.history.filter(match_id=match.pk).select_related("history_user")[:200],
        Trick.history.filter(deal_id__in=deal_ids).select_related("history_user")[:200],
        Play.history.filter(trick__deal_id__in=deal_ids).select_related("history_user")[:200],
        Penalty.history.filter(deal_id__in=deal_ids).select_related("history_user")[:100],
    )
    kinds = {"+": _("created"), "-": _("deleted"), "~": _("changed")}
    rows = [
        {
            "when": h.history_date,
            "who": h.history_user,
            "what": describe_history(h),
            "change": kinds.get(h.history_type, h.history_type),
            "reason": h.history_change_reason or "",
        }
        for h in records
    ]
    return sorted(rows, key=lambda r: r["when"], reverse=True)[:200]
