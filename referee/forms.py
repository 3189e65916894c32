"""Forms of the judges' pages (the trick-entry page posts plain fields to the recording service)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from referee.recording.quick_totals import LAST_LEADS
from tournaments.models import PENALTY_CODES, SEAT_CHOICES, TRUMP_CHOICES

LAST_LEAD_CHOICES = [(kind, label) for kind, (label, _shape) in LAST_LEADS.items()]


class SeatedForm(forms.Form):
    """A form that makes a deal. The first deal of a match needs the declarer (who won 抢庄); later ones take
    the banker from the rotation. ``next_deal``, the number of the deal the form was shown for, stops a form
    shown before another deal came in from making a second one."""

    declarer = forms.ChoiceField(
        label=_("declarer (first banker)"), choices=SEAT_CHOICES, required=False, widget=forms.RadioSelect
    )
    next_deal = forms.IntegerField(
        min_value=1,
        widget=forms.HiddenInput,
        error_messages={"required": _("The page is out of date: reload it and enter the deal again.")},
    )

    def __init__(self, *args, needs_declarer: bool = False, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        if needs_declarer:
            self.fields["declarer"].required = True
        else:
            del self.fields["declarer"]


class NewDealForm(SeatedForm):
    trump = forms.ChoiceField(label=_("trump"), choices=TRUMP_CHOICES, widget=forms.RadioSelect)
    kitty = forms.CharField(label=_("kitty (may be entered at the end)"), required=False, max_length=200)

    def deal(self) -> dict:
        """The service's arguments (``deal_entry.start_deal``)."""
        data = self.cleaned_data
        return {
            "trump": data["trump"],
            "declarer": data.get("declarer") or None,
            "kitty": data.get("kitty") or "",
            "next_deal": data["next_deal"],
        }


class PenaltyForm(forms.Form):
    """A penalty the judge calls; the trick is numbered from 1 as on the screen (stored from 0)."""

    seat = forms.ChoiceField(label=_("seat"), choices=SEAT_CHOICES)
    code = forms.ChoiceField(label=_("penalty"), choices=PENALTY_CODES)
    trick = forms.IntegerField(label=_("trick no."), required=False, min_value=1, max_value=99)
    note = forms.CharField(label=_("note"), required=False, max_length=300)

    def penalty(self) -> dict:
        """The service's arguments: the trick index counted from 0, as in DEAL-RECORD."""
        data = dict(self.cleaned_data)
        if data.get("trick") is not None:
            data["trick"] -= 1
        return data


class QuickEntryForm(SeatedForm):
    trump = forms.ChoiceField(label=_("trump"), choices=TRUMP_CHOICES, widget=forms.RadioSelect)
    points = forms.IntegerField(label=_("attackers' points from tricks"), min_value=0, max_value=400)
    kitty_points = forms.IntegerField(label=_("kitty points"), min_value=0, max_value=400, initial=0)
    attackers_won_last = forms.BooleanField(label=_("attackers won the last trick"), required=False)
    last_lead = forms.ChoiceField(label=_("last lead"), choices=LAST_LEAD_CHOICES, initial="single")
    penalty_seat = forms.ChoiceField(
        label=_("penalty: seat"), choices=[("", "—"), *SEAT_CHOICES], required=False
    )
    penalty_code = forms.ChoiceField(label=_("penalty"), choices=[("", "—"), *PENALTY_CODES], required=False)
    penalty_note = forms.CharField(label=_("note"), required=False, max_length=300)

    def clean(self):
        data = super().clean()
        if data.get("penalty_code") and not data.get("penalty_seat"):
            self.add_error("penalty_seat", _("Choose the seat at fault."))
        return data

    def deal(self) -> dict:
        """The service's arguments (``quick.quick_entry``), the one penalty the form offers as a list."""
        data = self.cleaned_data
        penalties = (
            [{"seat": data["penalty_seat"], "code": data["penalty_code"], "note": data["penalty_note"]}]
            if data.get("penalty_code")
            else []
        )
        return {
            "trump": data["trump"],
            "points": data["points"],
            "kitty_points": data["kitty_points"],
            "last_lead": data["last_lead"],
            "attackers_won_last": data["attackers_won_last"],
            "declarer": data.get("declarer") or None,
            "penalties": penalties,
            "next_deal": data["next_deal"],
        }
