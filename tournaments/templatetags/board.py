"""The desk's count of deals waiting for confirmation, for any desk page (the desk, the board)."""

from django import template

from tournaments.board import waiting_count

register = template.Library()
register.simple_tag(waiting_count)
