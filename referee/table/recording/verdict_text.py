"""The engine's own messages (it gives each violation in English and Chinese) in the judge's language, seats
named: the text of an illegal play's refusal and of the review's violations."""

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
