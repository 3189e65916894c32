"""Team competitions' data: the event's team settings, zones, teams and their rosters of pairs, team matches
(fixtures on match days), each team's line-up for one, and the ordinary matches that are its tables."""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from rules.teams import BY_SCORE, BY_ZONE_ORDER, CROSSOVER, MAX_ROSTER, TABLE_POINTS, VICTORY_POINTS
from tournaments.competition.models import Match, Pair, Round, Tournament
from tournaments.competition.stamps import by_user
from tournaments.duplicate.models import Board


class TeamEvent(models.Model):
    """A tournament played by teams: how many tables a team match has and how its result is reckoned."""

    class Kind(models.TextChoices):
        LEAGUE = "league", _("league (zones, home and away)")
        SWISS = "swiss", _("team Swiss (one day)")

    class Scoring(models.TextChoices):
        TABLE_POINTS = TABLE_POINTS, _("sum of the tables' match points")
        VICTORY_POINTS = VICTORY_POINTS, _("level difference as victory points (0–20)")

    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, related_name="team_event", verbose_name=_("tournament")
    )
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices, default=Kind.LEAGUE)
    tables = models.PositiveSmallIntegerField(
        _("tables per team match"),
        default=3,
        validators=[MinValueValidator(1), MaxValueValidator(MAX_ROSTER)],
    )
    scoring = models.CharField(_("team result"), max_length=20, choices=Scoring.choices, default=TABLE_POINTS)
    blitz_per_table = models.PositiveSmallIntegerField(
        _("levels per table for the whole scale"),
        default=6,
        validators=[MinValueValidator(1), MaxValueValidator(12)],
        help_text=_(
            "victory points only: the margin that takes all 20 is this times the square root of the tables"
        ),
    )

    # The playoffs of the zone leaders (a league): the top ``playoff_per_zone`` of every zone in a knockout of
    # team matches; ``playoff_lines`` are its first round's lines (team ids, None: a bye), ``playoff_start`` the
    # number of its first round; ``playoff_third_place``: the semi-finals' losers play for third place (the second
    # fixture of the final's round). All set once, when the director starts the playoffs.
    class Seeding(models.TextChoices):
        CROSSOVER = CROSSOVER, _("zones crossed: each zone's winner meets another zone's runner-up")
        BY_SCORE = BY_SCORE, _("zone winners first, ranked across the zones by score")
        ZONE_ORDER = BY_ZONE_ORDER, _("zone winners first, in the zones' order")

    playoff_per_zone = models.PositiveSmallIntegerField(
        _("teams per zone in the playoffs"),
        default=2,
        validators=[MinValueValidator(1), MaxValueValidator(16)],
    )
    playoff_seeding = models.CharField(
        _("playoff seeding"), max_length=20, choices=Seeding.choices, default=CROSSOVER
    )
    playoff_start = models.PositiveSmallIntegerField(_("first playoff round"), null=True, blank=True)
    playoff_lines = models.JSONField(_("playoff bracket"), default=list, blank=True)
    playoff_third_place = models.BooleanField(
        _("third-place match"),
        default=False,
        help_text=_("the two losing semi-finalists play a team match for third place"),
    )
    # A match day's clock: when its first deal starts, and when the line-ups fall due (empty: at that start), so
    # a club that collects the line-ups at the venue keeps its captains' accounts until play begins.
    first_deal_at = models.TimeField(
        _("first deal starts at"), default=dt.time(19, 0), help_text=_("on a match day")
    )
    lineups_due_at = models.TimeField(
        _("line-ups due at"),
        null=True,
        blank=True,
        help_text=_("on the match day; empty: when the first deal starts"),
    )
    # A duplicate teams event's victory-point table (RULES §14.5), read when ``scoring`` is victory points: rows
    # ``[margin from, winner's VP, loser's VP]`` (VP in hundredths), margins in scale points from 0 up; the row
    # with the largest margin at or below the match's applies. Empty: the default 20-VP table for the boards a
    # round (``tournaments.duplicate.victory_table``).
    victory_table = models.JSONField(_("victory-point table"), default=list, blank=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("team event")
        verbose_name_plural = _("team events")
        constraints = [
            models.CheckConstraint(
                condition=Q(tables__gte=1) & Q(tables__lte=MAX_ROSTER), name="team_tables_range"
            )
        ]

    def __str__(self) -> str:
        return str(self.tournament)


def team_event(tournament: Tournament) -> TeamEvent | None:
    """The tournament's team settings; None for a pairs event."""
    return TeamEvent.objects.filter(tournament=tournament).first()


class Zone(models.Model):
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="zones", verbose_name=_("tournament")
    )
    name = models.CharField(_("zone"), max_length=60)
    order = models.PositiveSmallIntegerField(_("order"), default=0)

    class Meta:
        verbose_name = _("zone")
        verbose_name_plural = _("zones")
        ordering = ["tournament", "order", "name"]
        constraints = [models.UniqueConstraint(fields=["tournament", "name"], name="zone_name_unique")]

    def __str__(self) -> str:
        return self.name


def zones_or_field(tournament: Tournament) -> list[Zone | None]:
    """The tournament's zones, or one None (the whole field) when it has none: each has its own table."""
    zones: list[Zone | None] = [*tournament.zones.all()]
    return zones or [None]


class Team(models.Model):
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="teams", verbose_name=_("tournament")
    )
    name = models.CharField(_("team name"), max_length=100)
    club = models.CharField(_("club"), max_length=100, blank=True)
    venue = models.CharField(_("home venue"), max_length=200, blank=True)
    zone = models.ForeignKey(
        Zone, on_delete=models.PROTECT, null=True, blank=True, related_name="teams", verbose_name=_("zone")
    )
    seed = models.PositiveSmallIntegerField(_("seed"), null=True, blank=True)
    captain = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="captained_teams",
        verbose_name=_("captain's account"),
        help_text=_("hands in the team's line-ups"),
    )

    history = HistoricalRecords()

    class Meta:
        verbose_name = _("team")
        verbose_name_plural = _("teams")
        ordering = ["tournament", "seed", "name"]
        constraints = [models.UniqueConstraint(fields=["tournament", "name"], name="team_name_unique")]

    def __str__(self) -> str:
        return self.name


class TeamPair(models.Model):
    """A pair on a team's roster (a pair plays for one team); its players are the registry's."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="roster", verbose_name=_("team"))
    pair = models.OneToOneField(
        Pair, on_delete=models.PROTECT, related_name="team_place", verbose_name=_("pair")
    )
    order = models.PositiveSmallIntegerField(_("order"), default=0)

    class Meta:
        verbose_name = _("team's pair")
        verbose_name_plural = _("teams' pairs")
        ordering = ["team", "order", "pair__name"]

    def __str__(self) -> str:
        return f"{self.team} {self.pair}"


class TeamMatch(models.Model):
    """A fixture: the home team against the away team in one round (a match day), at a date and venue."""

    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="team_matches", verbose_name=_("round")
    )
    number = models.PositiveSmallIntegerField(_("match"))
    zone = models.ForeignKey(
        Zone,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="team_matches",
        verbose_name=_("zone"),
    )
    home = models.ForeignKey(
        Team, on_delete=models.PROTECT, related_name="home_matches", verbose_name=_("home")
    )
    away = models.ForeignKey(
        Team, on_delete=models.PROTECT, related_name="away_matches", verbose_name=_("away")
    )
    date = models.DateField(_("date"), null=True, blank=True)
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    lineup_deadline = models.DateTimeField(_("line-ups due"), null=True, blank=True)
    postponed = models.BooleanField(_("postponed"), default=False)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("team match")
        verbose_name_plural = _("team matches")
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="team_match_number_unique"),
            models.CheckConstraint(condition=~Q(home=F("away")), name="team_match_two_teams"),
        ]

    def __str__(self) -> str:
        return f"{self.home} — {self.away}"


class LineUp(models.Model):
    """A team's pairs for one team match, in table order; hidden from the other side until both are in."""

    team_match = models.ForeignKey(TeamMatch, on_delete=models.CASCADE, related_name="lineups")
    team = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="lineups", verbose_name=_("team"))
    pairs = models.JSONField(_("pairs in table order"), default=list)
    submitted_by = by_user(_("handed in by"))
    submitted_at = models.DateTimeField(_("handed in at"), auto_now=True)

    history = HistoricalRecords()

    class Meta:
        verbose_name = _("line-up")
        verbose_name_plural = _("line-ups")
        constraints = [models.UniqueConstraint(fields=["team_match", "team"], name="one_lineup_per_team")]

    def __str__(self) -> str:
        return f"{self.team_match} {self.team}"


class TeamTable(models.Model):
    """Table i of a team match: an ordinary match (its judges, link, PINs and deals as any other)."""

    team_match = models.ForeignKey(TeamMatch, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(_("table"))
    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="team_table")

    class Meta:
        verbose_name = _("team match table")
        verbose_name_plural = _("team match tables")
        ordering = ["team_match", "number"]
        constraints = [models.UniqueConstraint(fields=["team_match", "number"], name="team_table_unique")]

    def __str__(self) -> str:
        return f"{self.team_match} {self.number}"


class BoardRuling(models.Model):
    """The director's ruling on a board of a duplicate team match not played, or fouled, at either table (RULES
    §14.5): it scores 0, or 2 scale points to the side not at fault. Versioned: a write names the version it saw."""

    class Award(models.TextChoices):
        NONE = "none", _("0 scale points")
        HOME = "home", _("2 scale points to the home team")
        AWAY = "away", _("2 scale points to the away team")

    team_match = models.ForeignKey(
        TeamMatch, on_delete=models.CASCADE, related_name="board_rulings", verbose_name=_("team match")
    )
    board = models.ForeignKey(
        Board, on_delete=models.CASCADE, related_name="team_rulings", verbose_name=_("board")
    )
    award = models.CharField(_("ruling"), max_length=6, choices=Award.choices, default=Award.NONE)
    note = models.CharField(_("note"), max_length=200, blank=True)
    version = models.PositiveIntegerField(_("version"), default=1)
    made_by = by_user(_("made by"))
    made_at = models.DateTimeField(_("made at"), auto_now=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("board ruling of a team match")
        verbose_name_plural = _("board rulings of team matches")
        constraints = [
            models.UniqueConstraint(fields=["team_match", "board"], name="board_ruling_once_per_match"),
        ]

    def __str__(self) -> str:
        return f"{self.team_match_id} {self.board_id} {self.award}"


def captained_teams(user) -> list[tuple[Team, TeamMatch | None]]:
    """The teams this account captains in tournaments not finished, each with its next fixture: the first by
    match day whose tables are not all finished (None: none left)."""
    if not getattr(user, "is_authenticated", False):
        return []
    teams = Team.objects.filter(captain=user, tournament__finished_at__isnull=True).select_related(
        "tournament"
    )
    out = []
    for team in teams.order_by("tournament__name", "name"):
        fixtures = TeamMatch.objects.filter(Q(home=team) | Q(away=team)).select_related(
            "home", "away", "round"
        )
        unfinished = Q(tables__isnull=True) | ~Q(tables__match__state=Match.State.FINISHED)
        out.append((team, fixtures.filter(unfinished).distinct().order_by("round__number", "number").first()))
    return out
