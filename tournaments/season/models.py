"""A club's season: a series of its tournaments with a points table, and the record of players merged."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from tournaments.competition.models import Tournament
from tournaments.competition.save_notes import SaveNotes
from tournaments.competition.stamps import by_user, owned_by

DEFAULT_POINTS = [25, 18, 15, 12, 10, 8, 6, 4, 2, 1]
MAX_PLACINGS = 64
MAX_POINTS = 1000


def default_points() -> list[int]:
    return list(DEFAULT_POINTS)


def points_problem(points) -> str | None:
    """Why a points table cannot be stored (JSON typed in the admin may be any value), or None."""
    if not isinstance(points, list) or not points or len(points) > MAX_PLACINGS:
        return _("Give the points of 1 to %(n)s placings.") % {"n": MAX_PLACINGS}
    if not all(type(p) is int and 0 <= p <= MAX_POINTS for p in points):
        return _("Each placing's points are a whole number from 0 to %(n)s.") % {"n": MAX_POINTS}
    return None


class Series(SaveNotes, models.Model):
    """A club's tournaments counted together: each placing earns points, a player's best ``best_of`` count."""

    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(_("slug"), max_length=80, unique=True)
    points = models.JSONField(
        _("points per placing"),
        default=default_points,
        help_text=_("1st, 2nd, 3rd … placing; lower placings earn none"),
    )
    best_of = models.PositiveSmallIntegerField(
        _("results that count"),
        null=True,
        blank=True,
        help_text=_("each player's best results; empty: all count"),
    )
    is_public = models.BooleanField(_("public"), default=True)
    organisation = owned_by("series")
    tournaments = models.ManyToManyField(
        Tournament, related_name="series", blank=True, verbose_name=_("tournaments")
    )
    history = HistoricalRecords(m2m_fields=[tournaments])

    class Meta:
        verbose_name = _("series")
        verbose_name_plural = _("series")
        ordering = ["name"]
        # One series of a name: six "new series" posts at once make one (the others are told it exists).
        constraints = [models.UniqueConstraint(fields=["name"], name="series_one_of_a_name")]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("series", args=[self.slug])

    def clean(self) -> None:
        if problem := points_problem(self.points):
            raise ValidationError({"points": problem})

    def points_for(self, rank: int) -> int:
        """A placing's points: the table's, none below it."""
        return self.points[rank - 1] if 1 <= rank <= len(self.points) else 0


class PlayerMerge(models.Model):
    """A duplicate player merged into the one kept: who, when, and the name the duplicate had."""

    kept = models.ForeignKey(
        "tournaments.Player",
        on_delete=models.SET_NULL,
        null=True,
        related_name="merges",
        verbose_name=_("player kept"),
    )
    merged_name = models.CharField(_("merged name"), max_length=100)
    merged_id = models.PositiveBigIntegerField(_("merged player's number"))
    pairs = models.PositiveIntegerField(_("pairs moved"), default=0)
    merged_at = models.DateTimeField(_("merged at"), auto_now_add=True)
    merged_by = by_user(_("merged by"))

    class Meta:
        verbose_name = _("player merge")
        verbose_name_plural = _("player merges")
        ordering = ["-merged_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.merged_name} → {self.kept}"
