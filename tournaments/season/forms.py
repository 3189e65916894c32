"""The director's forms for a series (its name, points table, results that count, tournaments) and for merging
two players."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.competition import access
from tournaments.competition.ids import IdChoicesField
from tournaments.models import Player, Series, Tournament
from tournaments.organisations.forms import organisation_field
from tournaments.season.models import MAX_PLACINGS, MAX_POINTS, points_problem

NAME_LENGTH = Series._meta.get_field("name").max_length


class SeriesForm(forms.Form):
    name = forms.CharField(label=_("name"), max_length=NAME_LENGTH)
    points = forms.CharField(
        label=_("points per placing"),
        max_length=4 * MAX_PLACINGS * 2,
        help_text=_("1st, 2nd, 3rd … placing's points, separated by spaces; lower placings earn none"),
    )
    best_of = forms.IntegerField(
        label=_("results that count"),
        min_value=1,
        max_value=MAX_PLACINGS,
        required=False,
        help_text=_("each player's best results; empty: all count"),
    )
    is_public = forms.BooleanField(label=_("public"), required=False)
    tournaments = IdChoicesField(
        label=_("tournaments"),
        queryset=Tournament.objects.order_by("start_date", "created_at", "pk"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, *args, series: Series | None = None, user=None, **kwargs):
        if "initial" not in kwargs:
            series = series or Series()
            kwargs["initial"] = {
                "name": series.name,
                "points": " ".join(str(p) for p in series.points),
                "best_of": series.best_of,
                "is_public": series.is_public if series.pk else True,
                "tournaments": list(series.tournaments.all()) if series.pk else [],
            }
        super().__init__(*args, **kwargs)
        if user is not None:
            field = self.fields["tournaments"]
            assert isinstance(field, forms.ModelMultipleChoiceField)
            field.queryset = access.directed_tournaments(user, field.queryset)
            organisation_field(self, user, series)

    def clean_points(self) -> list[int]:
        words = self.cleaned_data["points"].replace(",", " ").replace("，", " ").split()
        if not all(w.isascii() and w.isdigit() and len(w) <= len(str(MAX_POINTS)) for w in words):
            raise forms.ValidationError(
                _("Each placing's points are a whole number from 0 to %(n)s.") % {"n": MAX_POINTS}
            )
        points = [int(w) for w in words]
        if problem := points_problem(points):
            raise forms.ValidationError(problem)
        return points


class PlayerChoice(forms.ModelChoiceField):
    def label_from_instance(self, player: Player) -> str:
        return (
            f"{player.name} · {player.club} (#{player.pk})"
            if player.club
            else f"{player.name} (#{player.pk})"
        )


class MergeForm(forms.Form):
    """The duplicate (a typo) merged into the player kept."""

    duplicate = PlayerChoice(
        label=_("duplicate (merged, then deleted)"), queryset=Player.objects.order_by("name", "pk")
    )
    kept = PlayerChoice(label=_("player kept"), queryset=Player.objects.order_by("name", "pk"))
