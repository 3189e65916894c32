"""The wording of results for templates: ``{% load wording %}``, then ``result|deal_outcome``, ``code|violation_name`` and so on."""

from django import template

from tournaments.competition import wording
from tournaments.standings.compute import standings_title

register = template.Library()

register.filter("deal_outcome", wording.deal_outcome)
register.filter("match_result", wording.match_result)
register.filter("match_status", wording.match_status)
register.filter("kitty_bonus", wording.kitty_bonus)
register.filter("violation_name", wording.violation_name)
register.filter("preset_name", wording.preset_name)
register.filter("preset_description", wording.preset_description)
register.filter("penalty_note", wording.penalty_note)
register.filter("standings_title", standings_title)  # Final standings once the tournament is finished
