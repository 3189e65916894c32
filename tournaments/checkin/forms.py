"""Check-in's forms: a pair checking itself in with its PIN, and the director's choice for the absent pairs."""

from __future__ import annotations

from typing import cast

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.models import Absence


class PinCheckInForm(forms.Form):
    pair = forms.TypedChoiceField(label=_("Your pair"), coerce=int)
    pin = forms.CharField(label=_("Your pair's PIN"), max_length=20, widget=forms.PasswordInput)

    def __init__(self, *args, pairs=(), **kwargs) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["pair"]).choices = [("", "—"), *((p.pk, p.name) for p in pairs)]


class PairCheckedInForm(forms.Form):
    absent_as = forms.ChoiceField(
        label=_("Pairs not checked in"),
        choices=Absence.Treated.choices,
        initial=Absence.Treated.SIT_OUT,
        widget=forms.RadioSelect,
    )
