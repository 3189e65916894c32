"""The competition's data: tournaments and their ruleset, players, pairs, rounds, matches, byes and seatings."""

from __future__ import annotations

from collections.abc import Iterable
from functools import cached_property
from typing import Self

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.db.models import F, Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from rules.knockout import rounds_of
from rules.ranks import RANK_TEXT, RANKS
from rules.ruleset import Ruleset, RulesetError
from rules.standings import TIEBREAKS
from tournaments.competition.display import TIE_BREAK_NAMES
from tournaments.competition.refusals import ruleset_refusal
from tournaments.competition.save_notes import SaveNotes
from tournaments.competition.stamps import by_user, owned_by

SIDE_CHOICES = [("NS", _("North–South")), ("EW", _("East–West"))]
SEAT_CHOICES = [("N", _("North")), ("W", _("West")), ("S", _("South")), ("E", _("East"))]
RANK_CHOICES = [(r, RANK_TEXT[r]) for r in RANKS]
TIE_BREAK_LABELS = TIE_BREAK_NAMES  # rules.standings.TIEBREAKS, worded in tournaments.competition.display
TIE_BREAKS = [(code, TIE_BREAK_LABELS.get(code, code)) for code in TIEBREAKS]
DEFAULT_TIE_BREAKS = list(TIEBREAKS)


def playable_ruleset(spec) -> None:
    """The field's own check, so a form without the ruleset (the settings page's) never judges it: the ruleset
    form reports its settings one by one, and the admin's JSON is refused in the director's language."""
    try:
        Ruleset.from_spec(spec)
    except RulesetError as exc:
        raise ValidationError(ruleset_refusal(exc)) from exc


def default_ruleset() -> dict:
    return {"preset": "standard"}


def default_tie_breaks() -> list[str]:
    return list(DEFAULT_TIE_BREAKS)


class OfTournament(models.QuerySet):
    """Rows of one tournament, reached through ``tournament_path`` (the filter every page and service repeats)."""

    tournament_path = "round__tournament"

    def of(self, tournament: Tournament) -> Self:
        return self.filter(**{self.tournament_path: tournament})


class Tournament(SaveNotes, models.Model):
    class Format(models.TextChoices):
        ROUND_ROBIN = "round_robin", _("round robin")
        SWISS = "swiss", _("Swiss")
        KNOCKOUT = "knockout", _("knockout")
        MANUAL = "manual", _("manual")
        DUPLICATE = "duplicate", _("duplicate pairs")
        DUPLICATE_TEAMS = "duplicate-teams", _("duplicate teams")

    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(_("slug"), max_length=80, unique=True, allow_unicode=False)
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    start_date = models.DateField(_("start date"), null=True, blank=True)
    end_date = models.DateField(_("end date"), null=True, blank=True)
    ruleset = models.JSONField(
        _("ruleset"),
        default=default_ruleset,
        help_text=_("a preset name plus the settings that differ from it"),
        validators=[playable_ruleset],
    )
    format = models.CharField(_("format"), max_length=20, choices=Format.choices, default=Format.SWISS)
    num_rounds = models.PositiveSmallIntegerField(_("rounds"), default=5)
    match_time_limit = models.PositiveSmallIntegerField(
        _("match time limit (minutes)"),
        null=True,
        blank=True,
        help_text=_("leave empty to use the ruleset's"),
    )
    points_win = models.PositiveSmallIntegerField(_("points for a win"), default=2)
    points_draw = models.PositiveSmallIntegerField(_("points for a draw"), default=1)
    points_loss = models.PositiveSmallIntegerField(_("points for a loss"), default=0)
    tie_breaks = models.JSONField(_("tie-breaks"), default=default_tie_breaks, blank=True)
    is_public = models.BooleanField(_("public"), default=True)
    # What the public pages show (the TD switches each on or off).
    public_standings = models.BooleanField(_("public standings"), default=True)
    public_pairings = models.BooleanField(_("public pairings"), default=True)
    public_results = models.BooleanField(_("public results"), default=True)
    public_deal_log = models.BooleanField(_("public deal log"), default=True)
    # Pairing (Swiss): avoid pairs of one club meeting; what a bye is worth.
    avoid_same_club = models.BooleanField(_("avoid same-club pairings"), default=False)
    bye_points = models.PositiveSmallIntegerField(_("points for a bye"), default=2)
    # Tables that do not record tricks may enter a deal's totals only.
    quick_entry_allowed = models.BooleanField(_("quick entry allowed"), default=False)
    # A knockout stage after a Swiss or round-robin stage of ``num_rounds`` rounds: its top ``knockout_size``
    # pairs by the standings then (None: no knockout stage). A third-place match in the final round (knockout
    # format or stage). The bracket itself is the first bracket round's ``Round.bracket``.
    knockout_size = models.PositiveSmallIntegerField(
        _("knockout of the top"),
        null=True,
        blank=True,
        choices=[(4, 4), (8, 8), (16, 16)],
        help_text=_("a Swiss or round robin only: the top pairs play a knockout after its rounds"),
    )
    third_place_match = models.BooleanField(
        _("third-place match"),
        default=False,
        help_text=_("a knockout's semi-final losers play for third place"),
    )
    # What the projector screen shows under its panels (``tournaments.public.screen``), typed at the desk.
    screen_message = models.CharField(_("message on the screen"), max_length=300, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    # Set when the director finishes the tournament (its results are final), cleared when they reopen it; the
    # history keeps every finish and reopening with who and when (``tournaments.competition.finishing``).
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True, editable=False)
    finished_by = by_user(_("finished by"), editable=False)
    organisation = owned_by("tournaments")  # who runs it (access.directs), with its chief director
    chief_director = by_user(_("chief director"))

    # Who changed the settings and when (a ruleset change re-scores every deal: the director answers for it), and
    # who finished or reopened the tournament.
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["-start_date", "name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(end_date__isnull=True)
                | Q(start_date__isnull=True)
                | Q(end_date__gte=F("start_date")),
                name="tournament_dates_ordered",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournament", args=[self.slug])

    def clean(self) -> None:
        if not isinstance(self.tie_breaks or [], list):  # JSON typed in the admin may be any value
            raise ValidationError({"tie_breaks": _("List the tie-breaks by their codes, in order.")})
        unknown = [
            str(code) for code in self.tie_breaks or [] if not isinstance(code, str) or code not in TIEBREAKS
        ]
        if unknown:
            raise ValidationError(
                {"tie_breaks": _("Unknown tie-breaks: %(codes)s") % {"codes": ", ".join(unknown)}}
            )
        self.clean_knockout()

    def clean_knockout(self) -> None:
        """A knockout stage follows a Swiss or a round robin; a third-place match needs a bracket; the bracket's
        first round cannot move once a round at or after it is paired."""
        staged = self.format in (Tournament.Format.SWISS, Tournament.Format.ROUND_ROBIN)
        if self.knockout_size and not staged:
            raise ValidationError(
                {"knockout_size": _("A knockout stage follows a Swiss or a round robin only.")}
            )
        if self.third_place_match and self.bracket_start is None:
            raise ValidationError({"third_place_match": _("A third-place match needs a knockout.")})
        stored = Tournament.objects.filter(pk=self.pk).first() if self.pk else None
        if stored is None or stored.bracket_start == self.bracket_start:
            return
        starts = [s for s in (stored.bracket_start, self.bracket_start) if s is not None]
        if stored.rounds.filter(number__gte=min(starts)).exists():
            raise ValidationError(
                {"format": _("The knockout's settings cannot change once a round of the knockout is paired.")}
            )

    @cached_property
    def has_kitty(self) -> bool:
        """Whether this game buries a kitty (not with four decks): the pages show a kitty bonus only then."""
        try:
            return Ruleset.from_spec(self.ruleset).kitty_size > 0
        except RulesetError:  # a spec the director must still fix: show the column, as the presets do
            return True

    @property
    def is_finished(self) -> bool:
        """The director finished the tournament: nothing changes its results until they reopen it."""
        return self.finished_at is not None

    @property
    def bracket_start(self) -> int | None:
        """The number of the knockout's first round: 1 for a knockout, the round after the first stage for a
        Swiss or round robin with a knockout stage; None without a bracket."""
        if self.format == Tournament.Format.KNOCKOUT:
            return 1
        staged = self.format in (Tournament.Format.SWISS, Tournament.Format.ROUND_ROBIN)
        return self.num_rounds + 1 if staged and self.knockout_size else None

    @property
    def rounds_planned(self) -> int:
        """How many rounds the tournament has: ``num_rounds``, or with a bracket the rounds before it plus the
        bracket's (log2 of its field: the stored first bracket round's, else the pairs that would enter it)."""
        start = self.bracket_start
        if start is None:
            return self.num_rounds
        lines = self.rounds.filter(number=start).values_list("bracket", flat=True).first()
        if lines:
            field = sum(1 for p in lines if p is not None)
        else:
            field = self.pairs.filter(withdrawn=False).count()
            if self.format != Tournament.Format.KNOCKOUT:  # the planned size until the pairs are entered
                size = self.knockout_size or 0  # set: ``bracket_start`` is None without it
                field = min(field, size) if field >= 2 else size
        return start - 1 + (rounds_of(field) if field >= 2 else 1)

    @property
    def preset_name(self) -> str:
        spec = self.ruleset
        return spec if isinstance(spec, str) else spec.get("preset", "standard")


class Player(models.Model):
    name = models.CharField(_("name"), max_length=100)
    club = models.CharField(_("club"), max_length=100, blank=True)
    contact = models.CharField(_("contact"), max_length=200, blank=True)
    notes = models.TextField(_("notes"), blank=True)

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Pair(SaveNotes, models.Model):
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="pairs", verbose_name=_("tournament")
    )
    name = models.CharField(_("pair name"), max_length=100)
    player1 = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("player 1")
    )
    player2 = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("player 2")
    )
    club = models.CharField(_("club"), max_length=100, blank=True)
    seed = models.PositiveSmallIntegerField(_("seed"), null=True, blank=True)
    withdrawn = models.BooleanField(_("withdrawn"), default=False)
    captain = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="captained_pairs",
        verbose_name=_("captain's account"),
        help_text=_("may confirm deals of this pair's matches"),
    )

    # Who withdrew or reinstated the pair, or changed its entry, and when.
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("pair")
        verbose_name_plural = _("pairs")
        ordering = ["tournament", "seed", "name"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "name"], name="pair_name_unique_in_tournament"),
            models.CheckConstraint(condition=~Q(player1=F("player2")), name="pair_two_different_players"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def players(self) -> str:
        return f"{self.player1.name} / {self.player2.name}"


def by_seed(pairs: Iterable[Pair]) -> list[Pair]:
    """Seed order: by seed (unseeded last), then name."""
    return sorted(pairs, key=lambda p: (p.seed is None, p.seed or 0, p.name, p.pk))


class Round(SaveNotes, models.Model):
    class State(models.TextChoices):
        DRAFT = "draft", _("draft")
        PUBLISHED = "published", _("published")
        FINISHED = "finished", _("finished")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="rounds", verbose_name=_("tournament")
    )
    number = models.PositiveSmallIntegerField(_("round"))
    state = models.CharField(_("state"), max_length=12, choices=State.choices, default=State.DRAFT)
    # A knockout's first round: the pair id at each bracket position, None for a missing seed (rules.knockout).
    bracket = models.JSONField(_("bracket"), null=True, blank=True, editable=False)
    # Who paired and published the round, and when: the director, or (a later bracket round that advanced by
    # itself, ``pairing.advance``) the user whose action finished the round before it, or nobody (the system).
    history = HistoricalRecords()
    gave_way_notes: list[str]  # not stored: what a new draft's draw had to give way on (``pairing.services``)

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
        ]

    def __str__(self) -> str:
        return _("Round %(n)s") % {"n": self.number}

    def refresh_state(self) -> None:
        """A published round is finished when every match in it is; reopening a match reopens the round."""
        if self.state == Round.State.DRAFT:
            return
        done = not self.matches.exclude(state=Match.State.FINISHED).exists()
        state = Round.State.FINISHED if done else Round.State.PUBLISHED
        if state != self.state:
            self.state = state
            self.save(update_fields=["state"])


class Match(SaveNotes, models.Model):
    class State(models.TextChoices):
        SCHEDULED = "scheduled", _("not started")
        IN_PROGRESS = "in_progress", _("in progress")
        FINISHED = "finished", _("finished")

    class EndedBy(models.TextChoices):
        TARGET = "target", _("target reached")
        STRIKES = "strikes", _("strikes")
        FORFEIT = "forfeit", _("forfeit")
        TIME = "time", _("time limit")
        MERCY = "mercy", _("mercy rule")
        BYE = "bye", _("bye")
        ADJUSTED = "adjusted", _("adjusted by the director")
        BOARDS = "boards", _("every board played")

    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="matches", verbose_name=_("round")
    )
    table = models.PositiveSmallIntegerField(_("table"))
    pair_ns = models.ForeignKey(
        Pair, on_delete=models.PROTECT, related_name="matches_ns", verbose_name=_("North–South")
    )
    pair_ew = models.ForeignKey(
        Pair, on_delete=models.PROTECT, related_name="matches_ew", verbose_name=_("East–West")
    )
    judge = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="judged_matches",
        verbose_name=_("judge"),
    )
    state = models.CharField(_("state"), max_length=12, choices=State.choices, default=State.SCHEDULED)
    level_ns = models.CharField(_("N–S level"), max_length=1, choices=RANK_CHOICES, default="2")
    level_ew = models.CharField(_("E–W level"), max_length=1, choices=RANK_CHOICES, default="2")
    banker = models.CharField(_("banker"), max_length=1, choices=SEAT_CHOICES, blank=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    ended_at = models.DateTimeField(_("ended at"), null=True, blank=True)
    winner = models.ForeignKey(
        Pair,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="matches_won",
        verbose_name=_("winner"),
    )
    ended_by = models.CharField(_("ended by"), max_length=12, choices=EndedBy.choices, blank=True)
    time_called_at = models.DateTimeField(
        _("time called at"), null=True, blank=True, help_text=_("set when time is called after the limit")
    )
    forfeited_by = models.CharField(
        _("forfeited by"),
        max_length=2,
        choices=SIDE_CHOICES,
        blank=True,
        help_text=_("a no-show, set by the TD"),
    )
    version = models.PositiveIntegerField(_("version"), default=0)
    # A knockout match that ended level: who goes through, decided by the director with a reason
    # (``tournaments.pairing.ties.decide_tie``); the history keeps every decision.
    tie_winner = models.ForeignKey(
        Pair,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("goes through"),
    )
    tie_reason = models.CharField(_("reason"), max_length=200, blank=True)
    tie_decided_by = by_user(_("decided by"))
    tie_decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)

    objects = OfTournament.as_manager()
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        ordering = ["round", "table"]
        constraints = [
            models.UniqueConstraint(fields=["round", "table"], name="match_table_unique_in_round"),
            models.CheckConstraint(condition=~Q(pair_ns=F("pair_ew")), name="match_two_different_pairs"),
            models.CheckConstraint(condition=Q(table__gte=1), name="match_table_positive"),
        ]

    def __str__(self) -> str:
        return _("%(round)s table %(table)s: %(ns)s — %(ew)s") % {
            "round": self.round,
            "table": self.table,
            "ns": self.pair_ns,
            "ew": self.pair_ew,
        }

    def save(self, *args, **kwargs) -> None:
        """Save and keep the seatings in step, so the database refuses a pair seated twice in one round."""
        with transaction.atomic():
            super().save(*args, **kwargs)
            wanted = {("NS", self.pair_ns_id, self.round_id), ("EW", self.pair_ew_id, self.round_id)}
            current = set(self.seatings.values_list("side", "pair_id", "round_id"))
            if current != wanted:
                self.seatings.all().delete()
                Seating.objects.bulk_create(
                    Seating(match=self, side=side, pair_id=pair_id, round_id=round_id)
                    for side, pair_id, round_id in sorted(wanted)
                )

    def get_absolute_url(self) -> str:
        return reverse("match", args=[self.pk])

    def pair_of(self, side: str) -> Pair:
        return self.pair_ns if side == "NS" else self.pair_ew

    def seat_players(self) -> dict[str, str]:
        """Who sits where: a pair's first player North (or East), the second South (or West)."""
        ns, ew = self.pair_ns, self.pair_ew
        return {"N": ns.player1.name, "S": ns.player2.name, "E": ew.player1.name, "W": ew.player2.name}

    @property
    def goes_through_id(self) -> int | None:
        """In a knockout: the pair that won, or, when the match ended level, the one the director decided."""
        if self.state != Match.State.FINISHED:
            return None
        return self.winner_id or self.tie_winner_id


class Bye(SaveNotes, models.Model):
    """A round in which a pair has no opponent; worth ``points`` in the standings: the tournament's bye points,
    which the TD may change on a published round at the desk (``pairing.set_bye_points``)."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="byes", verbose_name=_("round"))
    pair = models.ForeignKey(Pair, on_delete=models.PROTECT, related_name="byes", verbose_name=_("pair"))
    points = models.PositiveSmallIntegerField(_("match points"), default=2)

    # Who changed a bye's points and when.
    objects = OfTournament.as_manager()
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("bye")
        verbose_name_plural = _("byes")
        constraints = [models.UniqueConstraint(fields=["round", "pair"], name="one_bye_per_pair_per_round")]

    def __str__(self) -> str:
        return f"{self.round} {self.pair}"


class Seating(SaveNotes, models.Model):
    """One pair in one match: kept by Match.save so a pair sits at most once per round (a DB constraint)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seatings")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="+")
    pair = models.ForeignKey(Pair, on_delete=models.PROTECT, related_name="seatings")
    side = models.CharField(max_length=2, choices=SIDE_CHOICES)

    objects = OfTournament.as_manager()

    class Meta:
        verbose_name = _("seating")
        verbose_name_plural = _("seatings")
        constraints = [
            models.UniqueConstraint(fields=["round", "pair"], name="pair_once_per_round"),
            models.UniqueConstraint(fields=["match", "side"], name="one_pair_per_side"),
        ]

    def __str__(self) -> str:
        return f"{self.match_id} {self.side} {self.pair_id}"
