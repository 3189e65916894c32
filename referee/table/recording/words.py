"""The judge's words, in and out: what a page posts read into the recording service's terms, and the engine's
cards, seats and violations given back in the judge's language.

- In: the posted fields read at the boundary (``posted_*``). The pages post plain fields, but a tampered page or
  a program may post anything (any seat, any length, NUL characters, numbers too large for the database): each
  reader returns what the service expects or raises ``RecordingError`` (400) naming the field, before anything is
  written. The judge's typed cards made canonical (``parse_card_text``), a bad token named in words.
- Out: a seat named in the active language, and the engine's own messages (it gives each violation in English and
  Chinese) in the judge's language, seats named: the text of an illegal play's refusal and of the review's
  violations.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from referee.traditional import to_traditional
from rules.cards import BJ, CARD_SYMBOL, LJ, CardError, format_cards, parse_cards
from rules.messages import SEAT_ZH
from rules.seats import SEATS
from tournaments.competition.free_text import text_problem
from tournaments.models import SEAT_CHOICES
from tournaments.scoring.errors import RecordingError

# ---------------------------------------------------------------- in: the posted fields

# Typed cards of one field: a whole four-deck hand fits in the loosest notation (``♠10, ♠10, …``) several times.
MAX_CARD_TEXT = 1000
MAX_ID = 2**63 - 1  # the largest primary key the databases store


def posted_text(fields: Mapping[str, str], name: str, label: str, max_length: int | None = None) -> str:
    """A free-text field as posted ('' when absent); NUL characters and overlong text are refused."""
    value = fields.get(name) or ""
    problem = text_problem(value, max_length)
    if problem:
        raise RecordingError(_("%(field)s: %(problem)s") % {"field": label, "problem": problem})
    return value


def posted_cards(fields: Mapping[str, str], name: str, label: str) -> str:
    """Typed cards as posted, refused before parsing when absurdly long (the service reads the cards)."""
    return posted_text(fields, name, label, MAX_CARD_TEXT)


def posted_seat(fields: Mapping[str, str], name: str) -> str | None:
    """A seat (N, W, S or E), or None when the field is empty."""
    value = fields.get(name) or ""
    if not value:
        return None
    if value not in SEATS:
        raise RecordingError(_("The seat must be N, W, S or E."))
    return value


def posted_id(fields: Mapping[str, str], name: str) -> int:
    """The id of a row the page shows (a penalty to remove): a positive integer the database can hold."""
    value = (fields.get(name) or "").strip()
    if not (value.isascii() and value.isdigit() and len(value) <= 19 and 0 < int(value) <= MAX_ID):
        raise RecordingError(_("The page sent no valid entry to change: reload it and try again."))
    return int(value)


def posted_trick(fields: Mapping[str, str], name: str = "trick") -> int:
    """A trick's number as the page counts it (from 0): a small non-negative integer."""
    value = (fields.get(name) or "").strip()
    if not (value.isascii() and value.isdigit() and len(value) <= 3):
        raise RecordingError(_("The page sent no valid trick: reload it and try again."))
    return int(value)


def posted_version(fields: Mapping[str, str]) -> int:
    """The deal version the page shows; every page sends it, so a stale page can never overwrite."""
    raw = fields.get("version")
    try:
        return int(raw or "")
    except (TypeError, ValueError):
        raise RecordingError(_("The page sent no version of the deal: reload it and try again.")) from None


# ---------------------------------------------------------------- in: typed cards

CARD_SEPARATORS = re.compile(r"[\s,，、;]+")  # as rules.cards splits typed cards


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


# ---------------------------------------------------------------- out: in the judge's language

SEAT_NAMES = dict(SEAT_CHOICES)


def seat_name(seat: str | None) -> str:
    """A seat in the active language (the model's label: ``W`` → West), '' for none."""
    return str(SEAT_NAMES[seat]) if seat else ""


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
