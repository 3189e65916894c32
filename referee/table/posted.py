"""The judges' posted fields read at the boundary: a hostile value is a refusal in the judge's language, not a 500.

The pages post plain fields, but a tampered page or a program may post anything (any seat, any length, NUL
characters, numbers too large for the database). Each reader returns what the recording service expects or raises
``RecordingError`` (400) naming the field, before anything is written.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.translation import gettext as _

from rules.seats import SEATS
from tournaments.competition.free_text import text_problem
from tournaments.scoring.errors import RecordingError

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
