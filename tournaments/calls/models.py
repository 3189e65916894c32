"""A table's call for the referee: why it was made, who went, and the ruling that closed it (kept with the match)."""

from __future__ import annotations

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments.competition.models import Match, OfTournament
from tournaments.competition.stamps import by_user
from tournaments.deals.models import Deal, Penalty


class TableCallQuerySet(OfTournament):
    tournament_path = "match__round__tournament"

    def waiting(self) -> TableCallQuerySet:
        """The calls not yet resolved, oldest first (the order the director answers them)."""
        return self.exclude(state=TableCall.State.RESOLVED).order_by("called_at", "pk")


class TableCall(models.Model):
    """One call of a table for the referee. The table raises it (its judge or its device); the director marks
    that they are on the way, then resolves it with a ruling, and with a penalty or a reopened deal where the
    ruling needs one. Nothing is deleted: the match keeps every call it made."""

    class Reason(models.TextChoices):
        REVOKE = "revoke", _("revoke dispute")
        MISDEAL = "misdeal", _("misdeal")
        CARD_COUNT = "card_count", _("wrong card count")
        FOULED = "fouled", _("fouled board")
        TIME = "time", _("time")
        OTHER = "other", _("other")

    class State(models.TextChoices):
        OPEN = "open", _("waiting")
        ON_THE_WAY = "on_the_way", _("director on the way")
        RESOLVED = "resolved", _("resolved")

    class Action(models.TextChoices):
        NONE = "", _("ruling only")
        PENALTY = "penalty", _("penalty")
        REOPEN = "reopen", _("deal reopened")
        FOULED = "fouled", _("fouled board scored apart")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="calls", verbose_name=_("match"))
    deal = models.ForeignKey(
        Deal, on_delete=models.SET_NULL, null=True, blank=True, related_name="+", verbose_name=_("deal")
    )
    # The duplicate board the call is about (a fouled board, RULES §14.6), when the table names one.
    board = models.ForeignKey(
        "tournaments.Board",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("board"),
    )
    reason = models.CharField(_("reason"), max_length=12, choices=Reason.choices)
    note = models.CharField(_("note"), max_length=200, blank=True)
    key = models.CharField(_("device key"), max_length=64, blank=True, editable=False)
    state = models.CharField(_("state"), max_length=12, choices=State.choices, default=State.OPEN)
    called_at = models.DateTimeField(_("called at"), default=timezone.now)
    called_by = by_user(_("called by"))
    on_the_way_at = models.DateTimeField(_("on the way at"), null=True, blank=True)
    on_the_way_by = by_user(_("on the way"))
    resolved_at = models.DateTimeField(_("resolved at"), null=True, blank=True)
    resolved_by = by_user(_("resolved by"))
    ruling = models.TextField(_("ruling"), max_length=1000, blank=True)
    action = models.CharField(_("action"), max_length=8, choices=Action.choices, blank=True)
    penalty = models.ForeignKey(
        Penalty, on_delete=models.SET_NULL, null=True, blank=True, related_name="+", verbose_name=_("penalty")
    )

    objects = TableCallQuerySet.as_manager()

    class Meta:
        verbose_name = _("table call")
        verbose_name_plural = _("table calls")
        ordering = ("called_at", "pk")
        constraints = [
            # A call sent again by the device (its answer was lost) is the same call.
            models.UniqueConstraint(
                fields=["match", "key"], condition=~models.Q(key=""), name="one_call_per_device_key"
            )
        ]
        indexes = [models.Index(fields=["state", "called_at"])]

    def __str__(self) -> str:
        return f"{self.match} · {self.get_reason_display()}"

    @property
    def is_open(self) -> bool:
        return self.state != self.State.RESOLVED
