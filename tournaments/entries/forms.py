"""The public entry form and the desk's entries settings: each checks what was typed, one sentence a field, and
hands the service plain values."""

from __future__ import annotations

import secrets

from django import forms
from django.utils.translation import gettext_lazy as _

from rules.teams import MAX_ROSTER, MIN_ROSTER
from tournaments.entries.names import contact_problem, name_problem
from tournaments.entries.services import EntryForm
from tournaments.models import Entry, EntryWindow
from tournaments.people.registry import clean_name

NAME = Entry._meta.get_field("name").max_length or 100
CONTACT = Entry._meta.get_field("contact").max_length or 200
KEY_LENGTH = 32


def new_key() -> str:
    """The one-time key a new form carries (hex): its posts, however many, make one entry."""
    return secrets.token_hex(KEY_LENGTH // 2)


class NameField(forms.CharField):
    """A name typed by anyone: its length and characters checked by ``name_problem`` (one sentence), never
    by the field's own English-worded checks, so a page in Chinese refuses in Chinese."""

    def __init__(self, label, *, required: bool = True, **kwargs) -> None:
        super().__init__(label=label, required=False, strip=True, **kwargs)
        self.must = required

    def clean(self, value) -> str:
        value = super().clean(value)
        if not value and not self.must:
            return ""
        if problem := name_problem(value, NAME):
            raise forms.ValidationError(problem)
        return clean_name(value)


class EntryFormForm(forms.Form):
    """A pair enters: its name, both players, its club and one way to reach it; ``key`` is the form's own."""

    name = NameField(_("pair name"))
    player1 = NameField(_("player 1"))
    player2 = NameField(_("player 2"))
    club = NameField(_("club"), required=False)
    contact = forms.CharField(
        label=_("contact"),
        required=False,
        help_text=_("a phone number or an e-mail address: only the director sees it"),
    )
    key = forms.CharField(widget=forms.HiddenInput, required=False)

    def clean_contact(self) -> str:
        contact = self.cleaned_data.get("contact") or ""
        if problem := contact_problem(contact, CONTACT):
            raise forms.ValidationError(problem)
        return " ".join(contact.split())

    def clean_key(self) -> str:
        key = self.cleaned_data.get("key") or ""
        if len(key) != KEY_LENGTH or not all(c in "0123456789abcdef" for c in key):
            raise forms.ValidationError(_("This form is out of date: reload the page and send it again."))
        return key

    def clean(self):
        data = super().clean()
        if data.get("player1") and data.get("player1") == data.get("player2"):
            self.add_error("player2", _("The two players must be different."))
        return data

    def entry(self) -> EntryForm:
        d = self.cleaned_data
        return EntryForm(d["name"], d["player1"], d["player2"], d["club"], d["contact"])


class TeamEntryFormForm(EntryFormForm):
    """A team enters a team event: its name, its captain, its club, one contact and its pairs, one a line."""

    name = NameField(_("team name"))
    captain = NameField(_("captain"))
    pairs = forms.CharField(
        label=_("pairs"),
        widget=forms.Textarea(attrs={"rows": 4}),
        required=False,
        help_text=_("one pair a line: the two players' names separated by a slash"),
    )
    field_order = ["name", "captain", "club", "contact", "pairs"]

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        del self.fields["player1"], self.fields["player2"]

    def clean_pairs(self) -> tuple[tuple[str, str], ...]:
        roster = []
        for line in (self.cleaned_data.get("pairs") or "").splitlines():
            if not line.strip():
                continue
            names = [n.strip() for n in line.replace("／", "/").split("/")]
            if len(names) != 2:
                raise forms.ValidationError(_("Write each pair as two names separated by a slash."))
            for name in names:
                if problem := name_problem(name, NAME):
                    raise forms.ValidationError(f"{name or '—'}: {problem}")
            roster.append((clean_name(names[0]), clean_name(names[1])))
        if not MIN_ROSTER <= len(roster) <= MAX_ROSTER:
            raise forms.ValidationError(
                _("A team has %(low)s to %(high)s pairs.") % {"low": MIN_ROSTER, "high": MAX_ROSTER}
            )
        return tuple(roster)

    def entry(self) -> EntryForm:
        d = self.cleaned_data
        return EntryForm(d["name"], "", "", d["club"], d["contact"], d["captain"], d["pairs"])


class WindowForm(forms.ModelForm):
    """The director's settings: places, closing time, approval and fee."""

    capacity = forms.IntegerField(label=_("places"), min_value=2, max_value=2000)

    class Meta:
        model = EntryWindow
        fields = ["capacity", "closes_at", "approval", "fee"]
        widgets = {
            "closes_at": forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")
        }
