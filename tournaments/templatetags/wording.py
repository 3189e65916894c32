"""The wording of results for templates: ``{% load wording %}``, then ``result|deal_outcome``, ``code|violation_name`` and so on."""

from django import template

from tournaments.competition import display
from tournaments.standings.compute import standings_title

register = template.Library()

register.filter("deal_outcome", display.deal_outcome)
register.filter("match_result", display.match_result)
register.filter("match_status", display.match_status)
register.filter("kitty_bonus", display.kitty_bonus)
register.filter("violation_name", display.violation_name)
register.filter("preset_name", display.preset_name)
register.filter("preset_description", display.preset_description)
register.filter("penalty_note", display.penalty_note)
register.filter("standings_title", standings_title)  # Final standings once the tournament is finished
