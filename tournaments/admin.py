"""Admin pages for the TD: search and filters on everything a scoring desk looks up.

A match's levels, banker, end and winner are computed from its confirmed deals (``referee.recording``), so here
they are read-only; deals, tricks, plays and penalties are only read (they change through the judges' pages and
the desk, which keep the match in step). The change history is for reading too: a revert would bring back an old
version whole.

What the admin reads from an address or a form is checked as the site's own pages check theirs, so no address or
field gives a 500: a history address naming no id is not found, an empty ``_to_field`` names no field (on every
admin page, auth's and axes' too), an autocomplete field's typed value is a form error, and so is JSON that
``json`` cannot read at all.
"""

from django import forms
from django.contrib import admin
from django.contrib.admin.utils import unquote
from django.contrib.admin.widgets import AutocompleteSelect
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import models
from django.forms.fields import InvalidJSONInput
from django.http import Http404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from simple_history.admin import SimpleHistoryAdmin

from tournaments.models import Bye, Deal, Match, Pair, Penalty, Play, Player, Round, Tournament, Trick
from tournaments.wording import preset_name, ruleset_presets

# What the recording service computes from the confirmed deals.
MATCH_COMPUTED = (
    "state",
    "level_ns",
    "level_ew",
    "banker",
    "started_at",
    "ended_at",
    "winner",
    "ended_by",
    "time_called_at",
    "forfeited_by",
    "version",
)


class ReadOnly:
    """Shown, never added, changed or deleted here (a POST is refused with 403)."""

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


def key_or_404(model, text: str):
    """``text`` from an address as the model's primary key, else not found (simple-history's pages look the
    address up as it is: a ValueError for anything but digits)."""
    try:
        return model._meta.pk.to_python(unquote(text))
    except ValidationError:
        raise Http404 from None


class HistoryForReading(SimpleHistoryAdmin):
    """The change history without its revert button (a revert saves an old version, verdict and levels included)."""

    def has_change_history_permission(self, request, obj=None) -> bool:
        return False

    def history_view(self, request, object_id, extra_context=None):
        key_or_404(self.model, object_id)
        return super().history_view(request, object_id, extra_context)

    def history_form_view(self, request, object_id, version_id, extra_context=None):
        if request.method == "POST":
            raise PermissionDenied
        key_or_404(self.model, object_id)
        key_or_404(self.model.history.model, version_id)
        return super().history_form_view(request, object_id, version_id, extra_context)


def can_be(field: models.Field, value) -> bool:
    """Whether ``value`` can be a value of ``field`` at all (``abc`` is no id)."""
    try:
        field.to_python(value)
    except ValidationError:
        return False
    return True


class ReadableAutocompleteSelect(AutocompleteSelect):
    """Django's autocomplete, which shows a form again by looking its posted choice up as it is: a ValueError for a
    typed value that is no id. Here such a value is left out; the field's own error says why."""

    def optgroups(self, name, value, attr=None):
        target = self.field.target_field
        return super().optgroups(name, [v for v in value if can_be(target, v)], attr)


class ReadableAutocomplete:
    """Autocomplete fields with ``ReadableAutocompleteSelect``."""

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name in self.get_autocomplete_fields(request):
            widget = ReadableAutocompleteSelect(db_field, self.admin_site, using=kwargs.get("using"))
            kwargs.setdefault("widget", widget)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


class ReadableJSONField(forms.JSONField):
    """Django's JSON field, refusing JSON that ``json`` cannot read at all (a number of 5,000 digits: a ValueError;
    nesting 100,000 deep: a RecursionError) as it refuses a typo, instead of failing with it."""

    def to_python(self, value):
        try:
            return super().to_python(value)
        except (ValueError, RecursionError):
            raise ValidationError(self.error_messages["invalid"], code="invalid", params={"value": value}) from None

    def bound_data(self, data, initial):
        try:
            return super().bound_data(data, initial)
        except (ValueError, RecursionError):
            return InvalidJSONInput(data)


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    formfield_overrides = {models.JSONField: {"form_class": ReadableJSONField}}
    list_display = ("name", "slug", "venue", "start_date", "format", "num_rounds", "preset", "is_public")
    list_filter = ("format", "is_public", "start_date")
    search_fields = ("name", "slug", "venue")
    prepopulated_fields = {"slug": ("name",)}
    date_hierarchy = "start_date"
    # Shown, never edited here: finishing and reopening are the desk's (tournaments.finishing), with history.
    readonly_fields = ("finished_at", "finished_by")

    @admin.display(description=gettext_lazy("ruleset"))
    def preset(self, obj: Tournament) -> str:
        return preset_name(obj.preset_name)

    def formfield_for_dbfield(self, db_field, request, **kwargs):
        """The ruleset's JSON field lists every preset by its code, name and one line (``wording.ruleset_presets``)."""
        field = super().formfield_for_dbfield(db_field, request, **kwargs)
        if db_field.name == "ruleset":
            presets = "; ".join(f"{code}: {name} — {line}" for code, name, line in ruleset_presets())
            field.help_text = f"{db_field.help_text}. {_('Presets')}: {presets}"
        return field


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("name", "club", "contact")
    list_filter = ("club",)
    search_fields = ("name", "club", "contact")


@admin.register(Pair)
class PairAdmin(ReadableAutocomplete, HistoryForReading):
    list_display = ("name", "tournament", "player1", "player2", "club", "seed", "withdrawn")
    list_filter = ("tournament", "withdrawn", "club")
    search_fields = ("name", "club", "player1__name", "player2__name")
    autocomplete_fields = ("player1", "player2")
    list_select_related = ("tournament", "player1", "player2")


class MatchInline(ReadableAutocomplete, admin.TabularInline):
    model = Match
    extra = 0
    fields = ("table", "pair_ns", "pair_ew", "judge", "state")
    readonly_fields = ("state",)
    autocomplete_fields = ("pair_ns", "pair_ew")
    show_change_link = True


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ("__str__", "tournament", "number", "state")
    list_filter = ("tournament", "state")
    search_fields = ("tournament__name",)
    inlines = [MatchInline]


@admin.register(Match)
class MatchAdmin(ReadableAutocomplete, HistoryForReading):
    list_display = (
        "__str__",
        "round",
        "table",
        "pair_ns",
        "pair_ew",
        "judge",
        "state",
        "level_ns",
        "level_ew",
    )
    list_filter = ("round__tournament", "round__number", "state", "ended_by", "judge")
    search_fields = ("pair_ns__name", "pair_ew__name", "round__tournament__name", "judge__username")
    autocomplete_fields = ("pair_ns", "pair_ew", "judge")
    readonly_fields = MATCH_COMPUTED
    list_select_related = ("round__tournament", "pair_ns", "pair_ew", "judge")


@admin.register(Bye)
class ByeAdmin(admin.ModelAdmin):
    list_display = ("round", "pair", "points")
    list_filter = ("round__tournament",)
    search_fields = ("pair__name",)


class PenaltyInline(ReadOnly, admin.TabularInline):
    model = Penalty
    extra = 0
    fields = ("seat", "code", "trick", "note", "recorded_by")


@admin.register(Deal)
class DealAdmin(ReadOnly, HistoryForReading):
    list_display = (
        "__str__",
        "match",
        "banker",
        "level",
        "trump",
        "mode",
        "state",
        "submitted_by",
        "confirmed_by",
    )
    list_filter = ("match__round__tournament", "state", "mode", "trump")
    search_fields = ("match__pair_ns__name", "match__pair_ew__name")
    list_select_related = ("match__round", "match__pair_ns", "match__pair_ew", "submitted_by", "confirmed_by")
    raw_id_fields = ("match",)
    inlines = [PenaltyInline]


class PlayInline(ReadOnly, admin.TabularInline):
    model = Play
    extra = 0
    fields = ("order", "seat", "cards", "recorded_by")


@admin.register(Trick)
class TrickAdmin(ReadOnly, HistoryForReading):
    list_display = ("__str__", "deal", "throw_challenger")
    list_filter = ("deal__match__round__tournament",)
    raw_id_fields = ("deal",)
    inlines = [PlayInline]


@admin.register(Penalty)
class PenaltyAdmin(ReadOnly, HistoryForReading):
    list_display = ("deal", "seat", "code", "trick", "note", "recorded_by", "recorded_at")
    list_filter = ("code", "deal__match__round__tournament")
    search_fields = ("note",)
    raw_id_fields = ("deal",)


# ------------------------------------------------------------------ every admin page, this app's and the others'


class NoEmptyToField:
    """An empty ``_to_field`` in the address names no field: the object is found by its id, as without it (Django
    looks up a field named '': a FieldDoesNotExist, a 500)."""

    def get_object(self, request, object_id, from_field=None):
        return super().get_object(request, object_id, from_field or None)


def check_every_admin(site: admin.AdminSite) -> None:
    """Every model's admin page with ``NoEmptyToField``: this app's, and auth's and axes' (their admin modules are
    imported before this one, as their apps come first in ``INSTALLED_APPS``)."""
    from django.apps import apps

    for model in apps.get_models():
        if site.is_registered(model) and not isinstance(site.get_model_admin(model), NoEmptyToField):
            current = type(site.get_model_admin(model))
            site.unregister(model)
            site.register(model, type(current.__name__, (NoEmptyToField, current), {}))


check_every_admin(admin.site)
