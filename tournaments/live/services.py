"""The director's featured tables: put a table on line with its delay, take it off, choose the one on the
projector. Each write gives the tournament a new public generation itself (the projector's panel lists it);
the live pages follow the table through their own validator (``following.Where.validator``)."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.live.models import MAX_DELAY, FeaturedTable
from tournaments.models import Tournament
from tournaments.public.generation import bump

MAX_TABLE = 999


class LiveError(Exception):
    """A write refused; ``message`` is for the director (translated), ``status`` for the page."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


def feature(tournament: Tournament, table: int, delay: int | None, on_screen: bool) -> FeaturedTable:
    """Follow ``table`` live with ``delay`` tricks (None: whole deals only), or change how; with ``on_screen`` it
    becomes the projector's one featured table."""
    if not 1 <= table <= MAX_TABLE:
        raise LiveError(_("Choose a table number from 1 to %(n)s.") % {"n": MAX_TABLE})
    if delay is not None and not 0 <= delay <= MAX_DELAY:
        raise LiveError(_("Choose a delay from 0 to %(n)s tricks.") % {"n": MAX_DELAY})
    with transaction.atomic():
        if on_screen:
            tournament.featured_tables.exclude(table=table).update(on_screen=False)
        featured, _created = FeaturedTable.objects.update_or_create(
            tournament=tournament, table=table, defaults={"delay": delay, "on_screen": on_screen}
        )
    bump([f"t:{tournament.slug}"])
    return featured


def unfeature(tournament: Tournament, table: int) -> None:
    """Stop following ``table``: its live page is gone (404)."""
    deleted, _rows = tournament.featured_tables.filter(table=table).delete()
    if not deleted:
        raise LiveError(_("This table is not featured."), 404)
    bump([f"t:{tournament.slug}"])
