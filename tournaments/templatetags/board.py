"""The desk's count of deals waiting for confirmation, for any desk page (the desk, the board), and a judge
named as on every desk page (the display name, else the user name; ``account_name``: "—" for none, an account
since deleted)."""

from django import template

from tournaments.board.state import waiting_count
from tournaments.competition.accounts import display_name

register = template.Library()
register.simple_tag(waiting_count)
register.filter("display_name", display_name)


@register.filter
def account_name(account) -> str:
    return "—" if account is None else display_name(account)
