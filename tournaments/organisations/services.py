"""An organisation's members: made, invited by a one-time link, given a role, removed. One service for the
pages, the commands and the tests."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from tournaments.competition import access
from tournaments.organisations.models import DIRECTING, Invitation, Membership, Organisation, Role


class OrganisationError(Exception):
    """A refusal in the user's language, with the page's HTTP code."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message, self.status = message, status


def owner_of_new(user) -> Organisation | None:
    """The organisation a user's new tournament or series belongs to when none is chosen: their only one (or the
    first they direct); None for a site admin who directs none (the event is the site admin's)."""
    return access.directing_organisations(user).order_by("pk").first()


def organisation_slug(name: str) -> str:
    from pypinyin import lazy_pinyin  # at first use: its dictionaries cost 0.2 s at every start

    base = slugify("-".join(lazy_pinyin(name)))[:50] or "org"
    slug, n = base, 1
    while Organisation.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


@transaction.atomic
def create_organisation(name: str, admin) -> Organisation:
    """A new organisation with ``admin`` as its first admin."""
    name = name.strip()
    if not name:
        raise OrganisationError(_("Give the organisation a name."))
    if Organisation.objects.filter(name=name).exists():
        raise OrganisationError(_("An organisation of that name exists already."), 409)
    organisation = Organisation.objects.create(name=name, slug=organisation_slug(name))
    Membership.objects.create(organisation=organisation, user=admin, role=Role.ADMIN)
    access.forget_memberships(admin)
    return organisation


def is_admin(user, organisation: Organisation) -> bool:
    """Invites and removes the organisation's members: its admins and the site's admin."""
    if not getattr(user, "is_authenticated", False):
        return False
    return user.is_superuser or access.memberships(user).get(organisation.pk) == Role.ADMIN


def is_member(user, organisation: Organisation) -> bool:
    if not getattr(user, "is_authenticated", False):
        return False
    return user.is_superuser or organisation.pk in access.memberships(user)


def require_admin(user, organisation: Organisation) -> None:
    if not is_admin(user, organisation):
        raise OrganisationError(_("Only the organisation's admins manage its members."), 403)


def invite(organisation: Organisation, by, role: str, note: str = "") -> Invitation:
    """A one-time link that makes whoever opens it a member in ``role``."""
    require_admin(by, organisation)
    if role not in Role.values:
        raise OrganisationError(_("Choose a role."))
    return Invitation.objects.create(
        organisation=organisation, role=role, note=note.strip()[:120], created_by=by
    )


def revoke(invitation: Invitation, by) -> None:
    require_admin(by, invitation.organisation)
    Invitation.objects.filter(pk=invitation.pk, used_at__isnull=True, revoked_at__isnull=True).update(
        revoked_at=timezone.now()
    )


@transaction.atomic
def accept(token: str, user) -> Membership:
    """``user`` takes the invitation: once, while it is open. A member already keeps the higher of the two roles
    (an admin invited as a scorer stays an admin)."""
    invitation = Invitation.objects.select_for_update().filter(token=token).first()
    if invitation is None or not invitation.is_open:
        raise OrganisationError(
            _("This invitation link is used, withdrawn or expired: ask for a new one."), 410
        )
    invitation.used_by, invitation.used_at = user, timezone.now()
    invitation.save(update_fields=["used_by", "used_at"])
    membership, made = Membership.objects.get_or_create(
        organisation=invitation.organisation, user=user, defaults={"role": invitation.role}
    )
    order: list[str] = [Role.SCORER, Role.DIRECTOR, Role.ADMIN]
    if not made and order.index(invitation.role) > order.index(membership.role):
        membership.role = invitation.role
        membership.save(update_fields=["role"])
    access.forget_memberships(user)
    return membership


@transaction.atomic
def new_account_from_invitation(token: str, username: str, password: str, name: str = "") -> Membership:
    """A new account for the invitation's holder, made a member at once (no admin site needed)."""
    invitation = Invitation.objects.select_for_update().filter(token=token).first()
    if invitation is None or not invitation.is_open:
        raise OrganisationError(
            _("This invitation link is used, withdrawn or expired: ask for a new one."), 410
        )
    try:
        with transaction.atomic():
            user = get_user_model().objects.create_user(username=username, password=password, first_name=name)
    except IntegrityError as exc:
        raise OrganisationError(_("That user name is taken: choose another."), 409) from exc
    return accept(token, user)


@transaction.atomic
def set_role(membership: Membership, by, role: str) -> Membership:
    require_admin(by, membership.organisation)
    if role not in Role.values:
        raise OrganisationError(_("Choose a role."))
    if membership.role == Role.ADMIN and role != Role.ADMIN:
        last_admin(membership)
    membership.role = role
    membership.save(update_fields=["role"])
    access.forget_memberships(membership.user)
    return membership


def last_admin(membership: Membership) -> None:
    admins = Membership.objects.select_for_update().filter(
        organisation=membership.organisation, role=Role.ADMIN
    )
    if admins.count() <= 1:
        raise OrganisationError(_("An organisation keeps at least one admin."), 409)


@transaction.atomic
def remove(membership: Membership, by) -> None:
    require_admin(by, membership.organisation)
    if membership.role == Role.ADMIN:
        last_admin(membership)
    membership.delete()
    access.forget_memberships(membership.user)


def members(organisation: Organisation):
    return organisation.memberships.select_related("user").order_by("role", "user__username")


__all__ = ["DIRECTING", "OrganisationError"]
