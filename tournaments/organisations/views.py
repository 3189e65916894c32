"""An organisation's pages: its public page (its events), its members' page (roles, one-time invitation links)
and the page an invitation link opens. Thin: read the request, one service call, the page."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.forms import UserCreationForm
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from tournaments.competition import access
from tournaments.competition.page_guards import director_required
from tournaments.models import Invitation, Membership, Organisation, Tournament
from tournaments.organisations import services
from tournaments.organisations.forms import InvitationForm, OrganisationForm


def organisation_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The organisation's events that the visitor may see (its hidden ones for its members)."""
    organisation = get_object_or_404(Organisation, slug=slug)
    events = access.visible_tournaments(request.user, Tournament.objects.filter(organisation=organisation))
    return render(
        request,
        "tournaments/organisations/organisation.html",
        {
            "organisation": organisation,
            "tournaments": events,
            "is_member": services.is_member(request.user, organisation),
        },
    )


def _managed(request: HttpRequest, slug: str) -> Organisation:
    organisation = get_object_or_404(Organisation, slug=slug)
    if not services.is_member(request.user, organisation):
        raise PermissionDenied
    return organisation


@director_required
def members_page(request: HttpRequest, slug: str) -> HttpResponse:
    """Who runs the organisation's events, in which role; its admins invite and remove members."""
    organisation = _managed(request, slug)
    admin = services.is_admin(request.user, organisation)
    invitations = organisation.invitations.open() if admin else Invitation.objects.none()
    return render(
        request,
        "tournaments/organisations/members.html",
        {
            "organisation": organisation,
            "members": services.members(organisation),
            "is_admin": admin,
            "form": InvitationForm(),
            "invitations": [
                (i, request.build_absolute_uri(reverse("invitation", args=[i.token]))) for i in invitations
            ],
            "roles": Membership._meta.get_field("role").choices,
        },
    )


def _refused(request: HttpRequest, exc: services.OrganisationError, slug: str) -> HttpResponse:
    messages.error(request, exc.message)
    return redirect("organisation-members", slug=slug)


@director_required
@require_POST
def invite(request: HttpRequest, slug: str) -> HttpResponse:
    organisation = _managed(request, slug)
    form = InvitationForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose a role."))
        return redirect("organisation-members", slug=slug)
    try:
        services.invite(organisation, request.user, form.cleaned_data["role"], form.cleaned_data["note"])
    except services.OrganisationError as exc:
        return _refused(request, exc, slug)
    messages.success(request, _("The invitation link is made: send it to the new member; it works once."))
    return redirect("organisation-members", slug=slug)


@director_required
@require_POST
def revoke(request: HttpRequest, slug: str, invitation_id: int) -> HttpResponse:
    organisation = _managed(request, slug)
    invitation = get_object_or_404(Invitation, pk=invitation_id, organisation=organisation)
    try:
        services.revoke(invitation, request.user)
    except services.OrganisationError as exc:
        return _refused(request, exc, slug)
    messages.success(request, _("The invitation link no longer works."))
    return redirect("organisation-members", slug=slug)


@director_required
@require_POST
def change_member(request: HttpRequest, slug: str, membership_id: int) -> HttpResponse:
    """A member's new role, or their removal (``remove``)."""
    organisation = _managed(request, slug)
    membership = get_object_or_404(Membership, pk=membership_id, organisation=organisation)
    try:
        if "remove" in request.POST:
            services.remove(membership, request.user)
            messages.success(request, _("%(name)s is no longer a member.") % {"name": membership.user})
        else:
            services.set_role(membership, request.user, request.POST.get("role", ""))
            messages.success(request, _("Saved."))
    except services.OrganisationError as exc:
        return _refused(request, exc, slug)
    return redirect("organisation-members", slug=slug)


@director_required
@require_http_methods(["GET", "POST"])
def new_organisation(request: HttpRequest) -> HttpResponse:
    """The site's admin makes an organisation (its first admin invited by a link from its members' page)."""
    if not request.user.is_superuser:
        raise PermissionDenied
    form = OrganisationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            organisation = services.create_organisation(form.cleaned_data["name"], request.user)
        except services.OrganisationError as exc:
            form.add_error("name", exc.message)
        else:
            return redirect("organisation-members", slug=organisation.slug)
    return render(
        request, "tournaments/organisations/new.html", {"form": form}, status=400 if form.errors else 200
    )


@require_http_methods(["GET", "POST"])
def invitation_page(request: HttpRequest, token: str) -> HttpResponse:
    """The link's holder joins: signed in, by one button; else with a new account (or by signing in first)."""
    invitation = Invitation.objects.select_related("organisation").filter(token=token[:64]).first()
    if invitation is None:
        raise Http404
    form: UserCreationForm | None = (
        UserCreationForm(request.POST or None) if not request.user.is_authenticated else None
    )
    if request.method == "POST" and invitation.is_open:
        try:
            if request.user.is_authenticated:
                services.accept(token, request.user)
            elif form is not None and form.is_valid():
                membership = services.new_account_from_invitation(
                    token, form.cleaned_data["username"], form.cleaned_data["password1"]
                )
                login(request, membership.user, backend=settings.AUTHENTICATION_BACKENDS[-1])
            else:
                return _invitation(request, invitation, form, status=400)
        except services.OrganisationError as exc:
            messages.error(request, exc.message)
            return _invitation(request, invitation, form, status=exc.status)
        messages.success(
            request, _("You are a member of %(organisation)s.") % {"organisation": invitation.organisation}
        )
        return redirect("organisation", slug=invitation.organisation.slug)
    return _invitation(request, invitation, form, status=200 if invitation.is_open else 410)


def _invitation(request: HttpRequest, invitation: Invitation, form, status: int) -> HttpResponse:
    return render(
        request,
        "tournaments/organisations/invitation.html",
        {"invitation": invitation, "form": form},
        status=status,
    )
