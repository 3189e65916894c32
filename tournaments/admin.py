"""Admin pages for the TD: search and filters on everything a scoring desk looks up.

A match's levels, banker, end and winner are computed from its confirmed deals (``referee.recording``), so here
they are read-only; deals, tricks, plays and penalties are only read (they change through the judges' pages and
the desk, which keep the match in step). The change history is for reading too: a revert would bring back an old
version whole.
"""

from django.contrib import admin
from django.core.exceptions import PermissionDenied
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


class HistoryForReading(SimpleHistoryAdmin):
    """The change history without its revert button (a revert saves an old version, verdict and levels included)."""

    def has_change_history_permission(self, request, obj=None) -> bool:
        return False

    def history_form_view(self, request, object_id, version_id, extra_context=None):
        if request.method == "POST":
            raise PermissionDenied
        return super().history_form_view(request, object_id, version_id, extra_context)


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "venue", "start_date", "format", "num_rounds", "preset", "is_public")
    list_filter = ("format", "is_public", "start_date")
    search_fields = ("name", "slug", "venue")
    prepopulated_fields = {"slug": ("name",)}
    date_hierarchy = "start_date"

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
class PairAdmin(HistoryForReading):
    list_display = ("name", "tournament", "player1", "player2", "club", "seed", "withdrawn")
    list_filter = ("tournament", "withdrawn", "club")
    search_fields = ("name", "club", "player1__name", "player2__name")
    autocomplete_fields = ("player1", "player2")
    list_select_related = ("tournament", "player1", "player2")


class MatchInline(admin.TabularInline):
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
class MatchAdmin(HistoryForReading):
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
