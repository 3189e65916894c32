"""The forms of a table's call: the table's (why it calls) and the director's ruling."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.calls.services import NOTE_LENGTH, RULING_LENGTH
from tournaments.models import PENALTY_CODES, SEAT_CHOICES, TableCall


class CallForm(forms.Form):
    """The table calls the referee: a reason, and a few words if it helps."""

    reason = forms.ChoiceField(label=_("Why"), choices=TableCall.Reason.choices, widget=forms.RadioSelect)
    note = forms.CharField(label=_("A few words (optional)"), max_length=NOTE_LENGTH, required=False)

    def __init__(self, *args, boards: bool = False, **kwargs) -> None:
        """``boards``: the table plays duplicate boards, so a fouled board (RULES §14.6) is a reason to call."""
        super().__init__(*args, **kwargs)
        if not boards:
            choices = [c for c in TableCall.Reason.choices if c[0] != TableCall.Reason.FOULED]
            reason = self.fields["reason"]
            assert isinstance(reason, forms.ChoiceField)
            reason.choices = choices


class RulingForm(forms.Form):
    """The director's ruling, and what it does: nothing more, a penalty (its seat and kind), or the deal reopened."""

    ruling = forms.CharField(
        label=_("Ruling"), max_length=RULING_LENGTH, widget=forms.Textarea(attrs={"rows": 3})
    )
    action = forms.ChoiceField(
        label=_("What the ruling does"),
        choices=TableCall.Action.choices,
        required=False,
        initial="",
        widget=forms.RadioSelect,
    )
    seat = forms.ChoiceField(label=_("Seat at fault"), choices=[("", "—"), *SEAT_CHOICES], required=False)
    code = forms.ChoiceField(label=_("Penalty"), choices=[("", "—"), *PENALTY_CODES], required=False)

    def clean(self) -> dict:
        super().clean()
        data = self.cleaned_data
        if data.get("action") == TableCall.Action.PENALTY and not (data.get("seat") and data.get("code")):
            raise forms.ValidationError(_("Choose the seat at fault and the penalty."))
        return data
