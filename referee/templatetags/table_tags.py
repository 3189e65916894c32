"""Small display filters for the judges' pages."""

from django import template

from referee.recording.snapshot import seat_name
from rules.ranks import rank_text

register = template.Library()


register.filter("level_text", rank_text)  # a level as players say it: T → 10


@register.filter
def seat_text(seat: str | None) -> str:
    """A seat in the active language: ``W`` → 西."""
    return seat_name(seat) or "—"
