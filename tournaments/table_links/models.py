"""A table's private link (the QR code on its card), the devices that opened it, and each pair's PIN.

A link is shown once, when the desk issues it: only its SHA-256 is kept, so a read of the database gives no way
in. A PIN is kept as a slow hash for the same reason. Both are issued again (and the old ones die) when the
director prints the table's card anew.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments.competition.models import Match, Pair, Round
from tournaments.competition.stamps import by_user


class TableLinkQuerySet(models.QuerySet):
    def live(self) -> TableLinkQuerySet:
        """Links that still sign a device in: not revoked, their round published (not a draft, not finished)
        and their tournament not finished."""
        return self.filter(
            revoked_at__isnull=True,
            match__round__state=Round.State.PUBLISHED,
            match__round__tournament__finished_at__isnull=True,
        )

    def revoke(self) -> int:
        """These links stop for good on every device that holds them (never revived); how many were live."""
        return self.filter(revoked_at__isnull=True).update(revoked_at=timezone.now())


class TableLink(models.Model):
    """The private link of one match (one table in one round); its account is what a device signs in as."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="links", verbose_name=_("match"))
    token_hash = models.CharField(_("token's SHA-256"), max_length=64, unique=True, editable=False)
    account = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="table_link",
        verbose_name=_("account"),
    )
    created_by = by_user(_("issued by"))
    created_at = models.DateTimeField(_("issued at"), auto_now_add=True)
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)

    objects = TableLinkQuerySet.as_manager()

    class Meta:
        verbose_name = _("table link")
        verbose_name_plural = _("table links")
        ordering = ["match", "-created_at"]

    def __str__(self) -> str:
        return _("Table %(n)s's link") % {"n": self.match.table}


class TableDevice(models.Model):
    """A device that opened a table's link: the director sees them on the round's links page."""

    link = models.ForeignKey(
        TableLink, on_delete=models.CASCADE, related_name="devices", verbose_name=_("link")
    )
    device = models.CharField(_("device"), max_length=32)
    user_agent = models.CharField(_("browser"), max_length=120, blank=True)
    first_seen = models.DateTimeField(_("first seen"), auto_now_add=True)
    last_seen = models.DateTimeField(_("last seen"))

    class Meta:
        verbose_name = _("table device")
        verbose_name_plural = _("table devices")
        ordering = ["link", "first_seen"]
        constraints = [models.UniqueConstraint(fields=["link", "device"], name="table_device_unique")]

    def __str__(self) -> str:
        return self.user_agent or self.device


class PairPin(models.Model):
    """A pair's PIN, hashed: a player types it on the table's device to confirm a deal for their pair."""

    pair = models.OneToOneField(Pair, on_delete=models.CASCADE, related_name="pin", verbose_name=_("pair"))
    pin_hash = models.CharField(_("PIN's hash"), max_length=200, editable=False)
    made_by = by_user(_("made by"))
    made_at = models.DateTimeField(_("made at"), auto_now=True)

    class Meta:
        verbose_name = _("pair's PIN")
        verbose_name_plural = _("pairs' PINs")
        constraints = [models.CheckConstraint(condition=~Q(pin_hash=""), name="pair_pin_not_empty")]

    def __str__(self) -> str:
        return _("%(pair)s's PIN") % {"pair": self.pair.name}
