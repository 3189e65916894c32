"""The engine's ruleset refusals (English, ``rules.ruleset``) as one sentence in the director's language.

The models, the forms and the admin all word a refused ruleset here; it reads no model, so the models may ask it.
"""

from __future__ import annotations

import re
from typing import Any

from django.utils.translation import gettext as _

from rules.ruleset import MAX_NUMBER, RulesetError
from tournaments.competition.words import setting_label

SETTING_NAMED = re.compile(r"setting '(\w+)'")

# The engine's ruleset messages (English, rules.ruleset) by pattern, and what the director reads instead.
PROBLEMS: tuple[tuple[re.Pattern[str], Any], ...] = tuple(
    (re.compile(pattern), message)
    for pattern, message in (
        (r"'decks' must be at least 1", lambda: _("Play with at least one deck.")),
        (r"'decks': .*rules cover", lambda: _("Play with one to four decks.")),
        (
            r"'kitty_cards': .* four hands cannot share",
            lambda: _("The cards left after the kitty must share equally among four hands."),
        ),
        (r"'kitty_cards': .* leave no hand", lambda: _("The kitty must leave each hand at least one card.")),
        (
            r"'follow_tables': a lead .* cannot form",
            lambda: _("A follow order names a lead of sets larger than these decks can form."),
        ),
        (
            r"'follow_tables': unknown lead kind",
            lambda: _("Name each lead as its set and length, like 3x1, 3x2 or 4x*."),
        ),
        (
            r"'follow_tables': unknown unit",
            lambda: _("Name each unit of a follow line like 3x1, 2x+, 2+ or 2*."),
        ),
        (r"is out of range", lambda: _("Enter a number of at most %(max)s.") % {"max": f"{MAX_NUMBER:,}"}),
        (r"'ladder' needs two or more", lambda: _("Choose at least two levels.")),
        (r"'ladder' must climb", lambda: _("The levels must climb in rank order.")),
        (
            r"'(start|target)_level': .* is not on the ladder",
            lambda: _("This level is not one of the levels played."),
        ),
        (r"'target_level' .* must be above", lambda: _("The target level must be above the first level.")),
        (
            r"'must_play': .* is not on the ladder",
            lambda: _("Every must-play level must be one of the levels played."),
        ),
        (
            r"'permanent_twos' needs",
            lambda: _(
                "With twos always trump, level 2 is not played: start from 3 and leave 2 out of the levels."
            ),
        ),
        (
            r"'kitty_table' lacks kind",
            lambda: _("The table needs a multiplier for a single, a pair and a tractor."),
        ),
        (r"'kitty_table': multipliers", lambda: _("Every multiplier must be 1 or more.")),
        (r"'kitty_table': unknown kind", lambda: _("Name each kind as single, pair of cards or tractor.")),
        (r"'level_bands': the first band", lambda: _("The first band has no lowest points: write “below”.")),
        (
            r"'level_bands': bands must rise",
            lambda: _("Each band must start at more points than the one before."),
        ),
        (r"'level_bands': levels must be", lambda: _("Levels must be 0 or more, and “every” 1 or more.")),
        (
            r"'level_bands': only the last band",
            lambda: _("Only the last band may add one more level every so many points."),
        ),
        (r"'level_bands': more points", lambda: _("More points must never be better for the banker side.")),
        (r"must be positive or null", lambda: _("Enter a number of 1 or more, or leave it empty.")),
        (r"must be positive", lambda: _("Enter a number of 1 or more.")),
        (r"must not be negative", lambda: _("Enter 0 or more.")),
        (r"unknown preset", lambda: _("Choose one of the presets.")),
    )
)


def ruleset_problem(exc: RulesetError) -> tuple[str | None, str]:
    """The setting the engine's refusal names (None: the whole ruleset) and the refusal in the active language."""
    text = str(exc)
    named = SETTING_NAMED.search(text)
    message = next((say() for pattern, say in PROBLEMS if pattern.search(text)), None)
    return (named[1] if named else None), message or _("The rules engine does not accept this value.")


def ruleset_refusal(exc: RulesetError) -> str:
    """The engine's refusal as one sentence in the active language that names the setting (the admin's ruleset
    is one JSON field: there is no field per setting to put the refusal beside)."""
    setting, message = ruleset_problem(exc)
    if setting is None:
        return message
    return _("%(field)s: %(problem)s") % {"field": setting_label(setting), "problem": message}
