"""The organisation a new event belongs to, asked only of someone who directs more than one; and the invitation."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.competition import access
from tournaments.organisations.models import Invitation, Organisation, Role


def organisation_field(form: forms.Form, user, event=None) -> None:
    """Give ``form`` a required ``organisation`` choice when a new event's owner is not plain: the user directs
    several organisations. With one, the event is that one's (``cleaned_data["organisation"]`` None: the service
    takes the user's only one); an existing event keeps its own."""
    if event is not None and getattr(event, "pk", None):
        return
    choices = access.directing_organisations(user)
    if choices.count() > 1:
        form.fields["organisation"] = forms.ModelChoiceField(
            label=_("organisation"), queryset=choices, empty_label=None
        )


class InvitationForm(forms.Form):
    role = forms.ChoiceField(label=_("role"), choices=Role.choices, initial=Role.DIRECTOR)
    note = forms.CharField(
        label=_("for whom"), max_length=Invitation._meta.get_field("note").max_length, required=False
    )


class OrganisationForm(forms.Form):
    name = forms.CharField(label=_("name"), max_length=Organisation._meta.get_field("name").max_length)
