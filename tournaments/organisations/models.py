"""Who organises what: an organisation (a club, a city association, a federation) owns its tournaments and series,
and its members run them in one of three roles. The site's own admin (a superuser) stands apart and is rare."""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

INVITATION_DAYS = 7


class Organisation(models.Model):
    name = models.CharField(_("name"), max_length=120, unique=True)
    slug = models.SlugField(_("address"), max_length=60, unique=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("organisation")
        verbose_name_plural = _("organisations")
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        from django.urls import reverse

        return reverse("organisation", args=[self.slug])


class Role(models.TextChoices):
    """What a member may do: an admin also invites and removes members; a director runs every event of the
    organisation; a scorer enters and confirms results, runs the board and the calls, and sets nothing up."""

    ADMIN = "admin", _("organisation admin")
    DIRECTOR = "director", _("director")
    SCORER = "scorer", _("scorer")


DIRECTING = frozenset({Role.ADMIN, Role.DIRECTOR})


class Membership(models.Model):
    organisation = models.ForeignKey(Organisation, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(_("role"), max_length=10, choices=Role.choices)
    created_at = models.DateTimeField(_("since"), auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["organisation", "user"], name="one_role_per_member")]
        ordering = ["organisation", "role", "user__username"]

    def __str__(self) -> str:
        return f"{self.user} · {self.organisation} · {self.get_role_display()}"


def new_token() -> str:
    return secrets.token_urlsafe(24)


def invitation_expiry():
    return timezone.now() + timedelta(days=INVITATION_DAYS)


class InvitationQuerySet(models.QuerySet):
    def open(self):
        """Not used, not withdrawn, not expired: the links that still work."""
        return self.filter(used_at__isnull=True, revoked_at__isnull=True, expires_at__gt=timezone.now())


class Invitation(models.Model):
    """A one-time link that makes whoever opens it a member in ``role`` (a new account or one they sign in to)."""

    organisation = models.ForeignKey(Organisation, on_delete=models.CASCADE, related_name="invitations")
    role = models.CharField(_("role"), max_length=10, choices=Role.choices)
    token = models.CharField(max_length=64, unique=True, default=new_token)
    note = models.CharField(_("for whom"), max_length=120, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(default=invitation_expiry)
    used_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    objects = InvitationQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.organisation} · {self.get_role_display()}"

    @property
    def is_open(self) -> bool:
        return self.used_at is None and self.revoked_at is None and self.expires_at > timezone.now()
