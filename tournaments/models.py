"""Competition data: tournaments and their ruleset, players, pairs, rounds and matches."""

from __future__ import annotations

from functools import cached_property

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.db.models import F, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from rules import scoring
from rules.ranks import RANK_TEXT, RANKS
from rules.standings import TIEBREAKS
from tournaments.wording import TIE_BREAK_NAMES, deal_outcome

SIDE_CHOICES = [("NS", _("North–South")), ("EW", _("East–West"))]
SEAT_CHOICES = [("N", _("North")), ("W", _("West")), ("S", _("South")), ("E", _("East"))]
RANK_CHOICES = [(r, RANK_TEXT[r]) for r in RANKS]

# The tie-break codes are the engine's (rules.standings.TIEBREAKS); their names are worded in tournaments.wording.
TIE_BREAK_LABELS = TIE_BREAK_NAMES
TIE_BREAKS = [(code, TIE_BREAK_LABELS.get(code, code)) for code in TIEBREAKS]
DEFAULT_TIE_BREAKS = list(TIEBREAKS)


def default_ruleset() -> dict:
    return {"preset": "standard"}


def default_tie_breaks() -> list[str]:
    return list(DEFAULT_TIE_BREAKS)


class Tournament(models.Model):
    class Format(models.TextChoices):
        ROUND_ROBIN = "round_robin", _("round robin")
        SWISS = "swiss", _("Swiss")
        KNOCKOUT = "knockout", _("knockout")
        MANUAL = "manual", _("manual")

    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(_("slug"), max_length=80, unique=True, allow_unicode=False)
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    start_date = models.DateField(_("start date"), null=True, blank=True)
    end_date = models.DateField(_("end date"), null=True, blank=True)
    ruleset = models.JSONField(
        _("ruleset"),
        default=default_ruleset,
        help_text=_("a preset name plus the settings that differ from it"),
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
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    # Set when the director finishes the tournament (its results are final), cleared when they reopen it; the
    # history keeps every finish and reopening with who and when (``tournaments.finishing``).
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True, editable=False)
    finished_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        editable=False,
        related_name="+",
        verbose_name=_("finished by"),
    )

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
        from rules.ruleset import Ruleset, RulesetError
        from tournaments.setup import ruleset_refusal  # it reads the models: imported when needed

        try:
            Ruleset.from_spec(self.ruleset)
        except RulesetError as exc:  # the engine's English, said in the director's language
            raise ValidationError({"ruleset": ruleset_refusal(exc)}) from exc
        if not isinstance(self.tie_breaks or [], list):  # JSON typed in the admin may be any value
            raise ValidationError({"tie_breaks": _("List the tie-breaks by their codes, in order.")})
        unknown = [str(code) for code in self.tie_breaks or [] if not isinstance(code, str) or code not in TIEBREAKS]
        if unknown:
            raise ValidationError(
                {"tie_breaks": _("Unknown tie-breaks: %(codes)s") % {"codes": ", ".join(unknown)}}
            )

    @cached_property
    def has_kitty(self) -> bool:
        """Whether this tournament's game buries a kitty (not with four decks): the pages show a kitty bonus only
        then."""
        from rules.ruleset import Ruleset, RulesetError

        try:
            return Ruleset.from_spec(self.ruleset).kitty_size > 0
        except RulesetError:  # a spec the director must still fix: show the column, as the presets do
            return True

    @property
    def is_finished(self) -> bool:
        """The director finished the tournament: nothing changes its results until they reopen it."""
        return self.finished_at is not None

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


class Pair(models.Model):
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


class Round(models.Model):
    class State(models.TextChoices):
        DRAFT = "draft", _("draft")
        PUBLISHED = "published", _("published")
        FINISHED = "finished", _("finished")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="rounds", verbose_name=_("tournament")
    )
    number = models.PositiveSmallIntegerField(_("round"))
    state = models.CharField(_("state"), max_length=12, choices=State.choices, default=State.DRAFT)

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


class Match(models.Model):
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


class Bye(models.Model):
    """A round in which a pair has no opponent; worth ``points`` in the standings.

    A new bye gets the tournament's bye points; the TD may change a published round's bye's points at the desk
    (``pairing.set_bye_points``), and that counts.
    """

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="byes", verbose_name=_("round"))
    pair = models.ForeignKey(Pair, on_delete=models.PROTECT, related_name="byes", verbose_name=_("pair"))
    points = models.PositiveSmallIntegerField(_("match points"), default=2)

    # Who changed a bye's points and when.
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("bye")
        verbose_name_plural = _("byes")
        constraints = [models.UniqueConstraint(fields=["round", "pair"], name="one_bye_per_pair_per_round")]

    def __str__(self) -> str:
        return f"{self.round} {self.pair}"


class Seating(models.Model):
    """One pair in one match: kept by Match.save so a pair sits at most once per round (a DB constraint)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seatings")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="+")
    pair = models.ForeignKey(Pair, on_delete=models.PROTECT, related_name="seatings")
    side = models.CharField(max_length=2, choices=SIDE_CHOICES)

    class Meta:
        verbose_name = _("seating")
        verbose_name_plural = _("seatings")
        constraints = [
            models.UniqueConstraint(fields=["round", "pair"], name="pair_once_per_round"),
            models.UniqueConstraint(fields=["match", "side"], name="one_pair_per_side"),
        ]

    def __str__(self) -> str:
        return f"{self.match_id} {self.side} {self.pair_id}"


TRUMP_CHOICES = [("S", "♠"), ("H", "♥"), ("C", "♣"), ("D", "♦"), ("NT", _("no trump"))]
# The penalty codes are the engine's (rules.scoring.PENALTY_CODES); only their labels live here.
PENALTY_LABELS = {
    "misplay": _("misplay"),
    "signal": _("signal"),
    "renege": _("renege"),
    "revoke": _("revoke"),
    "wrong_card_count": _("wrong card count"),
}
PENALTY_CODES = [(code, PENALTY_LABELS.get(code, code)) for code in scoring.PENALTY_CODES]


class Deal(models.Model):
    """One deal of a match as the judge recorded it; its verdict is the rules engine's, kept with it."""

    class State(models.TextChoices):
        RECORDING = "recording", _("recording")
        SUBMITTED = "submitted", _("submitted")
        CONFIRMED = "confirmed", _("confirmed")

    class Mode(models.TextChoices):
        TRICKS = "tricks", _("trick by trick")
        QUICK = "quick", _("quick entry")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="deals", verbose_name=_("match"))
    number = models.PositiveSmallIntegerField(_("deal number"))
    banker = models.CharField(_("banker"), max_length=1, choices=SEAT_CHOICES)
    declarer = models.CharField(
        _("declarer"), max_length=1, choices=SEAT_CHOICES, blank=True, help_text=_("first deal only")
    )
    level = models.CharField(_("level"), max_length=1, choices=RANK_CHOICES)
    trump = models.CharField(_("trump"), max_length=2, choices=TRUMP_CHOICES)
    kitty = models.CharField(_("kitty"), max_length=200, blank=True)
    mode = models.CharField(_("entry mode"), max_length=8, choices=Mode.choices, default=Mode.TRICKS)
    # Quick entry (no tricks recorded): what the table agreed.
    quick_points = models.SmallIntegerField(_("attackers' points from tricks"), null=True, blank=True)
    quick_kitty_points = models.PositiveSmallIntegerField(_("kitty points"), null=True, blank=True)
    quick_last_lead = models.CharField(_("last lead"), max_length=20, blank=True)
    quick_attackers_last = models.BooleanField(_("attackers won the last trick"), default=False)
    state = models.CharField(_("state"), max_length=10, choices=State.choices, default=State.RECORDING)
    verdict = models.JSONField(_("verdict"), null=True, blank=True)
    # Copied from the verdict on save, so standings and exports sum columns instead of parsing JSON.
    attackers_total = models.SmallIntegerField(_("attackers' points"), null=True, blank=True, editable=False)
    banker_held = models.BooleanField(_("banker side held"), null=True, blank=True, editable=False)
    started_at = models.DateTimeField(_("started at"), default=timezone.now)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("submitted by"),
    )
    submitted_at = models.DateTimeField(_("submitted at"), null=True, blank=True)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("confirmed by"),
    )
    confirmed_at = models.DateTimeField(_("confirmed at"), null=True, blank=True)
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("last changed by"),
    )
    changed_at = models.DateTimeField(_("last changed at"), auto_now=True)
    version = models.PositiveIntegerField(_("version"), default=0)
    # Both sides' levels when the deal began ({"NS": "5", "EW": "3"}), stored so a play need not fold the deals
    # before it. The rule that keeps it true: it is the fold of the played deals before this one
    # (``referee.table.recording.match_fold.levels_before``), set by ``start_deal`` and stored again for every deal of
    # the match whenever a played deal changes — submit, reopen, a penalty on a submitted deal, and every
    # recompute (confirm, time, forfeit, a recorded deal). A correction to an earlier deal goes through the TD's
    # reopen and a recompute, so it refreshes this too. Empty (a deal made outside the service): it is folded.
    start_levels = models.JSONField(_("levels at the start"), null=True, blank=True, editable=False)

    history = HistoricalRecords(excluded_fields=["start_levels"])

    class Meta:
        verbose_name = _("deal")
        verbose_name_plural = _("deals")
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="deal_number_unique_in_match"),
            models.CheckConstraint(condition=Q(number__gte=1), name="deal_number_positive"),
        ]

    def __str__(self) -> str:
        return _("deal %(n)s") % {"n": self.number}

    def save(self, *args, **kwargs) -> None:
        self.fill_totals()
        if kwargs.get("update_fields") is not None and "verdict" in kwargs["update_fields"]:
            kwargs["update_fields"] = {*kwargs["update_fields"], "attackers_total", "banker_held"}
        super().save(*args, **kwargs)

    def fill_totals(self) -> Deal:
        """Copy the verdict's total and outcome into their columns (``save`` does; call it before bulk_create)."""
        result, points = self.result, self.attackers_points
        self.attackers_total = points["total"] if points else None
        self.banker_held = result["outcome"] in ("banker_holds", "match_won") if result else None
        return self

    @property
    def result(self) -> dict | None:
        return (self.verdict or {}).get("result")

    @property
    def attackers_points(self) -> dict | None:
        return (self.verdict or {}).get("attackers_points")

    @property
    def outcome_label(self) -> str:
        """The deal's outcome in words (``tournaments.wording.deal_outcome``)."""
        return deal_outcome(self.result)


class Trick(models.Model):
    """One trick of a deal: its plays in order, and a challenged throw as the judge saw it."""

    deal = models.ForeignKey(Deal, on_delete=models.CASCADE, related_name="tricks", verbose_name=_("deal"))
    number = models.PositiveSmallIntegerField(_("trick number"))  # 0-based, as in DEAL-RECORD verdicts
    throw_attempted = models.CharField(_("throw attempted"), max_length=200, blank=True)
    throw_challenger = models.CharField(_("challenger"), max_length=1, choices=SEAT_CHOICES, blank=True)
    throw_shown = models.CharField(_("cards shown"), max_length=200, blank=True)

    history = HistoricalRecords()

    class Meta:
        verbose_name = _("trick")
        verbose_name_plural = _("tricks")
        ordering = ["deal", "number"]
        constraints = [models.UniqueConstraint(fields=["deal", "number"], name="trick_number_unique_in_deal")]

    def __str__(self) -> str:
        return _("trick %(n)s") % {"n": self.number + 1}


class Play(models.Model):
    """One seat's cards in one trick, in canonical notation."""

    trick = models.ForeignKey(Trick, on_delete=models.CASCADE, related_name="plays", verbose_name=_("trick"))
    order = models.PositiveSmallIntegerField(_("order"))  # 0 = the lead
    seat = models.CharField(_("seat"), max_length=1, choices=SEAT_CHOICES)
    cards = models.CharField(_("cards"), max_length=200)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("recorded by"),
    )
    recorded_at = models.DateTimeField(_("recorded at"), auto_now_add=True)

    history = HistoricalRecords()

    class Meta:
        verbose_name = _("play")
        verbose_name_plural = _("plays")
        ordering = ["trick", "order"]
        constraints = [
            models.UniqueConstraint(fields=["trick", "order"], name="play_order_unique_in_trick"),
            models.UniqueConstraint(fields=["trick", "seat"], name="play_seat_unique_in_trick"),
            models.CheckConstraint(condition=Q(order__lte=3), name="play_order_at_most_four"),
        ]

    def __str__(self) -> str:
        return f"{self.seat} {self.cards}"


class Penalty(models.Model):
    """A penalty the judge called that the plays cannot show (DEAL-RECORD ``penalties``)."""

    deal = models.ForeignKey(Deal, on_delete=models.CASCADE, related_name="penalties", verbose_name=_("deal"))
    seat = models.CharField(_("seat"), max_length=1, choices=SEAT_CHOICES)
    code = models.CharField(_("penalty"), max_length=20, choices=PENALTY_CODES)
    trick = models.PositiveSmallIntegerField(_("trick"), null=True, blank=True)
    note = models.CharField(_("note"), max_length=300, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("recorded by"),
    )
    recorded_at = models.DateTimeField(_("recorded at"), auto_now_add=True)
    # The violation this penalty settles (``referee.table.recording.settling.violation_key``: trick, seat, code), or
    # '' for a penalty the judge called on their own; a violation is penalised once.
    violation = models.CharField(_("violation"), max_length=40, blank=True)

    history = HistoricalRecords()

    class Meta:
        verbose_name = _("penalty")
        verbose_name_plural = _("penalties")
        ordering = ["deal", "recorded_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["deal", "violation"], condition=~Q(violation=""), name="penalty_once_per_violation"
            )
        ]

    def __str__(self) -> str:
        return f"{self.seat} {self.code}"


class Ruling(models.Model):
    """What a judge ruled on one violation the engine found in a deal, keyed like the violation (trick, seat,
    code): the judge confirmed the entry (the cards were played as recorded), or the director dismissed it with
    a note. A dismissal settles the violation; a confirmation only says the entry is right."""

    class Kind(models.TextChoices):
        PLAYED = "played", _("recorded as played")
        DISMISSED = "dismissed", _("dismissed by the director")

    deal = models.ForeignKey(Deal, on_delete=models.CASCADE, related_name="rulings", verbose_name=_("deal"))
    violation = models.CharField(_("violation"), max_length=40)
    kind = models.CharField(_("ruling"), max_length=10, choices=Kind.choices)
    trick = models.PositiveSmallIntegerField(_("trick"), null=True, blank=True)
    seat = models.CharField(_("seat"), max_length=1, choices=SEAT_CHOICES, blank=True)
    code = models.CharField(_("violation code"), max_length=20)
    note = models.CharField(_("note"), max_length=300, blank=True)
    made_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("made by"),
    )
    made_at = models.DateTimeField(_("made at"), auto_now_add=True)

    history = HistoricalRecords()

    class Meta:
        verbose_name = _("ruling")
        verbose_name_plural = _("rulings")
        ordering = ["deal", "made_at"]
        constraints = [
            models.UniqueConstraint(fields=["deal", "violation", "kind"], name="one_ruling_of_a_kind_per_violation")
        ]

    def __str__(self) -> str:
        return f"{self.violation} {self.kind}"


class WriteReceipt(models.Model):
    """The answer to one write a page sent, kept under the page's key for it (``referee.table.recording.receipts``).

    A retry of that write (a reply lost on the network, a double tap) gets this answer back instead of writing
    twice. Keys belong to one account; receipts older than a day are pruned.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=64)
    target = models.CharField(max_length=80)
    status = models.PositiveSmallIntegerField()
    answer = models.JSONField()
    created = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("write receipt")
        verbose_name_plural = _("write receipts")
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="write_receipt_key_unique_per_user")
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.key} {self.status}"
