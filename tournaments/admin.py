"""Admin pages for the TD: search and filters on everything a scoring desk looks up.

A match's levels, banker, end and winner are computed from its confirmed deals (``referee.table.recording``), so here
they are read-only; deals, tricks, plays and penalties are only read (they change through the judges' pages and
the desk, which keep the match in step). The change history is for reading too: a revert would bring back an old
version whole.

The admin is for looking things up and mending them, not a way round the desk's rules (``KeptByTheDesk``): a
tournament's ruleset and scoring settings change on the desk's settings page, which re-scores the recorded deals;
a finished tournament's pairs, rounds, matches and byes are only read; a tournament, pair or round is deleted only
when the desk would delete it, and through the desk's own service.

What the admin reads from an address or a form is checked as the site's own pages check theirs, so no address or
field gives a 500: a history address naming no id is not found, an empty ``_to_field`` names no field and a list
filter the database cannot read is dropped (on every admin page, auth's and axes' too), an autocomplete field's
typed value is a form error, and so is JSON that ``json`` cannot read at all.
"""

from collections import Counter

from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.core.exceptions import (
    ValidationError,
)
from django.db import models
from django.db.models import Count, Max
from django.forms.formsets import DELETION_FIELD_NAME
from django.forms.models import BaseInlineFormSet
from django.http import HttpResponseRedirect
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments.admin_reading import (
    AdminMixin,
    HistoryForReading,
    ReadableAutocomplete,
    ReadableJSONField,
    ReadOnly,
    check_every_admin,
)
from tournaments.competition.display import preset_name, ruleset_presets
from tournaments.competition.finishing import FinishError, refusal
from tournaments.models import (
    Bye,
    Deal,
    Match,
    Pair,
    Penalty,
    Play,
    Player,
    Round,
    Seating,
    Tournament,
    Trick,
)
from tournaments.pairing import services as pairing
from tournaments.people.errors import PeopleError
from tournaments.people.pairs import delete_pair, why_not_delete_pair
from tournaments.setup import services as setup

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
    # A level knockout match is decided at the desk (``pairing.ties.decide_tie``), with its checks.
    "tie_winner",
    "tie_reason",
    "tie_decided_by",
    "tie_decided_at",
)


class KeptByTheDesk(AdminMixin):
    """What the desk would refuse is refused here too: a change or a delete of an object (403, the delete link
    hidden); an address to delete it goes back to its page, which says why in one sentence; a form that would put
    it in a finished tournament is a form error. No bulk delete: it would ask no one. ``tournament_path`` leads
    from the object (its first step a form field) to its tournament; ``delete_through`` is the desk's service."""

    tournament_path: tuple[str, ...] = ("tournament",)

    def tournament_of(self, obj) -> Tournament:
        for name in self.tournament_path:
            obj = getattr(obj, name)
        return obj

    def why_not_change(self, obj) -> str | None:
        return refusal() if self.tournament_of(obj).is_finished else None

    def why_not_delete(self, obj) -> str | None:
        return self.why_not_change(obj)

    def delete_through(self, request, obj) -> None:
        obj.delete()

    def has_change_permission(self, request, obj=None) -> bool:
        return super().has_change_permission(request, obj) and (
            obj is None or self.why_not_change(obj) is None
        )

    def has_delete_permission(self, request, obj=None) -> bool:
        return super().has_delete_permission(request, obj) and (
            obj is None or self.why_not_delete(obj) is None
        )

    def get_actions(self, request):
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)
        return actions

    def page_notes(self, obj) -> list[tuple[int, str]]:
        """What the object's page says above the form (a message level and a sentence each)."""
        why = self.why_not_change(obj)
        return [(messages.WARNING, why)] if why else []

    def change_view(self, request, object_id, form_url="", extra_context=None):
        obj = self.get_object(request, unquote(object_id))
        if request.method == "GET" and obj is not None:
            for level, note in self.page_notes(obj):
                messages.add_message(request, level, note)
        return super().change_view(request, object_id, form_url, extra_context)

    def delete_view(self, request, object_id, extra_context=None):
        obj = self.get_object(request, unquote(object_id))
        why = self.why_not_delete(obj) if obj is not None and self.has_view_permission(request, obj) else None
        if why is None:
            try:
                return super().delete_view(request, object_id, extra_context)
            except (
                FinishError,
                pairing.PairingError,
                PeopleError,
                setup.SettingsError,
            ) as refused:  # changed meanwhile
                why = str(refused)
        if why != self.why_not_change(obj):  # else the page says it already
            messages.error(request, why)
        return HttpResponseRedirect(request.path.rsplit("/delete/", 1)[0] + "/change/")

    def delete_model(self, request, obj) -> None:
        self.delete_through(request, obj)

    def get_form(self, request, obj=None, change=False, **kwargs):
        form = super().get_form(request, obj, change, **kwargs)
        first, *rest = self.tournament_path or ("",)

        class InOpenTournament(form):
            def clean(self):
                data = super().clean()
                tournament = data.get(first) if first else None
                for name in rest:
                    tournament = getattr(tournament, name, None)
                if tournament is not None and tournament.is_finished:
                    raise ValidationError(refusal())
                return data

        return InOpenTournament


def draft_only(rnd: Round) -> str | None:
    """Why a round, or a table or bye of it, is not deleted here; None for a draft of an open tournament. A
    published round's pairing is public and may have been played: the desk takes it back to draft, or says why
    it cannot (``pairing.why_not_unpublish``)."""
    if rnd.tournament.is_finished:
        return refusal()
    if rnd.state == Round.State.DRAFT:
        return None
    return pairing.why_not_unpublish(rnd) or _(
        "Round %(n)s is published: only a draft is deleted; take it back to draft on the desk first."
    ) % {"n": rnd.number}


def settings_on_the_desk() -> str:
    """Said on a saved tournament's admin page, whose ruleset and scoring settings are shown only."""
    return _(
        'The ruleset and scoring settings change on the desk\'s <a href="{url}">settings page</a>, which '
        "scores the recorded deals again."
    )


@admin.register(Tournament)
class TournamentAdmin(KeptByTheDesk, admin.ModelAdmin):
    formfield_overrides = {models.JSONField: {"form_class": ReadableJSONField}}
    list_display = ("name", "slug", "venue", "start_date", "format", "num_rounds", "preset", "is_public")
    list_filter = ("format", "is_public", "start_date")
    search_fields = ("name", "slug", "venue")
    prepopulated_fields = {"slug": ("name",)}
    date_hierarchy = "start_date"
    # Shown, never edited here: finishing and reopening are the desk's (tournaments.competition.finishing), with history.
    readonly_fields = ("finished_at", "finished_by")
    tournament_path = ()

    def get_readonly_fields(self, request, obj=None):
        """A saved tournament's ruleset and scoring settings change on the desk's settings page, which re-scores
        the recorded deals and keeps a finished tournament's (``setup.save_settings``)."""
        kept = ("ruleset", *setup.SCORING_SETTINGS) if obj is not None else ()
        return (*self.readonly_fields, *kept)

    def why_not_change(self, obj) -> str | None:
        return None  # its name, dates and public switches may change even when finished, as on the desk

    def page_notes(self, obj) -> list[tuple[int, str]]:
        settings_page = reverse("desk-settings", args=[obj.slug])
        return [(messages.INFO, format_html(settings_on_the_desk(), url=settings_page))]

    def why_not_delete(self, obj) -> str | None:
        return setup.why_not_delete_tournament(obj)

    def delete_through(self, request, obj) -> None:
        setup.delete_tournament(obj, request.user)

    @admin.display(description=gettext_lazy("ruleset"))
    def preset(self, obj: Tournament) -> str:
        return preset_name(obj.preset_name)

    def formfield_for_dbfield(self, db_field, request, **kwargs):
        """The ruleset's JSON field lists every preset by its code, name and one line (``display.ruleset_presets``)."""
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
class PairAdmin(KeptByTheDesk, ReadableAutocomplete, HistoryForReading):
    list_display = ("name", "tournament", "player1", "player2", "club", "seed", "withdrawn")
    list_filter = ("tournament", "withdrawn", "club")
    search_fields = ("name", "club", "player1__name", "player2__name")
    autocomplete_fields = ("player1", "player2")
    list_select_related = ("tournament", "player1", "player2")

    def why_not_delete(self, obj) -> str | None:
        return why_not_delete_pair(obj)

    def delete_through(self, request, obj) -> None:
        delete_pair(obj, by=request.user)


# The largest table number the database takes (a positive small integer).
TABLE_LIMIT = 32767


def most_tables(rnd: Round | None) -> int:
    """The most tables a round's form takes: one for each two pairs of its tournament, or as many as it has (a
    new round's: the largest tournament's). Each posted table is a form to build and show again, and the management
    form's count is the visitor's to write: ``TOTAL_FORMS=9223372036854775808`` built 2,000 forms (a second)."""
    pairs = Pair.objects.all() if rnd is None else Pair.objects.filter(tournament_id=rnd.tournament_id)
    most = pairs.values("tournament").annotate(n=Count("pk")).aggregate(most=Max("n"))["most"] or 0
    return max((most + 1) // 2, rnd.matches.count() if rnd is not None else 0, 1)


class RoundTables(BaseInlineFormSet):
    """A round's table forms, checked against the round's tables the posted form leaves out (its count is the
    visitor's to write) as well as each other: Django checks one-table-a-number only among the forms posted (the
    round's key is the formset's own) and a pair at one table a round never (the seatings' constraint), so a table
    moved onto another's number, or a pair put at a second table, reached the database's constraint (a 500)."""

    def clean(self) -> None:
        super().clean()
        posted = [form.instance.pk for form in self.initial_forms if form.instance.pk is not None]
        round_tables = Match.objects.filter(round=self.instance) if self.instance.pk else Match.objects.none()
        left_out = round_tables.exclude(pk__in=posted)  # a new round's form (the add page) leaves none out
        tables = set(left_out.values_list("table", flat=True))
        kept = [
            (form, form.cleaned_data)
            for form in self.forms
            if getattr(form, "cleaned_data", None) and not form.cleaned_data.get(DELETION_FIELD_NAME)
        ]
        seated = Counter(pk for match in left_out.values("pair_ns", "pair_ew") for pk in match.values())
        for _form, cleaned in kept:
            seated.update({pair.pk for pair in (cleaned.get("pair_ns"), cleaned.get("pair_ew")) if pair})
        for form, cleaned in kept:
            if cleaned.get("table") in tables:
                form.add_error("table", form.instance.unique_error_message(Match, ("round", "table")))
            twice = [
                p.name for p in (cleaned.get("pair_ns"), cleaned.get("pair_ew")) if p and seated[p.pk] > 1
            ]
            if twice:
                form.add_error(None, _("A pair is placed twice: %(names)s") % {"names": ", ".join(twice)})


class MatchInline(ReadableAutocomplete, admin.TabularInline):
    """The tables of a round, changed here only while the round's tournament is open (``obj`` is the round)."""

    model = Match
    formset = RoundTables
    extra = 0
    fields = ("table", "pair_ns", "pair_ew", "judge", "state")
    readonly_fields = ("state",)
    autocomplete_fields = ("pair_ns", "pair_ew", "judge")  # a select of every account on every table's row
    show_change_link = True

    def get_formset(self, request, obj=None, **kwargs):
        """As many table forms as the round can have, however many the posted form claims (as on the desk)."""
        most = most_tables(obj)
        return super().get_formset(request, obj, **{"max_num": most, "absolute_max": most, **kwargs})

    def has_add_permission(self, request, obj=None) -> bool:
        return super().has_add_permission(request, obj) and not (obj and obj.tournament.is_finished)

    def has_change_permission(self, request, obj=None) -> bool:
        return super().has_change_permission(request, obj) and not (obj and obj.tournament.is_finished)

    def has_delete_permission(self, request, obj=None) -> bool:
        return super().has_delete_permission(request, obj) and not (obj and draft_only(obj))


@admin.register(Round)
class RoundAdmin(KeptByTheDesk, ReadableAutocomplete, admin.ModelAdmin):
    list_display = ("__str__", "tournament", "number", "state")
    list_filter = ("tournament", "state")
    search_fields = ("tournament__name",)
    autocomplete_fields = ("tournament",)
    inlines = [MatchInline]

    def why_not_delete(self, obj) -> str | None:
        return draft_only(obj)

    def delete_through(self, request, obj) -> None:
        pairing.delete_draft_round(obj)

    def save_formset(self, request, form, formset, change) -> None:
        if formset.model is Match:
            clear_tables_taken(formset)
            clear_seatings_moved(formset)
        super().save_formset(request, form, formset, change)


def clear_seatings_moved(formset) -> None:
    """The seatings of the tables whose pairs the round's form changes or that it deletes go first (each table's
    save seats its pairs again): two tables swapping a pair met the one-table-a-round constraint halfway (a 500)."""
    moving = [
        f.instance.pk
        for f in formset.initial_forms
        if f in formset.deleted_forms or {"pair_ns", "pair_ew"} & set(f.changed_data)
    ]
    Seating.objects.filter(match_id__in=moving).delete()


def clear_tables_taken(formset) -> None:
    """Tables the round's form renumbers or deletes first move to a spare number: the formset saves one table
    at a time, so two tables swapping numbers (1 ↔ 2) met the one-table-a-number constraint halfway (a 500)."""
    moving = [
        f.instance.pk
        for f in formset.initial_forms
        if f in formset.deleted_forms or "table" in f.changed_data
    ]
    if not moving:
        return
    taken = set(Match.objects.filter(round=formset.instance).values_list("table", flat=True))
    spare = (n for n in range(TABLE_LIMIT, 0, -1) if n not in taken)
    for pk in moving:
        Match.objects.filter(pk=pk).update(table=next(spare))


@admin.register(Match)
class MatchAdmin(KeptByTheDesk, ReadableAutocomplete, HistoryForReading):
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
    tournament_path = ("round", "tournament")

    def why_not_delete(self, obj) -> str | None:
        return draft_only(obj.round)


@admin.register(Bye)
class ByeAdmin(KeptByTheDesk, admin.ModelAdmin):
    list_display = ("round", "pair", "points")
    list_filter = ("round__tournament",)
    search_fields = ("pair__name",)
    tournament_path = ("round", "tournament")

    def why_not_delete(self, obj) -> str | None:
        return draft_only(obj.round)


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


check_every_admin(admin.site)
