"""The engine's cards, seats and violations in the judge's words, and the judge's typed cards back into the
engine's: typed cards made canonical (a bad token named in words), a seat named in the active language, and the
engine's own messages (it gives each violation in English and Chinese) in the judge's language, seats named: the
text of an illegal play's refusal and of the review's violations."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from referee.traditional import to_traditional
from rules.cards import BJ, CARD_SYMBOL, LJ, CardError, format_cards, parse_cards
from rules.messages import SEAT_ZH
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


# A seat the engine's English (and a challenge's reason in Chinese) writes as its letter: N, W, S, E.
SEAT_LETTER = re.compile(r"(?<![A-Za-z0-9])([NWSE])(?![A-Za-z0-9])")


def violation_message(violation: Mapping[str, Any]) -> str:
    """The engine's message for one violation (``Violation.as_dict()``), in the active language, seats named
    (the engine's English writes "W held ♠QQ"; the judge reads "West held ♠QQ")."""
    language = get_language() or ""
    if language.startswith("zh"):
        text = SEAT_LETTER.sub(lambda m: SEAT_ZH[m[1]], violation["message_zh"])
        return to_traditional(text) if language == "zh-hant" else text
    seats = {"N": _("North"), "W": _("West"), "S": _("South"), "E": _("East")}
    text = SEAT_LETTER.sub(lambda m: str(seats[m[1]]), violation["message"])
    return text.replace(CARD_SYMBOL[LJ], _("small joker")).replace(CARD_SYMBOL[BJ], _("big joker"))


def verdict_message(violations: Sequence[Mapping[str, Any]]) -> str:
    """One line for the judge, in the active language."""
    return joined(violation_message(v) for v in violations)


def joined(texts: Iterable[str]) -> str:
    """Several messages on one line, separated as the active language writes it."""
    separator = "；" if (get_language() or "").startswith("zh") else "; "
    return separator.join(texts)
