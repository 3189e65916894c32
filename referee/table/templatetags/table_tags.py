"""Small display filters for the judges' pages, and the hidden field that names a form's write."""

import uuid

from django import template
from django.utils.html import format_html

from referee.table.recording.receipts import KEY_FIELD
from referee.table.recording.words import seat_name
from rules.ranks import rank_text

register = template.Library()


register.filter("level_text", rank_text)  # a level as players say it: T → 10


@register.filter
def seat_text(seat: str | None) -> str:
    """A seat in the active language: ``W`` → 西."""
    return seat_name(seat) or "—"


@register.simple_tag
def write_key() -> str:
    """A fresh key for the write this form makes: the form sent twice (a double tap, a retry) writes once."""
    return format_html('<input type="hidden" name="{}" value="{}">', KEY_FIELD, uuid.uuid4())
