"""Small display filters for the judges' pages."""

from django import template

from referee.screens import card_label

register = template.Library()


@register.filter
def level_text(rank: str) -> str:
    """A level as players say it: ``T`` → ``10``."""
    return "10" if rank == "T" else (rank or "")


@register.filter
def card_faces(text: str) -> list[dict]:
    """Canonical card text → the labels the card chips show."""
    return [card_label(c) for c in (text or "").split()]
