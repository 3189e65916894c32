"""Admin pages for the TD: search and filters on everything a scoring desk looks up."""

from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from tournaments.models import Bye, Deal, Match, Pair, Penalty, Play, Player, Round, Tournament, Trick


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "venue", "start_date", "format", "num_rounds", "is_public")
    list_filter = ("format", "is_public", "start_date")
    search_fields = ("name", "slug", "venue")
    prepopulated_fields = {"slug": ("name",)}
    date_hierarchy = "start_date"


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("name", "club", "contact")
    list_filter = ("club",)
    search_fields = ("name", "club", "contact")


@admin.register(Pair)
class PairAdmin(admin.ModelAdmin):
    list_display = ("name", "tournament", "player1", "player2", "club", "seed", "withdrawn")
    list_filter = ("tournament", "withdrawn", "club")
    search_fields = ("name", "club", "player1__name", "player2__name")
    autocomplete_fields = ("player1", "player2")
    list_select_related = ("tournament", "player1", "player2")


class MatchInline(admin.TabularInline):
    model = Match
    extra = 0
    fields = ("table", "pair_ns", "pair_ew", "judge", "state")
    autocomplete_fields = ("pair_ns", "pair_ew")
    show_change_link = True


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ("__str__", "tournament", "number", "state")
    list_filter = ("tournament", "state")
    search_fields = ("tournament__name",)
    inlines = [MatchInline]


@admin.register(Match)
class MatchAdmin(SimpleHistoryAdmin):
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
    autocomplete_fields = ("pair_ns", "pair_ew", "judge", "winner")
    list_select_related = ("round__tournament", "pair_ns", "pair_ew", "judge")


@admin.register(Bye)
class ByeAdmin(admin.ModelAdmin):
    list_display = ("round", "pair", "points")
    list_filter = ("round__tournament",)
    search_fields = ("pair__name",)


class PenaltyInline(admin.TabularInline):
    model = Penalty
    extra = 0
    fields = ("seat", "code", "trick", "note", "recorded_by")


@admin.register(Deal)
class DealAdmin(SimpleHistoryAdmin):
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


class PlayInline(admin.TabularInline):
    model = Play
    extra = 0
    fields = ("order", "seat", "cards", "recorded_by")


@admin.register(Trick)
class TrickAdmin(SimpleHistoryAdmin):
    list_display = ("__str__", "deal", "throw_challenger")
    list_filter = ("deal__match__round__tournament",)
    raw_id_fields = ("deal",)
    inlines = [PlayInline]


@admin.register(Penalty)
class PenaltyAdmin(SimpleHistoryAdmin):
    list_display = ("deal", "seat", "code", "trick", "note", "recorded_by", "recorded_at")
    list_filter = ("code", "deal__match__round__tournament")
    search_fields = ("note",)
    raw_id_fields = ("deal",)
