"""The director's form for an adjusted result."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.models import RANK_CHOICES, SIDE_CHOICES, Adjustment


class AdjustmentForm(forms.Form):
    """What the director awards, and why; the side, the levels or the deal as the kind needs."""

    kind = forms.ChoiceField(
        label=_("Adjusted result"), choices=Adjustment.Kind.choices, widget=forms.RadioSelect
    )
    side = forms.ChoiceField(label=_("Side that wins"), choices=[("", "—"), *SIDE_CHOICES], required=False)
    level_ns = forms.ChoiceField(label=_("N–S level"), choices=[("", "—"), *RANK_CHOICES], required=False)
    level_ew = forms.ChoiceField(label=_("E–W level"), choices=[("", "—"), *RANK_CHOICES], required=False)
    deal_number = forms.IntegerField(label=_("Deal number"), min_value=1, max_value=999, required=False)
    reason = forms.CharField(label=_("Reason"), max_length=300)
