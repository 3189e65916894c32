"""The refusals of the recording service: a message for the judge, a code for programs, an HTTP status for pages;
and the engine's own messages (it gives each violation in English and Chinese) in the judge's language.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from referee.traditional import to_traditional
from rules.cards import BJ, CARD_SYMBOL, LJ
from rules.messages import SEAT_ZH

# A seat the engine's English (and a challenge's reason in Chinese) writes as its letter: N, W, S, E.
SEAT_LETTER = re.compile(r"(?<![A-Za-z0-9])([NWSE])(?![A-Za-z0-9])")


class RecordingError(Exception):
    """A write the service refuses; ``message`` is for the judge (translated), ``code`` for programs."""

    code = "refused"
    status = 400

    def __init__(self, message: str, **details: Any) -> None:
        super().__init__(message)
        self.message = message
        self.details = details


class PermissionRefused(RecordingError):
    code = "forbidden"
    status = 403


class DraftRound(PermissionRefused):
    """The match's round is a draft: the TD may still change or discard its pairing, so nothing is entered."""

    code = "draft"


class Finished(RecordingError):
    """The match's tournament is finished: its results are final until the director reopens it."""

    code = "finished"
    status = 409


class Frozen(RecordingError):
    """The deal is submitted (or confirmed): it is frozen until it is reopened with a reason."""

    code = "frozen"
    status = 409


class StaleEdit(RecordingError):
    """Someone saved the deal since the writer loaded it."""

    code = "stale"
    status = 409


class IllegalPlay(RecordingError):
    """The engine found a fault in the play; ``violations`` are the verdict's, for this play."""

    code = "illegal"
    status = 422

    def __init__(self, message: str, violations: list[dict], forceable: bool) -> None:
        super().__init__(message, violations=violations, forceable=forceable)
        self.violations = violations
        self.forceable = forceable


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
