"""A table's calls on its pages (the call button, and what became of each call) and the open calls on the
director's board, so the pages that show them need no change to their views."""

from __future__ import annotations

from django import template

from tournaments.calls import services as calls
from tournaments.calls.forms import CallForm
from tournaments.competition import access
from tournaments.duplicate.movement import is_duplicate_match

register = template.Library()


@register.inclusion_tag("tournaments/calls/_table_box.html", takes_context=True)
def call_box(context, match) -> dict:
    """The table's "call the referee" form (for whoever records the match) and the match's calls."""
    user = context["request"].user
    return {
        "match": match,
        "can_call": access.can_record(user, match),
        "calls": calls.match_calls(match) if access.is_official(user, match) else [],
        "form": CallForm(boards=is_duplicate_match(match)),
        "csrf_token": context.get("csrf_token"),
        "request": context["request"],
    }


@register.inclusion_tag("tournaments/calls/_strip.html")
def open_calls(tournament) -> dict:
    """The open calls strip at the top of the board (empty when no table waits)."""
    return {"tournament": tournament, "calls": calls.waiting_calls(tournament)}


@register.filter
def waited(call) -> int:
    """The minutes the call has waited (until it was resolved)."""
    return calls.waiting_minutes(call)
