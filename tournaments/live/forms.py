"""The desk's form for a featured table."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.live.models import DEFAULT_DELAY, MAX_DELAY
from tournaments.live.services import MAX_TABLE


class FeaturedForm(forms.Form):
    table = forms.IntegerField(label=_("table"), min_value=1, max_value=MAX_TABLE)
    delay = forms.IntegerField(
        label=_("delay in tricks"),
        min_value=0,
        max_value=MAX_DELAY,
        initial=DEFAULT_DELAY,
        required=False,
        help_text=_("a trick is shown once this many more tricks are complete at the table"),
    )
    whole_deals = forms.BooleanField(
        label=_("whole deals only"), required=False, help_text=_("a deal is shown once it is confirmed")
    )
    on_screen = forms.BooleanField(label=_("on the projector"), required=False)

    def clean(self):
        data = super().clean() or {}
        if not data.get("whole_deals") and data.get("delay") is None and "delay" not in self.errors:
            data["delay"] = DEFAULT_DELAY
        return data
