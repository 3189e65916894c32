"""Featured tables: the tables the director puts on line (a final, a top Swiss table), followed by the public
trick by trick on a delay (``tournaments.live.following``)."""

from __future__ import annotations

from django.core.validators import MaxValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.competition.models import Tournament

DEFAULT_DELAY = 2  # tricks: a trick is shown once two more are complete at the table
MAX_DELAY = 12


class FeaturedTable(models.Model):
    """One hall table (``Match.table``) followed live, whatever match sits at it in the current round.

    ``delay`` is in tricks; None means whole deals only: a deal is shown once it is confirmed."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="featured_tables", verbose_name=_("tournament")
    )
    table = models.PositiveSmallIntegerField(_("table"))
    delay = models.PositiveSmallIntegerField(
        _("delay in tricks"),
        null=True,
        blank=True,
        default=DEFAULT_DELAY,
        validators=[MaxValueValidator(MAX_DELAY)],
        help_text=_("leave empty to show whole deals only, once confirmed"),
    )
    on_screen = models.BooleanField(_("on the projector"), default=False)

    class Meta:
        verbose_name = _("featured table")
        verbose_name_plural = _("featured tables")
        ordering = ["tournament", "table"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "table"], name="featured_table_once"),
            models.CheckConstraint(condition=models.Q(table__gte=1), name="featured_table_positive"),
        ]

    def __str__(self) -> str:
        return _("table %(n)s") % {"n": self.table}
