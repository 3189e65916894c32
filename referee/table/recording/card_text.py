"""Cards and seats as the judge reads and types them: typed cards made canonical, a bad token named in words."""

from __future__ import annotations

import re

from django.utils.translation import gettext as _

from rules.cards import CardError, format_cards, parse_cards
from tournaments.models import SEAT_CHOICES
from tournaments.scoring.errors import RecordingError

SEAT_NAMES = dict(SEAT_CHOICES)
CARD_SEPARATORS = re.compile(r"[\s,，、;]+")  # as rules.cards splits typed cards


def seat_name(seat: str | None) -> str:
    """A seat in the active language (the model's label: ``W`` → West), '' for none."""
    return str(SEAT_NAMES[seat]) if seat else ""


def parse_card_text(text: str, field: str) -> str:
    """Canonical text of typed cards; a bad token is named in one sentence of the judge's language (the
    engine's own ``CardError`` is English), nothing guessed."""
    try:
        return format_cards(parse_cards(text))
    except CardError as exc:
        token = unreadable_token(text)
        raise RecordingError(
            _("%(field)s: “%(token)s” is not a card; write cards like SA H10 BJ.")
            % {"field": field, "token": token}
        ) from exc


def unreadable_token(text: str) -> str:
    """The first token of ``text`` the notation cannot read (the whole text when no single token fails)."""
    for token in CARD_SEPARATORS.split(text.strip()):
        try:
            parse_cards(token)
        except CardError:
            return token
    return text.strip()
