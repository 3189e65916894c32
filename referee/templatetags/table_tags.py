"""Small display filters for the judges' pages."""

from django import template

from referee.recording import seat_name
from referee.screens import card_label
from tournaments.models import describe_result

register = template.Library()


@register.filter
def level_text(rank: str) -> str:
    """A level as players say it: ``T`` → ``10``."""
    return "10" if rank == "T" else (rank or "")


@register.filter
def card_faces(text: str) -> list[dict]:
    """Canonical card text → the labels the card chips show."""
    return [card_label(c) for c in (text or "").split()]


@register.filter
def result_text(result: dict | None) -> str:
    """A verdict's ``result`` in words."""
    return describe_result(result)


@register.filter
def seat_text(seat: str | None) -> str:
    """A seat in the active language: ``W`` → 西."""
    return seat_name(seat) or "—"
