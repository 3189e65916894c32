"""The deals as recorded at the tables: deals, tricks, plays, penalties, rulings, and the receipts of writes."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from rules import scoring
from tournaments.competition.display import deal_outcome
from tournaments.competition.models import RANK_CHOICES, SEAT_CHOICES, Match, OfTournament
from tournaments.competition.save_notes import SaveNotes
from tournaments.competition.stamps import Recorded, by_user

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


class DealQuerySet(OfTournament):
    """A tournament's deals, and those waiting for a confirmation or counted."""

    tournament_path = "match__round__tournament"

    def submitted(self) -> DealQuerySet:
        return self.filter(state=Deal.State.SUBMITTED)

    def confirmed(self) -> DealQuerySet:
        return self.filter(state=Deal.State.CONFIRMED)


class PenaltyQuerySet(OfTournament):
    tournament_path = "deal__match__round__tournament"


class Deal(SaveNotes, models.Model):
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
    attackers_total = models.IntegerField(_("attackers' points"), null=True, blank=True, editable=False)
    banker_held = models.BooleanField(_("banker side held"), null=True, blank=True, editable=False)
    started_at = models.DateTimeField(_("started at"), default=timezone.now)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    submitted_by = by_user(_("submitted by"), on_delete=models.PROTECT)
    submitted_at = models.DateTimeField(_("submitted at"), null=True, blank=True)
    confirmed_by = by_user(_("confirmed by"), on_delete=models.PROTECT)
    confirmed_at = models.DateTimeField(_("confirmed at"), null=True, blank=True)
    # Set when a player confirmed at the table with their pair's PIN (``confirmed_by`` is then the table's device).
    confirmed_by_pair = models.ForeignKey(
        "tournaments.Pair",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("confirmed by the pair (PIN)"),
    )
    changed_by = by_user(_("last changed by"))
    changed_at = models.DateTimeField(_("last changed at"), auto_now=True)
    # The last time a submitted or confirmed deal was reopened: who, when and why (every reopening stays in the
    # deal's history). Set, the deal was changed after it was first submitted: the queue marks it.
    reopened_by = by_user(_("reopened by"))
    reopened_at = models.DateTimeField(_("reopened at"), null=True, blank=True)
    reopen_reason = models.CharField(_("why it was reopened"), max_length=200, blank=True)
    version = models.PositiveIntegerField(_("version"), default=0)
    # Both sides' levels when the deal began ({"NS": "5", "EW": "3"}), stored so a play need not fold the deals
    # before it. The rule that keeps it true: it is the fold of the played deals before this one
    # (``tournaments.scoring.fold.levels_before``), set by ``start_deal`` and stored again for every deal of
    # the match whenever a played deal changes — submit, reopen, a penalty on a submitted deal, and every
    # recompute (confirm, time, forfeit, a recorded deal). A correction to an earlier deal goes through the TD's
    # reopen and a recompute, so it refreshes this too. Empty (a deal made outside the service): it is folded.
    start_levels = models.JSONField(_("levels at the start"), null=True, blank=True, editable=False)
    # A duplicate board played at this table (``tournaments.duplicate.models``: the deal's hands are the board's);
    # None for a deal dealt at the table.
    board = models.ForeignKey(
        "tournaments.Board",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="deals",
        verbose_name=_("board"),
    )
    # A called board's round of shows at the table (RULES §14.2): ``[[seat, cards], …]`` in play order from the
    # banker, ``""`` for a pass; the trump it fixed is ``trump``. Empty for any other deal.
    trump_calls = models.JSONField(_("trump calls"), default=list, blank=True, editable=False)

    objects = DealQuerySet.as_manager()
    history = HistoricalRecords(excluded_fields=["start_levels"])

    class Meta:
        verbose_name = _("deal")
        verbose_name_plural = _("deals")
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="deal_number_unique_in_match"),
            models.CheckConstraint(condition=Q(number__gte=1), name="deal_number_positive"),
            models.UniqueConstraint(
                fields=["match", "board"], condition=Q(board__isnull=False), name="board_once_per_table"
            ),
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
        """The deal's outcome in words (``tournaments.competition.display.deal_outcome``)."""
        return deal_outcome(self.result)


class Trick(SaveNotes, models.Model):
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


class Play(Recorded):
    """One seat's cards in one trick, in canonical notation."""

    trick = models.ForeignKey(Trick, on_delete=models.CASCADE, related_name="plays", verbose_name=_("trick"))
    order = models.PositiveSmallIntegerField(_("order"))  # 0 = the lead
    seat = models.CharField(_("seat"), max_length=1, choices=SEAT_CHOICES)
    cards = models.CharField(_("cards"), max_length=200)

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


class Penalty(Recorded):
    """A penalty the judge called that the plays cannot show (DEAL-RECORD ``penalties``)."""

    deal = models.ForeignKey(Deal, on_delete=models.CASCADE, related_name="penalties", verbose_name=_("deal"))
    seat = models.CharField(_("seat"), max_length=1, choices=SEAT_CHOICES)
    code = models.CharField(_("penalty"), max_length=20, choices=PENALTY_CODES)
    trick = models.PositiveSmallIntegerField(_("trick"), null=True, blank=True)
    note = models.CharField(_("note"), max_length=300, blank=True)
    # The violation this penalty settles (``referee.table.recording.settlement.violation_key``: trick, seat, code), or
    # '' for a penalty the judge called on their own; a violation is penalised once.
    violation = models.CharField(_("violation"), max_length=40, blank=True)

    objects = PenaltyQuerySet.as_manager()
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


class Ruling(SaveNotes, models.Model):
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
    made_by = by_user(_("made by"))
    made_at = models.DateTimeField(_("made at"), auto_now_add=True)

    history = HistoricalRecords()

    class Meta:
        verbose_name = _("ruling")
        verbose_name_plural = _("rulings")
        ordering = ["deal", "made_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["deal", "violation", "kind"], name="one_ruling_of_a_kind_per_violation"
            )
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
