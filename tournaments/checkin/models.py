"""Check-in: a pair present for a round (tapped at the desk, or by the pair with its PIN on the desk's tablet),
and a pair absent when the round was paired, with what the director chose for it (sit out, or forfeit)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.competition.models import Pair, Round, Tournament
from tournaments.competition.stamps import by_user


class CheckIn(models.Model):
    class How(models.TextChoices):
        DESK = "desk", _("at the desk")
        PIN = "pin", _("with the pair's PIN")

    pair = models.ForeignKey(Pair, on_delete=models.CASCADE, related_name="check_ins", verbose_name=_("pair"))
    round_number = models.PositiveSmallIntegerField(_("round"))
    how = models.CharField(_("checked in"), max_length=4, choices=How.choices, default=How.DESK)
    at = models.DateTimeField(_("checked in at"), auto_now_add=True)
    by = by_user(_("checked in by"))

    class Meta:
        verbose_name = _("check-in")
        verbose_name_plural = _("check-ins")
        constraints = [models.UniqueConstraint(fields=["pair", "round_number"], name="one_check_in_a_round")]

    def __str__(self) -> str:
        return f"{self.pair} · {self.round_number}"


class Absence(models.Model):
    class Treated(models.TextChoices):
        SIT_OUT = "sit_out", _("withdrawn for the round")
        FORFEIT = "forfeit", _("paired, and forfeits")

    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="absences", verbose_name=_("round")
    )
    pair = models.ForeignKey(Pair, on_delete=models.CASCADE, related_name="absences", verbose_name=_("pair"))
    treated = models.CharField(_("absent pairs"), max_length=8, choices=Treated.choices)
    at = models.DateTimeField(_("made at"), auto_now_add=True)
    by = by_user(_("made by"))

    class Meta:
        verbose_name = _("absence")
        verbose_name_plural = _("absences")
        constraints = [models.UniqueConstraint(fields=["round", "pair"], name="one_absence_a_round")]

    def __str__(self) -> str:
        return f"{self.pair} · {self.round}"


class CheckInKiosk(models.Model):
    """A self check-in tablet's link, issued by the director: it opens the PIN check-in page of its tournament
    and nothing else, with no account signed in. Only the token's SHA-256 is kept; revoked, it opens nothing."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="kiosks", verbose_name=_("tournament")
    )
    token_hash = models.CharField(_("token's SHA-256"), max_length=64, unique=True, editable=False)
    created_by = by_user(_("issued by"))
    created_at = models.DateTimeField(_("issued at"), auto_now_add=True)
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)

    class Meta:
        verbose_name = _("check-in tablet link")
        verbose_name_plural = _("check-in tablet links")
        ordering = ["tournament", "-created_at"]

    def __str__(self) -> str:
        return f"{self.tournament} · {self.created_at:%Y-%m-%d %H:%M}"
