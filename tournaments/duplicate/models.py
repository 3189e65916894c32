"""Duplicate (复式赛, RULES §14): the session's settings and secret seed, its boards, and the director's
artificial scores.

How a board's play is stored (agreed with the table side): a table's round is an ordinary ``Match`` (NS pair,
EW pair, table, round), made by the movement; each board that table plays in that round is one ordinary
``Deal`` of the match with ``Deal.board`` set. The deal's banker, level and trump are the board's (the trump the
table called for a ``called`` board), its hands are the board's (``Board.engine_board``), its ``kitty`` the cards
the banker buried, and its ``number`` the board's place in the round (1 … boards a round), so the recording
service, the verdict and the judge's page read it like any deal. A board not played at a table, or fouled
there, has no deal there but an ``ArtificialScore`` (60 / 50 / 40 %). Which boards a match plays is the
movement's (``tournaments.duplicate.movement.boards_of``), never stored twice.
"""

from __future__ import annotations

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from rules.boards import Board as EngineBoard
from rules.cards import parse_cards
from rules.matchpoints import Fault
from rules.seats import SEATS
from tournaments.competition.models import RANK_CHOICES, SEAT_CHOICES, Match, OfTournament, Tournament
from tournaments.competition.stamps import by_user

MIN_BOARDS_PER_ROUND, MAX_BOARDS_PER_ROUND = 2, 4


class DuplicateEvent(models.Model):
    """A duplicate pairs tournament's session: its movement, the boards a round, and the seed its boards were
    dealt from. The seed stays secret (no page, answer or export shows it) until the session is over
    (``tournaments.duplicate.visibility.published_seed``)."""

    class Movement(models.TextChoices):
        MITCHELL = "mitchell", _("Mitchell")

    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, related_name="duplicate_event", verbose_name=_("tournament")
    )
    movement = models.CharField(
        _("movement"), max_length=12, choices=Movement.choices, default=Movement.MITCHELL
    )
    boards_per_round = models.PositiveSmallIntegerField(
        _("boards a round"),
        default=2,
        validators=[MinValueValidator(MIN_BOARDS_PER_ROUND), MaxValueValidator(MAX_BOARDS_PER_ROUND)],
    )
    # 64 hex digits (rules.boards.new_seed), '' before the boards are dealt or when they were imported.
    seed = models.CharField(_("seed"), max_length=64, blank=True, editable=False)
    # The boards file's event name when the boards were imported ('' when dealt here).
    imported_from = models.CharField(_("boards imported from"), max_length=200, blank=True, editable=False)
    dealt_at = models.DateTimeField(_("boards dealt at"), null=True, blank=True, editable=False)
    dealt_by = by_user(_("boards dealt by"), editable=False)
    history = HistoricalRecords(excluded_fields=["seed"])  # the history is read by staff: no seed in it

    class Meta:
        verbose_name = _("duplicate session")
        verbose_name_plural = _("duplicate sessions")
        constraints = [
            models.CheckConstraint(
                condition=Q(boards_per_round__gte=MIN_BOARDS_PER_ROUND)
                & Q(boards_per_round__lte=MAX_BOARDS_PER_ROUND),
                name="duplicate_boards_per_round_range",
            )
        ]

    def __str__(self) -> str:
        return str(self.tournament)


class BoardQuerySet(OfTournament):
    tournament_path = "tournament"


class Board(models.Model):
    """One deal fixed before play (RULES §14.1): the engine's ``rules.boards.Board`` kept in the database,
    hands and kitty in deck order, with the fingerprint every sheet prints."""

    class Trump(models.TextChoices):
        S = "S", "♠"
        H = "H", "♥"
        C = "C", "♣"
        D = "D", "♦"
        NT = "NT", _("no trump")
        CALLED = "called", _("called at the table")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="boards", verbose_name=_("tournament")
    )
    number = models.PositiveSmallIntegerField(_("board"))
    ruleset = models.CharField(_("ruleset"), max_length=20)  # a preset's name (the boards file's)
    level = models.CharField(_("level"), max_length=1, choices=RANK_CHOICES)
    banker = models.CharField(_("banker"), max_length=1, choices=SEAT_CHOICES)
    trump = models.CharField(_("trump"), max_length=6, choices=Trump.choices)
    fallback = models.CharField(_("fallback suit"), max_length=1, blank=True)  # a called board's
    hands = models.JSONField(_("hands"))  # {"N": "deck-order cards", "W": …, "S": …, "E": …}
    kitty = models.CharField(_("dealt kitty"), max_length=400, blank=True)
    fingerprint = models.CharField(_("fingerprint"), max_length=64)

    objects = BoardQuerySet.as_manager()
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("board")
        verbose_name_plural = _("boards")
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="board_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="board_number_positive"),
        ]

    def __str__(self) -> str:
        return _("board %(n)s") % {"n": self.number}

    @property
    def engine_board(self) -> EngineBoard:
        """The board as the engine holds it (hands and kitty as sorted card tuples)."""
        return EngineBoard(
            number=self.number,
            ruleset=self.ruleset,
            level=self.level,
            banker=self.banker,
            trump=self.trump,
            hands={seat: tuple(sorted(parse_cards(self.hands[seat]))) for seat in SEATS},
            kitty=tuple(sorted(parse_cards(self.kitty))),
            fallback=self.fallback or None,
        )

    @property
    def short_fingerprint(self) -> str:
        """The fingerprint's first 8 digits, as the sheets print it."""
        return self.fingerprint[:8]


class ArtificialScoreQuerySet(OfTournament):
    tournament_path = "match__round__tournament"


class ArtificialScore(models.Model):
    """The director's score for a board a table did not play, or played fouled (RULES §14.4): that table's
    result is left out of the comparison and each side gets 60 / 50 / 40 % of the top by its share of fault."""

    FAULT_CHOICES = [
        (Fault.NONE.value, _("not at fault (60%)")),
        (Fault.PARTLY.value, _("partly at fault (50%)")),
        (Fault.AT_FAULT.value, _("at fault (40%)")),
    ]

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="artificial_scores", verbose_name=_("table")
    )
    board = models.ForeignKey(
        Board, on_delete=models.CASCADE, related_name="artificial_scores", verbose_name=_("board")
    )
    fouled = models.BooleanField(_("fouled board"), default=False)
    ns_fault = models.CharField(
        _("North–South"), max_length=10, choices=FAULT_CHOICES, default=Fault.NONE.value
    )
    ew_fault = models.CharField(
        _("East–West"), max_length=10, choices=FAULT_CHOICES, default=Fault.NONE.value
    )
    note = models.CharField(_("note"), max_length=200, blank=True)
    made_by = by_user(_("made by"))
    made_at = models.DateTimeField(_("made at"), auto_now=True)

    objects = ArtificialScoreQuerySet.as_manager()
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("artificial score")
        verbose_name_plural = _("artificial scores")
        constraints = [
            models.UniqueConstraint(fields=["match", "board"], name="artificial_score_once_per_table"),
        ]

    def __str__(self) -> str:
        return f"{self.match_id} {self.board_id}"


class VenueResultsQuerySet(OfTournament):
    tournament_path = "tournament"


class VenueResults(models.Model):
    """Another venue's results of the same boards (a simultaneous session, issue 40 item 8), read from its
    ``tractor-results/1`` file: one row a venue, replaced whole when the venue's file is imported again."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="venue_results", verbose_name=_("tournament")
    )
    venue = models.CharField(_("venue"), max_length=200)
    event = models.CharField(_("event"), max_length=200, blank=True)
    # N at that venue: how many times it plays each board (its Neuberg and the overall top count it).
    plays = models.PositiveSmallIntegerField(_("plays of each board"))
    imported_at = models.DateTimeField(_("imported at"), auto_now=True)
    imported_by = by_user(_("imported by"))

    objects = VenueResultsQuerySet.as_manager()

    class Meta:
        verbose_name = _("another venue's results")
        verbose_name_plural = _("other venues' results")
        ordering = ["tournament", "venue"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "venue"], name="venue_results_once_per_venue"),
            models.CheckConstraint(condition=Q(plays__gte=1), name="venue_results_plays_positive"),
        ]

    def __str__(self) -> str:
        return self.venue


class VenueLine(models.Model):
    """One table of another venue on one board: its pairs by name and its result as the engine scores it (the
    NS score, or the artificial scores' faults where it has none)."""

    results = models.ForeignKey(
        VenueResults, on_delete=models.CASCADE, related_name="lines", verbose_name=_("venue")
    )
    board = models.ForeignKey(
        Board, on_delete=models.CASCADE, related_name="venue_lines", verbose_name=_("board")
    )
    round = models.PositiveSmallIntegerField(_("round"))
    table = models.PositiveSmallIntegerField(_("table"))
    ns_pair = models.CharField(_("North–South"), max_length=200)
    ew_pair = models.CharField(_("East–West"), max_length=200)
    points = models.IntegerField(_("points"), null=True, blank=True)
    outcome = models.CharField(_("outcome"), max_length=20, blank=True)
    ns_score = models.IntegerField(_("NS score"), null=True, blank=True)
    ns_fault = models.CharField(
        max_length=10, choices=ArtificialScore.FAULT_CHOICES, default=Fault.NONE.value
    )
    ew_fault = models.CharField(
        max_length=10, choices=ArtificialScore.FAULT_CHOICES, default=Fault.NONE.value
    )

    class Meta:
        verbose_name = _("another venue's table result")
        verbose_name_plural = _("other venues' table results")
        constraints = [
            models.UniqueConstraint(
                fields=["results", "board", "round", "table"], name="venue_line_once_per_table"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.results_id} {self.board_id} {self.round}/{self.table}"
