"""The director's table board: what every table of the current round is doing, and the deals waiting for a second
person's confirmation — read in a few queries whatever the number of tables, so the board can refresh every few
seconds during a round.

A table's state is the one that most needs the director: an unsettled violation, then deals waiting for
confirmation; else finished, time called (the match not yet over), playing (a deal being recorded, or between
deals), not started. An unsettled violation is
one the judge recorded as played (a ``Ruling`` of that kind on a deal not yet confirmed) that no penalty (keyed to
it, or called with the form for its seat, trick and the ruleset's penalty) and no dismissal settles — the stored
trace of the settling rules (``referee.table.recording.settling``), so the board need not judge every deal again.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, TypedDict

from django.db.models import Case, Count, Exists, F, Max, OuterRef, Q, Value, When
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from rules.ruleset import Ruleset, RulesetError, TimeRule
from rules.scoring import PENALTY_FOR_VIOLATION
from tournaments.models import Deal, Match, Penalty, Round, Ruling, Tournament

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations

# Filter codes (in the page's query string) and their labels, most urgent first.
VIOLATION = "violation"
WAITING = "waiting"
TIME = "time"
PLAYING = "playing"
NOT_STARTED = "not_started"
FINISHED = "finished"
STATES = {
    VIOLATION: gettext_lazy("unsettled violation"),
    WAITING: gettext_lazy("waiting for confirmation"),
    TIME: gettext_lazy("called for time"),
    PLAYING: gettext_lazy("playing"),
    NOT_STARTED: gettext_lazy("not started"),
    FINISHED: gettext_lazy("finished"),
}


@dataclass(frozen=True)
class TableRow:
    """One table of the round as the board shows it."""

    match: Match
    state: str
    deal_number: int | None  # the deal being recorded, if any
    deals_played: int
    waiting: int
    minutes_used: int | None
    time_limit: int | None
    last_entry: datetime | None
    plays_on: bool = False  # the time rule plays on past the limit (sudden death), so past it is no fault

    @property
    def past_limit(self) -> bool:
        return bool(
            self.time_limit and self.minutes_used is not None and self.minutes_used >= self.time_limit
        )

    @property
    def label(self) -> str:
        """The state in words: which deal is in progress, how many wait."""
        if self.state == PLAYING and self.deal_number:
            return _("deal %(n)s in progress") % {"n": self.deal_number}
        if self.state == PLAYING:
            return _("between deals (%(n)s played)") % {"n": self.deals_played}
        if self.state == WAITING:
            return ngettext(
                "%(n)s deal waiting for confirmation", "%(n)s deals waiting for confirmation", self.waiting
            ) % {"n": self.waiting}
        return str(STATES[self.state])

    @property
    def time_called(self) -> bool:
        return self.match.time_called_at is not None

    @property
    def over_time(self) -> bool:
        """Past the limit and not meant to be (or, under sudden death, time not called yet): the board marks the
        table for the director."""
        return self.past_limit and not self.time_called and self.state != FINISHED

    @property
    def in_overtime(self) -> bool:
        """Time called under sudden death and still playing: shown as such, not as late (never before the call)."""
        return self.time_called and self.plays_on and self.state != FINISHED


def current_round(tournament: Tournament) -> Round | None:
    """The latest round the tables play (published or finished); drafts are not at the tables yet."""
    return tournament.rounds.exclude(state=Round.State.DRAFT).order_by("-number").first()


def plays_on_after_time(tournament: Tournament) -> bool:
    """The ruleset's time rule plays on after the limit (both sides to the target level)."""
    try:
        return Ruleset.from_spec(tournament.ruleset).time_rule == TimeRule.SUDDEN_DEATH
    except RulesetError:
        return False


def time_limit(tournament: Tournament) -> int | None:
    """The match time limit in minutes: the tournament's own, else its ruleset's."""
    if tournament.match_time_limit:
        return tournament.match_time_limit
    try:
        return Ruleset.from_spec(tournament.ruleset).time_limit_minutes
    except RulesetError:
        return None


def _unsettled_violations():
    """A violation recorded as played on a deal of the match not yet confirmed that nothing settles."""
    called_code = Case(
        *(When(code=code, then=Value(penalty)) for code, penalty in PENALTY_FOR_VIOLATION.items()),
        default=Value(""),
    )
    keyed = Penalty.objects.filter(deal_id=OuterRef("deal_id"), violation=OuterRef("violation"))
    called = Penalty.objects.filter(
        deal_id=OuterRef("deal_id"),
        violation="",
        seat=OuterRef("seat"),
        trick=OuterRef("trick"),
        code=OuterRef("penalty_code"),
    )
    dismissed = Ruling.objects.filter(
        deal_id=OuterRef("deal_id"), violation=OuterRef("violation"), kind=Ruling.Kind.DISMISSED
    )
    return (
        Ruling.objects.filter(deal__match_id=OuterRef("pk"), kind=Ruling.Kind.PLAYED)
        .exclude(deal__state=Deal.State.CONFIRMED)
        .annotate(penalty_code=called_code)
        .filter(~Exists(keyed), ~Exists(called), ~Exists(dismissed))
    )


class BoardCounts(TypedDict):
    """What ``board_matches`` annotates on each match."""

    deals_played: int
    waiting: int
    recording: int | None
    last_entry: datetime | None
    unsettled: bool


def board_matches(rnd: Round):
    """The round's matches with pairs, players and judge, and what the board needs of their deals, in one query."""
    return (
        rnd.matches.select_related(
            "pair_ns__player1", "pair_ns__player2", "pair_ew__player1", "pair_ew__player2", "judge"
        )
        .annotate(
            deals_played=Count("deals", filter=~Q(deals__state=Deal.State.RECORDING)),
            waiting=Count("deals", filter=Q(deals__state=Deal.State.SUBMITTED)),
            recording=Max("deals__number", filter=Q(deals__state=Deal.State.RECORDING)),
            last_entry=Max("deals__changed_at"),
            unsettled=Exists(_unsettled_violations()),
        )
        .order_by("table")
    )


def state_of(match: WithAnnotations[Match, BoardCounts]) -> str:
    """The board's state of an annotated match (``board_matches``): the most urgent first."""
    if match.unsettled:
        return VIOLATION
    if match.waiting:
        return WAITING
    if match.state == Match.State.FINISHED:
        return FINISHED
    if match.time_called_at:
        return TIME
    if match.recording or match.deals_played or match.state == Match.State.IN_PROGRESS:
        return PLAYING
    return NOT_STARTED


def minutes_used(match: Match, now: datetime) -> int | None:
    if match.started_at is None:
        return None
    end = match.ended_at or now
    return max(0, int((end - match.started_at).total_seconds() // 60))


def table_board(tournament: Tournament, rnd: Round | None) -> list[TableRow]:
    """Every table of the round, in table order."""
    if rnd is None:
        return []
    now, limit, plays_on = timezone.now(), time_limit(tournament), plays_on_after_time(tournament)
    return [
        TableRow(
            match=m,
            state=state_of(m),
            deal_number=m.recording,
            deals_played=m.deals_played,
            waiting=m.waiting,
            minutes_used=minutes_used(m, now),
            time_limit=limit,
            last_entry=m.last_entry,
            plays_on=plays_on,
        )
        for m in board_matches(rnd)
    ]


def state_counts(rows: list[TableRow]) -> dict[str, int]:
    """How many tables are in each state (the filter buttons' counts)."""
    counts = dict.fromkeys(STATES, 0)
    for r in rows:
        counts[r.state] += 1
    return counts


def confirmation_queue(tournament: Tournament):
    """Submitted deals waiting for a second person, oldest first: the director works through them in order."""
    return (
        Deal.objects.of(tournament)
        .submitted()
        .select_related("match__round", "match__pair_ns", "match__pair_ew", "submitted_by")
        .order_by(F("submitted_at").asc(nulls_first=True), "pk")
    )


def waiting_count(tournament: Tournament) -> int:
    return Deal.objects.of(tournament).submitted().count()


# --- printables ----------------------------------------------------------------------------------------------

SEATS_IN_ORDER = ("N", "E", "S", "W")
SCORE_SHEET_ROWS = (
    20  # deals on a paper score sheet (a match rarely needs more; the back of the sheet is blank)
)


def printable_matches(rnd: Round, table: int | None = None):
    """The round's matches for its table cards and score sheets (one table when ``table`` is given)."""
    matches = rnd.matches.select_related(
        "pair_ns__player1", "pair_ns__player2", "pair_ew__player1", "pair_ew__player2", "judge"
    ).order_by("table")
    return matches.filter(table=table) if table is not None else matches
