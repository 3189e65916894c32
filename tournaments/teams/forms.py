"""The team pages' forms: the event's team settings, a team and its roster, the fixtures' first day, a
captain's account, a fixture's new date, a line-up."""

from __future__ import annotations

from django import forms
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.utils.translation import gettext_lazy as _

from rules.teams import MAX_ROSTER, MIN_ROSTER, TABLE_POINTS, VICTORY_POINTS
from tournaments.duplicate.victory_table import VictoryTableError, default_rows, read_table, table_text
from tournaments.models import DuplicateEvent, TeamEvent, Tournament

# A duplicate teams event (RULES §14.5): two tables a match, the match won on scale points.
DUPLICATE_SCORING = [
    (TABLE_POINTS, _("win 2, draw 1, loss 0 on the scale points")),
    (VICTORY_POINTS, _("victory points from the table below")),
]


class TeamEventForm(forms.ModelForm):
    victory_table = forms.CharField(
        label=_("victory-point table"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 10}),
        help_text=_(
            "victory points only: one row a line, “margin: winner's VP – loser's VP”: from that margin in "
            "scale points up to the next row's; the first row is the margin 0, a draw"
        ),
    )

    class Meta:
        model = TeamEvent
        fields = ["kind", "tables", "scoring", "blitz_per_table", "first_deal_at", "lineups_due_at"]
        widgets = {
            "first_deal_at": forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
            "lineups_due_at": forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
        }

    def __init__(self, *args, tournament: Tournament | None = None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["first_deal_at"].required = False
        if tournament is not None and tournament.format == Tournament.Format.DUPLICATE_TEAMS:
            self.duplicate_fields(tournament)
        else:
            del self.fields["victory_table"]

    def duplicate_fields(self, tournament: Tournament) -> None:
        """Duplicate teams: two tables a match (fixed), no level scale; the match points or a victory-point
        table on the scale points' margin (shown filled in: the event's, else the default for its boards)."""
        del self.fields["tables"], self.fields["blitz_per_table"]
        scoring = self.fields["scoring"]
        assert isinstance(scoring, forms.ChoiceField)  # a model field's choices
        scoring.choices = DUPLICATE_SCORING
        event = DuplicateEvent.objects.filter(tournament=tournament).first()
        rows = self.instance.victory_table or default_rows(event.boards_per_round if event else 2)
        self.initial["victory_table"] = table_text(rows)

    def clean_victory_table(self) -> list[list[int]]:
        try:
            return read_table(self.cleaned_data.get("victory_table") or "")
        except VictoryTableError as exc:
            raise forms.ValidationError(exc.message) from None

    def clean_first_deal_at(self):
        """Left empty: the usual evening start."""
        return (
            self.cleaned_data.get("first_deal_at") or TeamEvent._meta.get_field("first_deal_at").get_default()
        )


class TeamForm(forms.Form):
    name = forms.CharField(label=_("team name"), max_length=100)
    club = forms.CharField(label=_("club"), max_length=100, required=False)
    venue = forms.CharField(label=_("home venue"), max_length=200, required=False)
    zone = forms.CharField(label=_("zone"), max_length=60, required=False)
    pairs = forms.CharField(
        label=_("pairs"),
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=_("one pair a line: the two players' names separated by a slash"),
    )

    def clean_pairs(self) -> list[tuple[str, str]]:
        out = []
        for line in self.cleaned_data["pairs"].splitlines():
            if not line.strip():
                continue
            names = [n.strip() for n in line.replace("／", "/").split("/")]
            if len(names) != 2 or not all(names) or any(len(n) > 100 for n in names):
                raise forms.ValidationError(_("Write each pair as two names separated by a slash."))
            out.append((names[0], names[1]))
        if not MIN_ROSTER <= len(out) <= MAX_ROSTER:
            raise forms.ValidationError(
                _("A team has %(low)s to %(high)s pairs.") % {"low": MIN_ROSTER, "high": MAX_ROSTER}
            )
        return out


class ScheduleForm(forms.Form):
    first_day = forms.DateField(
        label=_("first match day"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    days_apart = forms.IntegerField(label=_("days between match days"), min_value=1, max_value=60, initial=7)


class PlayoffForm(forms.Form):
    """The draw's settings, and for each shared last qualifying place (``playoffs.SharedPlace``) the teams the
    director sends through."""

    per_zone = forms.IntegerField(
        label=_("teams per zone in the playoffs"), min_value=1, max_value=16, initial=2
    )
    seeding = forms.ChoiceField(label=_("playoff seeding"), choices=TeamEvent.Seeding.choices)
    third_place = forms.BooleanField(
        label=_("third-place match"),
        required=False,
        help_text=_("the two losing semi-finalists play a team match for third place"),
    )

    def __init__(self, *args, shared=(), **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.shared = list(shared)
        for sp in self.shared:
            self.fields[f"shared_{sp.zone or 'all'}"] = forms.TypedMultipleChoiceField(
                label=sp.text,
                choices=[(t.pk, t.name) for t in sp.teams],
                coerce=int,
                required=False,
                widget=forms.CheckboxSelectMultiple,
            )

    def chosen(self) -> dict[str, list[int]]:
        """By zone id, the teams chosen for its shared place."""
        return {sp.zone: self.cleaned_data.get(f"shared_{sp.zone or 'all'}", []) for sp in self.shared}


class CaptainForm(forms.Form):
    """A team's captain: a new user name makes the account, an existing captain's user name links it."""

    username = forms.CharField(
        label=_("captain's user name"),
        max_length=150,
        required=False,
        validators=[UnicodeUsernameValidator()],
    )
    name = forms.CharField(label=_("captain's name"), max_length=150, required=False)


class PostponeForm(forms.Form):
    date = forms.DateField(
        label=_("new date"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )


class DeadlineForm(forms.Form):
    at = forms.TimeField(label=_("line-ups due at"), widget=forms.TimeInput(attrs={"type": "time"}))


class LineUpForm(forms.Form):
    """One choice of the roster's pairs per table, each labelled with the hall's table number."""

    def __init__(self, *args, pairs, tables: list[int], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        choices = [("", "—")] + [(p.pk, f"{p.name} ({p.players})") for p in pairs]
        for i, hall in enumerate(tables, 1):
            self.fields[f"table_{i}"] = forms.TypedChoiceField(
                label=_("Table %(n)s") % {"n": hall}, choices=choices, coerce=int
            )

    def pair_ids(self) -> list[int]:
        return [v for k, v in sorted(self.cleaned_data.items(), key=lambda kv: int(kv[0].split("_")[1]))]
