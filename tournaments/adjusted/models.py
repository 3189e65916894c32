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

    def void_deal_ids(self, **where) -> models.QuerySet:
        """The ids of the deals voided by an adjustment in force (a subquery; ``where`` narrows it: ``match=…``)."""
        return self.standing().filter(kind=Adjustment.Kind.VOID_DEAL, **where).values("deal_id")

    def match_result(self, match: Match) -> Adjustment | None:
        """The match result the director awarded and still stands (the latest, when several were made)."""
        rows = self.standing().filter(match=match, kind__in=Adjustment.MATCH_KINDS)
        return rows.order_by("-made_at", "-pk").first()

    def both_lose_ids(self, tournament) -> set[int]:
        """The tournament's matches where the director ruled that both sides lose (standings count two losses),
        only where that is the match's standing result (a later adjustment replaces it)."""
        rows = self.of(tournament).standing().filter(kind=Adjustment.Kind.BOTH_LOSE)
        both = set(rows.values_list("match_id", flat=True))
        return {
            pk
            for pk in both
            if (r := self.match_result(Match(pk=pk))) and r.kind == Adjustment.Kind.BOTH_LOSE
        }

    def voided_deal_numbers(self, match_ids) -> dict[int, list[int]]:
        """By match, the numbers of its deals voided by an adjustment in force (the result lists mark them)."""
        rows = self.standing().filter(kind=Adjustment.Kind.VOID_DEAL, match_id__in=list(match_ids))
        out: dict[int, list[int]] = {}
        for match_id, number in rows.order_by("deal__number").values_list("match_id", "deal__number"):
            out.setdefault(match_id, []).append(number)
        return out

    def adjusted_pair_ids(self, tournament) -> set[int]:
        """The pairs with an adjusted result in force (a match result or a void deal), for the standings' mark."""
        pairs = self.of(tournament).standing().values_list("match__pair_ns_id", "match__pair_ew_id")
        return {pk for pair in pairs for pk in pair}


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
