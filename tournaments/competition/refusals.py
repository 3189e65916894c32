"""The engine's ruleset refusals as one sentence in the director's language.

The engine raises ``RulesetError`` with a code, the setting it names and the values of the refusal; each code is
worded here from the site's catalogue (gettext), never from the engine's English. The models, the forms and the
admin all word a refused ruleset here; it reads no model, so the models may ask it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.utils.translation import gettext as _

from rules.ruleset import RulesetError
from tournaments.competition.ruleset_settings import setting_label

Say = Callable[[Mapping[str, Any]], str]

# Each code the engine can raise (rules.messages.RULESET_CODES) and what the director reads for it.
REFUSALS: dict[str, Say] = {
    "decks_too_few": lambda v: _("Play with at least one deck."),
    "decks_too_many": lambda v: _("Play with one to four decks."),
    "kitty_unshared": lambda v: _("The cards left after the kitty must share equally among four hands."),
    "kitty_no_hand": lambda v: _("The kitty must leave each hand at least one card."),
    "follow_lead_too_large": lambda v: _(
        "A follow order names a lead of sets larger than these decks can form."
    ),
    "follow_lead_kind": lambda v: _("Name each lead as its set and length, like 3x1, 3x2 or 4x*."),
    "follow_unit": lambda v: _("Name each unit of a follow line like 3x1, 2x+, 2+ or 2*."),
    "follow_not_object": lambda v: _("Give each lead kind its follow order, a list of lines."),
    "follow_no_lines": lambda v: _("Give each lead kind its follow order, a list of lines."),
    "follow_line": lambda v: _("Write each line of a follow order as a list of units."),
    "out_of_range": lambda v: _("Enter a number of at most %(max)s.") % {"max": f"{v['max']:,}"},
    "ladder_short": lambda v: _("Choose at least two levels."),
    "ladder_order": lambda v: _("The levels must climb in rank order."),
    "level_not_on_ladder": lambda v: _("This level is not one of the levels played."),
    "level_off_ladder": lambda v: _("This level is not one of the levels played."),
    "target_not_above": lambda v: _("The target level must be above the first level."),
    "must_play_off_ladder": lambda v: _("Every must-play level must be one of the levels played."),
    "twos_on_ladder": lambda v: _(
        "With twos always trump, level 2 is not played: start from 3 and leave 2 out of the levels."
    ),
    "unknown_rank": lambda v: _("Name a rank: 2 to 10, J, Q, K or A."),
    "not_rank_list": lambda v: _("List the levels as ranks: 2 to 10, J, Q, K or A."),
    "kitty_table_incomplete": lambda v: _("The table needs a multiplier for a single, a pair and a tractor."),
    "kitty_table_multiplier": lambda v: _("Every multiplier must be 1 or more."),
    "kitty_table_kind": lambda v: _("Name each kind as single, pair of cards or tractor."),
    "kitty_table_not_object": lambda v: _("Give each kind its multiplier."),
    "bands_first": lambda v: _("The first band has no lowest points: write “below”."),
    "bands_rise": lambda v: _("Each band must start at more points than the one before."),
    "bands_levels": lambda v: _("Levels must be 0 or more, and “every” 1 or more."),
    "bands_every": lambda v: _("Only the last band may add one more level every so many points."),
    "bands_order": lambda v: _("More points must never be better for the banker side."),
    "bands_not_list": lambda v: _("Write the level table as a list of bands."),
    "band_not_object": lambda v: _("Write the level table as a list of bands."),
    "band_field": lambda v: _("A band has only its lowest points, its side, its levels and “every”."),
    "band_side": lambda v: _("Each band goes up for the banker side or the attackers."),
    "not_positive_or_null": lambda v: _("Enter a number of 1 or more, or leave it empty."),
    "not_positive": lambda v: _("Enter a number of 1 or more."),
    "negative": lambda v: _("Enter 0 or more."),
    "not_integer": lambda v: _("Enter a whole number."),
    "not_boolean": lambda v: _("Choose yes or no."),
    "unknown_choice": lambda v: _("Choose one of the values offered."),
    "unknown_preset": lambda v: _("Choose one of the presets."),
    "unknown_setting": lambda v: _("This is not a setting of the rules."),
    "not_a_ruleset": lambda v: _("The rules engine does not accept this value."),
}


def ruleset_problem(exc: RulesetError) -> tuple[str | None, str]:
    """The setting the engine's refusal names (None: the whole ruleset) and the refusal in the active language."""
    say = REFUSALS.get(exc.code, REFUSALS["not_a_ruleset"])
    return exc.setting, say(exc.values)


def ruleset_refusal(exc: RulesetError) -> str:
    """The engine's refusal as one sentence in the active language that names the setting (the admin's ruleset
    is one JSON field: there is no field per setting to put the refusal beside)."""
    setting, message = ruleset_problem(exc)
    if setting is None:
        return message
    return _("%(field)s: %(problem)s") % {"field": setting_label(setting), "problem": message}
