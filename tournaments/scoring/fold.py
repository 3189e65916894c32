"""The match fold: a match's levels, banker, strikes and end, replayed from its deals by the engine.

They are never edited by hand: ``recompute_match`` replays the confirmed deals with the engine's match fold, so a
correction to an early deal flows through to everything after it. Calling time and forfeits end a match here too.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from django.db import transaction
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext as _

from rules.match import MatchDeal, MatchState, closed, play_on, replay_played, start_match
from rules.ruleset import Ruleset
from tournaments.competition.access import can_reopen
from tournaments.duplicate.movement import is_duplicate_match
from tournaments.duplicate.tables import board_state
from tournaments.league.playoffs import after_table
from tournaments.models import Adjustment, Deal, Match, Penalty
from tournaments.pairing.advance import after_bracket_match
from tournaments.scoring import sql
from tournaments.scoring.awarded import apply_to_match, ruled_state
from tournaments.scoring.entries import lock_for_entry, require_record
from tournaments.scoring.errors import PermissionRefused, RecordingError
from tournaments.scoring.rulesets import ruleset_for

FOLD_FIELDS = ("pk", "number", "banker", "declarer", "level", "started_at", "finished_at", "attackers_total")
OFFICIAL = (Deal.State.CONFIRMED,)
PLAYED = (Deal.State.SUBMITTED, Deal.State.CONFIRMED)


def penalty_entry(seat: str, code: str, trick: int | None, note: str) -> dict:
    """One DEAL-RECORD ``penalties`` entry (``trick`` left out when the judge named none): the fold's deals and a
    snapshot's record carry them alike."""
    entry: dict[str, Any] = {"seat": seat, "code": code, "note": note}
    if trick is not None:
        entry["trick"] = trick
    return entry


def fold_rows(match: Match, states: Iterable[str], before: int | None) -> list[dict]:
    """The columns the match fold needs, with each verdict's ``result`` only (the tricks are never parsed)."""
    deals = match.deals.filter(state__in=list(states)).exclude(
        pk__in=Adjustment.objects.void_deal_ids(match=match)
    )
    if before is not None:
        deals = deals.filter(number__lt=before)
    rows = list(deals.order_by("number").values(*FOLD_FIELDS, "state", "verdict__result"))
    penalties: dict[int, list[dict]] = {}
    calls = Penalty.objects.filter(deal_id__in=[r["pk"] for r in rows]).order_by("recorded_at", "pk")
    for deal_id, seat, code, trick, note in calls.values_list("deal_id", "seat", "code", "trick", "note"):
        penalties.setdefault(deal_id, []).append(penalty_entry(seat, code, trick, note))
    for row in rows:
        row["penalties"] = penalties.get(row["pk"], [])
    return rows


def match_deal(row: Mapping[str, Any], rs: Ruleset) -> MatchDeal:
    """What the match fold needs of one stored deal (a row of ``fold_rows``)."""
    verdict = {"result": row["verdict__result"], "attackers_points": {"total": row["attackers_total"] or 0}}
    return MatchDeal.from_record(
        rs, row, verdict, started_at=row["started_at"], finished_at=row["finished_at"]
    )


def first_banker_of(match: Match, rows: list[dict]) -> str | None:
    """Who won the first deal's declaration (its declarer, else its banker), or None before any deal."""
    first = (
        rows[0]
        if rows and rows[0]["number"] == 1
        else match.deals.values("declarer", "banker").order_by("number").first()
    )
    return (first["declarer"] or first["banker"]) if first else None


def replay_deals(
    match: Match,
    rs: Ruleset,
    deals: Iterable[MatchDeal],
    first_banker: str | None,
    *,
    next_start: datetime | None = None,
) -> tuple[MatchState, tuple[str, ...]]:
    """The engine's fold of ``deals`` (as played) in this match: its start, time called and forfeit.

    ``next_start``: when the deal after ``deals`` started. Time called later than that came after it, so it
    does not count yet (in sudden-death overtime the deals before the call were played at their own levels).
    """
    called = match.time_called_at
    if called is not None and next_start is not None and called > next_start:
        called = None
    return replay_played(
        rs,
        deals,
        started_at=match.started_at,
        first_banker=first_banker,
        now=called,
        forfeited_by=match.forfeited_by or None,
    )


class DealStarts:
    """Where each deal of a match starts (``replay_deals`` of the deals before it), the deals given one at a
    time in order: one fold of the match in all, stepped with the engine's ``play_on``, where a replay for each
    deal folds it n²/2 times. After time was called a deal's start depends on when it began, so each is then
    replayed as ``replay_deals`` does (rare: a called match has its last few deals)."""

    def __init__(self, match: Match, rs: Ruleset, first_banker: str | None) -> None:
        self.match, self.rs, self.first_banker = match, rs, first_banker
        self.before: list[MatchDeal] = []
        self.state = start_match(rs, started_at=match.started_at, first_banker=first_banker)

    def at(self, next_start: datetime | None) -> MatchState:
        """The state the next deal (begun at ``next_start``) starts from."""
        if self.match.time_called_at is not None:
            return replay_deals(self.match, self.rs, self.before, self.first_banker, next_start=next_start)[0]
        return closed(self.state, self.match.forfeited_by or None)

    def add(self, deal: MatchDeal) -> None:
        """The next deal as played."""
        self.before.append(deal)
        self.state = play_on(self.state, deal)


def replay_with_notes(
    match: Match, *, states: Iterable[str], before: int | None = None
) -> tuple[MatchState, tuple[str, ...]]:
    """Fold the match's deals in ``states`` (numbered below ``before``) as played; notes name any mismatch. The
    whole match's fold gives way to the director's ruling that ends it (``awarded.ruled_state``). A duplicate
    table's state is its boards' (``duplicate.tables.board_state``), with no fold."""
    rs = ruleset_for(match)
    if is_duplicate_match(match):
        state = board_state(match, rs, states)
        return (ruled_state(match, state) if before is None else state), ()
    return fold_with_notes(match, rs, fold_rows(match, states, before), before)


def fold_with_notes(
    match: Match, rs: Ruleset, rows: list[dict], before: int | None
) -> tuple[MatchState, tuple[str, ...]]:
    """``replay_with_notes`` of rows already read (``fold_rows``): a caller folding the one read twice (the
    confirmed deals, then every played deal's start) reads the match's deals once."""
    deals = [match_deal(row, rs) for row in rows if row["verdict__result"]]
    next_start = None
    if before is not None:
        next_start = match.deals.filter(number=before).values_list("started_at", flat=True).first()
    state, notes = replay_deals(match, rs, deals, first_banker_of(match, rows), next_start=next_start)
    return (ruled_state(match, state) if before is None else state), notes


def replay_match(match: Match, *, states: Iterable[str], before: int | None = None) -> MatchState:
    """The match state from its deals in ``states`` (see ``replay_with_notes``)."""
    return replay_with_notes(match, states=states, before=before)[0]


def has_open_deal(match: Match) -> bool:
    """A deal of the match is still being recorded at the table (not yet submitted)."""
    return match.deals.exclude(state__in=PLAYED).exists()


def table_state(match: Match) -> MatchState:
    """The state the table plays on: submitted deals count before they are confirmed."""
    return replay_match(match, states=PLAYED)


def levels_before(deal: Deal) -> dict[str, str]:
    """Both sides' levels when this deal began (from the played deals before it; a board's: its level)."""
    if deal.board_id is not None:
        return {"NS": deal.level, "EW": deal.level}
    return dict(replay_match(deal.match, states=PLAYED, before=deal.number).levels)


def refresh_start_levels(match: Match, played_rows: list[dict] | None = None) -> None:
    """Store every deal's ``levels_before`` again, after a played deal changed (the rule: ``Deal.start_levels``).

    ``played_rows``: ``fold_rows(match, PLAYED, None)`` when the caller has just read them (in the same
    transaction, with no write to the match's deals since), else they are read here."""
    if is_duplicate_match(match):  # a board's deal starts at the board's level, whatever came before
        deals = list(match.deals.only("pk", "level", "start_levels"))
        for deal in deals:
            deal.start_levels = {"NS": deal.level, "EW": deal.level}
        Deal.objects.bulk_update(deals, ["start_levels"])
        return
    rs = ruleset_for(match)
    rows = fold_rows(match, PLAYED, None) if played_rows is None else played_rows
    first_banker = first_banker_of(match, rows)
    played = [(row["number"], match_deal(row, rs)) for row in rows if row["verdict__result"]]
    starts = DealStarts(match, rs, first_banker)
    changed = []
    stored = match.deals.order_by("number").values_list("pk", "number", "start_levels", "started_at")
    for (
        pk,
        number,
        levels,
        started_at,
    ) in stored:  # plain rows: a model instance a deal cost more than the fold
        while played and played[0][0] < number:
            starts.add(played.pop(0)[1])
        state = starts.at(started_at)
        if levels != dict(state.levels):
            changed.append(Deal(pk=pk, start_levels=dict(state.levels)))
    sql.update_rows(changed, ["start_levels"])  # Django's bulk_update: a CASE over every deal, far slower


@transaction.atomic
def recompute_match(match: Match) -> MatchState:
    """Set the match's levels, banker and end from its confirmed deals (never edited by hand)."""
    match = get_object_or_404(Match.objects.select_for_update(), pk=match.pk)
    if is_duplicate_match(match):
        played = None
        state = replay_match(match, states=OFFICIAL)
    else:  # the played deals read once: the confirmed ones are folded here, all of them for their starts below
        played = fold_rows(match, PLAYED, None)
        official = [row for row in played if row["state"] in OFFICIAL]
        state = fold_with_notes(match, ruleset_for(match), official, None)[0]
    match.level_ns, match.level_ew = state.levels["NS"], state.levels["EW"]
    match.banker = state.banker or ""
    if state.end is not None:
        match.state = Match.State.FINISHED
        match.ended_by = state.end.how
        match.winner = match.pair_of(state.end.winner) if state.end.winner else None
        last = match.deals.filter(state=Deal.State.CONFIRMED).order_by("-number").first()
        match.ended_at = match.ended_at or (last.finished_at if last else timezone.now())
    else:
        match.state = Match.State.IN_PROGRESS if match.deals.exists() else Match.State.SCHEDULED
        match.ended_by, match.winner, match.ended_at = "", None, None
    apply_to_match(match)  # the director's awarded result, if any, stands over the fold's
    match.version += 1
    match.save()
    match.round.refresh_state()
    refresh_start_levels(match, played)  # nothing above writes a deal: the rows read at the start still hold
    after_bracket_match(match)  # a knockout's next round, once this write commits
    after_table(match)  # a team playoff's next fixtures, once this write commits
    return state


@transaction.atomic
def call_time(match: Match, user, *, now: datetime | None = None) -> MatchState:
    """After the time limit, with no deal in progress, the ruleset's time rule applies (RULES §12): the match
    ends by time, or (``sudden_death``) both sides go to the target level and the match plays on."""
    require_record(user, match)
    match = lock_for_entry(match)
    now = now or timezone.now()
    state = table_state(match)
    if state.over:
        raise RecordingError(_("The match is over."))
    if state.overtime:
        raise RecordingError(_("Time has been called: the match plays on until a side wins."))
    if state.deadline is None or now < state.deadline:
        raise RecordingError(_("The time limit has not passed yet."))
    if has_open_deal(match):
        raise RecordingError(_("Finish and submit the deal in progress first."))
    match.time_called_at = now
    match._history_user = user
    match.save(update_fields=["time_called_at"])
    return recompute_match(match)


@transaction.atomic
def forfeit_match(match: Match, user, *, side: str) -> MatchState:
    """The TD records a no-show or a withdrawal: ``side`` forfeits and the other side wins."""
    if not can_reopen(user, match.round.tournament):
        raise PermissionRefused(_("Only the tournament director can record a forfeit."))
    if side not in ("NS", "EW"):
        raise RecordingError(_("Choose the side that forfeits."))
    match = lock_for_entry(match)
    match.forfeited_by = side
    match._history_user = user
    match.save(update_fields=["forfeited_by"])
    return recompute_match(match)


def match_summary(match: Match) -> dict:
    """``manage.py match_state``'s JSON for one match."""
    state = replay_match(match, states=OFFICIAL)
    return {
        "id": match.pk,
        "status": match.state,
        "ruleset": match.round.tournament.ruleset,
        "levels": dict(state.levels),
        "banker": state.banker,
        "deals": state.deals,
        "winner": state.end.winner if state.end else None,
        "ended_by": state.end.how if state.end else None,
        "overtime": state.overtime,  # time called under sudden death: both sides at the target level, playing on
    }
