"""A result the director awards instead of (or beside) what the table played: a forfeit win, both sides losing,
assigned levels, or a deal voided; with its reason, who and when. Kept, never deleted: one withdrawn says so."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.competition.models import RANK_CHOICES, SIDE_CHOICES, Match, OfTournament
from tournaments.competition.stamps import by_user
from tournaments.deals.models import Deal


class AdjustmentQuerySet(OfTournament):
    tournament_path = "match__round__tournament"

    def standing(self) -> AdjustmentQuerySet:
        """The adjustments in force (not withdrawn)."""
        return self.filter(withdrawn_at__isnull=True)


class Adjustment(models.Model):
    class Kind(models.TextChoices):
        FORFEIT = "forfeit", _("forfeit win")
        BOTH_LOSE = "both_lose", _("both sides lose")
        LEVELS = "levels", _("assigned levels")
        VOID_DEAL = "void_deal", _("deal void")

    MATCH_KINDS = (Kind.FORFEIT, Kind.BOTH_LOSE, Kind.LEVELS)

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="adjustments", verbose_name=_("match")
    )
    kind = models.CharField(_("adjusted result"), max_length=10, choices=Kind.choices)
    side = models.CharField(_("side that wins"), max_length=2, choices=SIDE_CHOICES, blank=True)
    level_ns = models.CharField(_("N–S level"), max_length=1, choices=RANK_CHOICES, blank=True)
    level_ew = models.CharField(_("E–W level"), max_length=1, choices=RANK_CHOICES, blank=True)
    deal = models.ForeignKey(
        Deal,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="adjustments",
        verbose_name=_("deal"),
    )
    reason = models.CharField(_("reason"), max_length=300)
    made_by = by_user(_("made by"))
    made_at = models.DateTimeField(_("made at"), auto_now_add=True)
    withdrawn_by = by_user(_("withdrawn by"))
    withdrawn_at = models.DateTimeField(_("withdrawn at"), null=True, blank=True)

    objects = AdjustmentQuerySet.as_manager()

    class Meta:
        verbose_name = _("adjusted result")
        verbose_name_plural = _("adjusted results")
        ordering = ("made_at", "pk")

    def __str__(self) -> str:
        return f"{self.match} · {self.get_kind_display()}"
