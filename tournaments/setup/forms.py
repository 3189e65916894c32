"""The forms of a tournament's setup: its own settings (dates, format, points, switches, tie-breaks) and its
ruleset — a preset, then every setting of ``rules.ruleset.Ruleset`` as a field built from the dataclass.

Each setting's field comes from its type (a yes/no, a number, a number or nothing, a choice in words, a rank, a
list of ranks); a setting no widget fits is a text field with a format note. The engine judges the whole ruleset
(``Ruleset.from_spec``) and its refusal is put next to the setting it names, in the active language.
"""

from __future__ import annotations

import json
import typing
from dataclasses import fields
from enum import StrEnum
from typing import Any

from django import forms
from django.core.validators import MinValueValidator
from django.forms.utils import ErrorDict
from django.utils.translation import gettext_lazy as _

from rules.ranks import RANK_TEXT, RANKS
from rules.ruleset import MAX_NUMBER, PRESETS, Ruleset, RulesetError
from rules.standings import TIEBREAKS
from tournaments.competition import ruleset_settings
from tournaments.competition.display import ruleset_presets, tie_break_name
from tournaments.competition.refusals import ruleset_problem
from tournaments.models import MAX_BOARDS_PER_ROUND, MIN_BOARDS_PER_ROUND, DuplicateEvent, Tournament

RANK_CHOICES = [(r, RANK_TEXT[r]) for r in RANKS]
SETTINGS = tuple(f.name for f in fields(Ruleset) if f.name != "preset")
HINTS = typing.get_type_hints(Ruleset)


class QuietForm(forms.Form):
    """A form shown again after a button that only rearranges it (move a tie-break, take a preset's values):
    ``quiet`` keeps the director's entries and shows no errors, since nothing was saved."""

    quiet = False

    @property
    def errors(self) -> ErrorDict:
        return ErrorDict() if self.quiet else super().errors

    def is_valid(self) -> bool:
        return not self.quiet and super().is_valid()


# ---------------------------------------------------------------- the ruleset's settings as fields


class OptionalIntegerField(forms.IntegerField):
    """A number or nothing (the engine's ``None``: no limit, never, a warning only)."""

    def __init__(self, **kwargs):
        super().__init__(required=False, **kwargs)


class RankListField(forms.TypedMultipleChoiceField):
    """Ranks ticked on a row of boxes, returned in rank order (the ladder climbs)."""

    def __init__(self, **kwargs):
        super().__init__(choices=RANK_CHOICES, required=False, widget=forms.CheckboxSelectMultiple, **kwargs)

    def clean(self, value):
        return sorted(super().clean(value) or [], key=RANKS.index)


class TextSettingField(forms.CharField):
    """A setting typed as text: ``show`` writes the engine's value as the director reads it, ``read`` parses it."""

    def __init__(self, show, read, note, rows=3, **kwargs):
        self.show, self.read = show, read
        super().__init__(required=False, widget=forms.Textarea(attrs={"rows": rows}), **kwargs)
        self.note = note

    def prepare_value(self, value):
        return value if isinstance(value, str) else self.show(value)

    def clean(self, value):
        try:
            return self.read(super().clean(value))
        except ruleset_settings.TextFormatError as exc:
            raise forms.ValidationError(str(exc)) from exc


def json_setting_field(**kwargs) -> TextSettingField:
    """Any other setting: its JSON, for a setting the form has no widget for yet."""

    def read(text: str) -> Any:
        try:
            return json.loads(text) if text.strip() else None
        except (ValueError, RecursionError) as exc:  # a typo, 5,000 digits, nesting 100,000 deep
            raise ruleset_settings.TextFormatError(_("Write this setting as JSON.")) from exc

    return TextSettingField(
        lambda v: json.dumps(v, ensure_ascii=False), read, _("Write it as JSON."), **kwargs
    )


TEXT_SETTINGS = {
    "kitty_table": lambda **kw: TextSettingField(
        ruleset_settings.kitty_table_text,
        ruleset_settings.read_kitty_table,
        _("One kind and its multiplier each, separated by commas: single ×2, pair of cards ×4, tractor ×16."),
        rows=2,
        **kw,
    ),
    "follow_tables": lambda **kw: TextSettingField(
        ruleset_settings.follow_tables_text,
        ruleset_settings.read_follow_tables,
        _(
            "One lead a line, a colon, then its follow lines from the first, separated by “/”: 3x1 a set of three, "
            "2x2 a tractor of two pairs, 3x* a chain of threes of any length, 2x+ the longest tractor that fits, "
            "2+ as many pairs as fit, — single cards."
        ),
        rows=5,
        **kw,
    ),
    "level_bands": lambda **kw: TextSettingField(
        ruleset_settings.level_bands_text,
        ruleset_settings.read_level_bands,
        _(
            "One band a line, from the lowest points up: the attackers' points it starts at (“below” for the "
            "first band), a colon, the side that goes up and its levels; the last band may add “one more every "
            "N points”."
        ),
        rows=7,
        **kw,
    ),
}


# Numbers no ruleset needs, refused before the engine sees them (the engine refuses them too, and judges the rest).
BOUNDS: dict[str, Any] = {"min_value": -MAX_NUMBER, "max_value": MAX_NUMBER}


def setting_field(name: str, example: Any) -> forms.Field:
    """The form field for one setting, chosen by the setting's type (``example`` is a preset's value)."""
    kind = HINTS[name]
    kw: dict[str, Any] = {
        "label": ruleset_settings.setting_label(name),
        "help_text": ruleset_settings.setting_help(name),
    }
    if name in TEXT_SETTINGS:
        return TEXT_SETTINGS[name](**kw)
    if kind is bool:
        return forms.BooleanField(required=False, **kw)
    if kind is int:
        return forms.IntegerField(**kw, **BOUNDS)
    if kind == int | None:
        return OptionalIntegerField(**kw, **BOUNDS)
    if isinstance(kind, type) and issubclass(kind, StrEnum):
        return forms.ChoiceField(
            choices=[(m.value, ruleset_settings.choice_name(m.value)) for m in kind], **kw
        )
    if kind is str and example in RANKS:
        return forms.ChoiceField(choices=RANK_CHOICES, **kw)
    if kind == tuple[str, ...]:
        return RankListField(**kw)
    return json_setting_field(**kw)


def preset_values(preset: str) -> dict[str, Any]:
    """A preset's settings as the engine writes them (JSON values), the fields' initial values."""
    return Ruleset.from_spec(preset).as_dict()


def stored_values(spec: Any) -> dict[str, Any]:
    """The preset and every setting the form starts from. A stored ruleset the engine refuses (saved before it
    checked every setting) is shown as stored over its preset's values, so the director sees it and corrects it."""
    try:
        start = Ruleset.from_spec(spec)
    except RulesetError:
        name = spec.get("preset") if isinstance(spec, dict) else spec
        name = name if isinstance(name, str) and name in PRESETS else "standard"
        stored = {k: v for k, v in spec.items() if k in SETTINGS} if isinstance(spec, dict) else {}
        return {"preset": name, **PRESETS[name].as_dict(), **stored}
    return {"preset": start.preset, **start.as_dict()}


def shown(field: forms.Field, value: Any) -> str:
    """A setting's value in words, as the form shows a preset's value beside the field."""
    if isinstance(field, forms.BooleanField):
        return str(_("yes") if value else _("no"))
    if value is None or value == [] or value == {}:
        return str(_("none"))
    if isinstance(field, TextSettingField):
        return field.show(value)
    if isinstance(field, RankListField):
        return " ".join(RANK_TEXT.get(v, v) for v in value)
    if isinstance(field, forms.ChoiceField):
        return str(dict(field.choices).get(value, value))
    return str(value)


class RulesetForm(QuietForm):
    """The preset, then every setting; ``spec`` after validation is the shortest spec (``Ruleset.to_spec``)."""

    preset = forms.ChoiceField(label=_("preset"), widget=forms.RadioSelect)

    def __init__(self, *args, spec: Any = "standard", preset: str | None = None, **kwargs):
        """``spec`` is the stored ruleset the form starts from; ``preset`` starts it from a preset's values."""
        kwargs.setdefault("prefix", "rules")
        kwargs.setdefault("initial", stored_values(preset or spec))
        super().__init__(*args, **kwargs)
        self.fields["preset"].choices = [
            (code, f"{name} — {line}" if line else name) for code, name, line in ruleset_presets()
        ]
        example = Ruleset().as_dict()
        for name in SETTINGS:
            self.fields[name] = setting_field(name, example[name])
        self.spec: Any = None

    def presets(self) -> list[dict[str, Any]]:
        """The presets to choose from: code, name, one line on what it is, and whether it is chosen."""
        chosen = self.chosen_preset()
        return [
            {"code": c, "name": n, "line": line, "chosen": c == chosen} for c, n, line in ruleset_presets()
        ]

    def chosen_preset(self) -> str:
        """The preset the form is on: the one posted, else the one it started from."""
        posted = self.data.get(self.add_prefix("preset")) if self.is_bound else None
        return posted if posted in PRESETS else self.initial["preset"]

    def clean(self):
        data = super().clean()
        if self.errors or "preset" not in data:
            return data
        spec = {"preset": data["preset"]} | {name: data.get(name) for name in SETTINGS}
        try:
            self.spec = Ruleset.from_spec(spec).to_spec()
        except RulesetError as exc:
            setting, message = ruleset_problem(exc)
            self.add_error(setting if setting in self.fields else None, message)
        return data

    def rows(self) -> list[dict[str, Any]]:
        """Each setting with the chosen preset's value in words and whether the form overrides it."""
        base = preset_values(self.chosen_preset())
        out = []
        for name in SETTINGS:
            bound = self[name]
            field = self.fields[name]
            value = self.current(name)
            out.append(
                {
                    "field": bound,
                    "preset_value": shown(field, base[name]),
                    "overridden": value is not UNREADABLE and value != base[name],
                    "note": getattr(field, "note", ""),
                }
            )
        return out

    def current(self, name: str) -> Any:
        """The setting's value now, as the engine writes it (None when what was typed cannot be read)."""
        field = self.fields[name]
        if not self.is_bound:
            return self.initial.get(name)
        try:
            value = field.clean(
                field.widget.value_from_datadict(self.data, self.files, self.add_prefix(name))
            )
        except forms.ValidationError:
            return UNREADABLE
        return value


UNREADABLE = object()  # what the director typed cannot be read: the field shows its error, not a highlight


# ---------------------------------------------------------------- the tournament's own settings


# The settings page's sections, in order: the form's fields are theirs.
TOURNAMENT_FIELDS = (
    "name",
    "venue",
    "start_date",
    "end_date",
    "format",
    "num_rounds",
    "knockout_size",
    "third_place_match",
    "match_time_limit",
)
POINTS_FIELDS = (
    "points_win",
    "points_draw",
    "points_loss",
    "bye_points",
    "avoid_same_club",
    "quick_entry_allowed",
)
PUBLIC_FIELDS = ("is_public", "public_pairings", "public_results", "public_deal_log", "public_standings")


class TournamentForm(forms.ModelForm, QuietForm):
    """Name, dates, venue, format, rounds, time limit, match points, public switches, tie-breaks in order."""

    tie_break_order = forms.MultipleChoiceField(
        choices=[(c, c) for c in TIEBREAKS], widget=forms.MultipleHiddenInput
    )
    tie_breaks = forms.MultipleChoiceField(
        choices=[(c, c) for c in TIEBREAKS], required=False, label=_("tie-breaks")
    )
    movement = forms.ChoiceField(
        required=False,
        choices=DuplicateEvent.Movement.choices,
        initial=DuplicateEvent.Movement.MITCHELL,
        label=_("movement"),
        help_text=_("duplicate only"),
    )
    boards_per_round = forms.TypedChoiceField(
        required=False,
        choices=[(n, n) for n in range(MIN_BOARDS_PER_ROUND, MAX_BOARDS_PER_ROUND + 1)],
        coerce=int,
        empty_value=None,
        initial=2,
        label=_("boards a round"),
        help_text=_("duplicate only: the boards each table plays in a round"),
    )

    class Meta:
        model = Tournament
        fields = TOURNAMENT_FIELDS + POINTS_FIELDS + PUBLIC_FIELDS
        widgets = {
            # A date picker reads and writes ISO dates only, whatever the language's date format.
            "start_date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "end_date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        used = list(self.instance.tie_breaks or [])
        self.initial.setdefault("tie_break_order", used + [c for c in TIEBREAKS if c not in used])
        self.initial.setdefault("tie_breaks", used)
        self.fields["num_rounds"].validators.append(MinValueValidator(1))
        self.fields["num_rounds"].widget.attrs["min"] = 1
        self.fields["num_rounds"].help_text = _(
            "a knockout's rounds follow from its pairs; with a knockout stage, the rounds before it"
        )
        event = DuplicateEvent.objects.filter(tournament_id=self.instance.pk).first()
        if event is not None:
            self.initial.setdefault("movement", event.movement)
            self.initial.setdefault("boards_per_round", event.boards_per_round)
        self.fields["knockout_size"].choices = [("", _("no knockout stage"))] + [
            (n, _("top %(n)s") % {"n": n}) for n in (4, 8, 16)
        ]

    def clean_tie_break_order(self) -> list[str]:
        order = self.cleaned_data["tie_break_order"]
        if sorted(order) != sorted(TIEBREAKS):
            raise forms.ValidationError(_("Show the form again and order the tie-breaks."))
        return order

    def clean(self):
        data = super().clean()
        start, end = data.get("start_date"), data.get("end_date")
        if start and end and end < start:
            self.add_error("end_date", _("The last day cannot be before the first."))
        order = data.get("tie_break_order") or list(TIEBREAKS)
        data["tie_breaks"] = [code for code in order if code in (data.get("tie_breaks") or [])]
        return data

    GROUPS = (
        (_("The tournament"), (*TOURNAMENT_FIELDS, "movement", "boards_per_round")),
        (_("Match points and pairing"), POINTS_FIELDS),
        (_("What the public sees"), PUBLIC_FIELDS),
    )

    def groups(self) -> list[tuple[Any, list[forms.BoundField]]]:
        """The fields in the page's sections."""
        return [(title, [self[name] for name in names]) for title, names in self.GROUPS]

    def tie_break_rows(self) -> list[dict[str, Any]]:
        """The tie-breaks in the form's order: code, name and whether it is used."""
        if self.is_bound:
            order = [c for c in self.data.getlist("tie_break_order") if c in TIEBREAKS]
            used = set(self.data.getlist("tie_breaks"))
        else:
            order, used = self.initial["tie_break_order"], set(self.initial["tie_breaks"])
        order += [c for c in TIEBREAKS if c not in order]
        return [{"code": c, "name": tie_break_name(c), "used": c in used} for c in order]

    def duplicate(self) -> tuple[str, int]:
        """The duplicate settings as typed (the service keeps them for a duplicate only)."""
        event = DuplicateEvent.objects.filter(tournament_id=self.instance.pk).first()
        movement = self.cleaned_data.get("movement") or (
            event.movement if event else DuplicateEvent.Movement.MITCHELL
        )
        boards = self.cleaned_data.get("boards_per_round") or (event.boards_per_round if event else 2)
        return movement, boards

    def save(self, commit: bool = True) -> Tournament:
        self.instance.tie_breaks = self.cleaned_data["tie_breaks"]
        return super().save(commit)


def moved(data, move: str):
    """The posted form with one tie-break moved up or down (``buchholz:up``), for the buttons without script."""
    code, _sep, way = move.partition(":")
    order = [c for c in data.getlist("tie_break_order") if c in TIEBREAKS]
    data = data.copy()
    if code in order and way in ("up", "down"):
        i = order.index(code)
        j = i - 1 if way == "up" else i + 1
        if 0 <= j < len(order):
            order[i], order[j] = order[j], order[i]
    data.setlist("tie_break_order", order)
    return data


class DeleteTournamentForm(forms.Form):
    """Deleting a tournament: the director types its name, so a slip of the finger deletes nothing."""

    confirm_name = forms.CharField(
        label=_("The tournament's name"),
        max_length=Tournament._meta.get_field("name").max_length,
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )

    def __init__(self, *args, tournament: Tournament, **kwargs):
        super().__init__(*args, **kwargs)
        self.tournament = tournament

    def clean_confirm_name(self) -> str:
        typed = self.cleaned_data["confirm_name"]
        if typed != self.tournament.name:
            raise forms.ValidationError(_("Type the tournament's name exactly as it is shown above."))
        return typed
