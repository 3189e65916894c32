from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from tournaments.competition.ids import IdChoicesField
from tournaments.models import Pair
from tournaments.people.forms import JudgeChoiceField


class ImportForm(forms.Form):
    """An .xlsx, .csv or .txt file of pairs: header pair,player1,player2,club (or the Chinese header)."""

    file = forms.FileField(
        label=_("file"),
        help_text=_("An .xlsx, .csv or .txt file with the columns pair, player1, player2, club."),
    )


class MatchRowForm(forms.Form):
    """One table of a draft round; a row left empty is no match."""

    pair_ns = forms.ModelChoiceField(queryset=Pair.objects.none(), required=False, label=_("North–South"))
    pair_ew = forms.ModelChoiceField(queryset=Pair.objects.none(), required=False, label=_("East–West"))
    judge = JudgeChoiceField(queryset=get_user_model().objects.none(), required=False, label=_("judge"))

    def __init__(self, *args, pairs=None, judges=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["pair_ns"].queryset = pairs
        self.fields["pair_ew"].queryset = pairs
        self.fields["judge"].queryset = judges

    def clean(self):
        data = super().clean()
        ns, ew = data.get("pair_ns"), data.get("pair_ew")
        if bool(ns) != bool(ew):
            raise forms.ValidationError(_("Choose both pairs, or neither."))
        if ns and ns == ew:
            raise forms.ValidationError(_("A pair cannot play itself."))
        return data


class ByeForm(forms.Form):
    byes = IdChoicesField(
        queryset=Pair.objects.none(), required=False, widget=forms.CheckboxSelectMultiple, label=_("byes")
    )

    def __init__(self, *args, pairs=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["byes"].queryset = pairs


class ByePointsForm(forms.Form):
    """One bye's match points, as the standings count them."""

    points = forms.IntegerField(label=_("match points"), min_value=0, max_value=32767)


class SwapForm(forms.Form):
    first = forms.ModelChoiceField(queryset=Pair.objects.none(), label=_("pair"))
    second = forms.ModelChoiceField(queryset=Pair.objects.none(), label=_("with pair"))

    def __init__(self, *args, pairs=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["first"].queryset = pairs
        self.fields["second"].queryset = pairs


class ReopenForm(forms.Form):
    """Why the director reopens a finished tournament (optional), kept in its history with who and when."""

    reason = forms.CharField(label=_("why (kept in the history)"), max_length=100, required=False)
