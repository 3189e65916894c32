"""The series a page links to: those a tournament is part of, and every series on the home page (public ones,
or all of them for the director)."""

from django import template

from tournaments.season.views import visible_series

register = template.Library()


@register.simple_tag(takes_context=True)
def series_of(context, tournament=None):
    series = visible_series(context["request"].user)
    return list(series.filter(tournaments=tournament) if tournament is not None else series)
