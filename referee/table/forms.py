"""Forms of the judges' pages (the trick-entry page posts plain fields to the recording service)."""

from __future__ import annotations

from typing import cast

from django import forms
from django.utils.translation import gettext_lazy as _

from referee.table.recording.words import MAX_CARD_TEXT
from rules.ruleset import Ruleset
from tournaments.models import PENALTY_CODES, SEAT_CHOICES, TRUMP_CHOICES
from tournaments.scoring.quick_totals import LAST_LEADS, last_lead_choices, most_kitty_points

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


KITTY_EXAMPLE = ("S5", "SK", "H9", "D3", "D3", "C4", "C7", "CQ")


def kitty_hint(ruleset: Ruleset) -> str:
    """The kitty field's hint: the ruleset's kitty size and an example of that many cards ('' without a kitty)."""
    size = ruleset.kitty_size
    if not size:
        return ""
    example = (KITTY_EXAMPLE * (size // len(KITTY_EXAMPLE) + 1))[:size]
    return _("%(n)s cards, e.g. %(example)s") % {"n": size, "example": " ".join(example)}


class NewDealForm(SeatedForm):
    """Trump and, when the ruleset has a kitty, the kitty (its size in the label; no field at all without one)."""

    trump = forms.ChoiceField(label=_("trump"), choices=TRUMP_CHOICES, widget=forms.RadioSelect)
    kitty = forms.CharField(required=False, max_length=MAX_CARD_TEXT)

    def __init__(self, *args, ruleset: Ruleset, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        if ruleset.kitty_size:
            self.fields["kitty"].label = _("kitty, %(n)s cards (may be entered at the end)") % {
                "n": ruleset.kitty_size
            }
            self.fields["kitty"].widget.attrs.update(
                {"class": "cards-input", "spellcheck": "false", "placeholder": kitty_hint(ruleset)}
            )
        else:
            del self.fields["kitty"]

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
    """Totals only. The bounds follow the ruleset's decks (points up to 100 a deck, in fives); a ruleset without
    a kitty asks nothing of the kitty or the last trick."""

    trump = forms.ChoiceField(label=_("trump"), choices=TRUMP_CHOICES, widget=forms.RadioSelect)
    points = forms.IntegerField(label=_("attackers' points from tricks"), min_value=0)
    kitty_points = forms.IntegerField(label=_("kitty points"), min_value=0, initial=0)
    attackers_won_last = forms.BooleanField(label=_("attackers won the last trick"), required=False)
    last_lead = forms.ChoiceField(label=_("last lead"), choices=LAST_LEAD_CHOICES, initial="single")
    penalty_seat = forms.ChoiceField(
        label=_("penalty: seat"), choices=[("", "—"), *SEAT_CHOICES], required=False
    )
    penalty_code = forms.ChoiceField(label=_("penalty"), choices=[("", "—"), *PENALTY_CODES], required=False)
    penalty_note = forms.CharField(label=_("note"), required=False, max_length=300)

    def __init__(self, *args, ruleset: Ruleset, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # The browser's bounds; the service checks the same bounds with its own words (``check_quick_totals``).
        self.fields["points"].widget.attrs.update({"max": ruleset.deck_points, "step": 5})
        if ruleset.kitty_size:
            self.fields["kitty_points"].widget.attrs.update({"max": most_kitty_points(ruleset), "step": 5})
            cast(forms.ChoiceField, self.fields["last_lead"]).choices = last_lead_choices(ruleset)
        else:
            for name in ("kitty_points", "attackers_won_last", "last_lead"):
                del self.fields[name]

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
            "kitty_points": data.get("kitty_points", 0),
            "last_lead": data.get("last_lead", "single"),
            "attackers_won_last": data.get("attackers_won_last", False),
            "declarer": data.get("declarer") or None,
            "penalties": penalties,
            "next_deal": data["next_deal"],
        }
