"""Who may do what, asked by a template of one tournament or series (``{% load roles %}``): the same rules as the
views (``tournaments.competition.access``), so a link is shown exactly where its page opens."""

from django import template

from tournaments.competition import access

register = template.Library()


@register.filter
def directs(user, tournament) -> bool:
    return access.directs(user, tournament)


@register.filter
def scores(user, tournament) -> bool:
    return access.scores(user, tournament)


@register.filter
def directs_series(user, series) -> bool:
    return access.directs_series(user, series)
