"""A pair's own page on its table card: the QR code of the page where the pair finds its next table, results
and deals (the entry's link for a pair that entered on line), so the card needs no change to its view."""

from __future__ import annotations

from django import template
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from tournaments.entries.links import own_page_path
from tournaments.table_links.addresses import hall_url
from tournaments.table_links.qr import qr_svg

register = template.Library()


@register.simple_tag(takes_context=True)
def own_page_qr(context, pair) -> SafeString:
    """The code of the pair's own page, at the hall's address."""
    return qr_svg(
        hall_url(context["request"], own_page_path(pair)), _("%(pair)s's own page") % {"pair": pair.name}
    )
