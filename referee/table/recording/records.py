"""DEAL-RECORD documents in and out: a stored deal as a record, whole records recorded into a match (the
``record_deal`` command, the simulator, the demo) and a match's deals exported.

A record recorded here is judged by the same engine as a deal entered play by play, its penalties must settle
every violation (as a judge's submit requires), and it is confirmed by the operator who records it.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.shortcuts import get_object_or_404
from django.utils import timezone
from simple_history.utils import bulk_create_with_history

from referee.table.recording.settling import require_record_settled
from rules.cards import format_cards, parse_cards
from rules.match import MatchState
from rules.order import trump_from_text
from rules.ranks import parse_rank
from rules.record import Record, RecordError, parse_record
from rules.ruleset import Ruleset, RulesetError
from rules.seats import side_of
from rules.verdict import Verdict
from tournaments.competition.free_text import text_problem
from tournaments.duplicate.movement import DuplicateError, is_duplicate_match, next_board
from tournaments.duplicate.tables import board_place, check_board_record
from tournaments.models import Board, Deal, Match, Penalty, Play, Trick
from tournaments.scoring.entries import require_entries
from tournaments.scoring.errors import RecordingError
from tournaments.scoring.fold import has_open_deal, levels_before, recompute_match, table_state
from tournaments.scoring.rulesets import ruleset_for
from tournaments.scoring.snapshot import judge_probe, snapshot
from tournaments.scoring.versions import touch


def deal_record(deal: Deal, *, levels: Mapping[str, str] | None = None, partial: bool = False) -> dict:
    """The stored deal as a DEAL-RECORD document, with ``levels`` (its start levels) when they are given."""
    return snapshot(deal, levels or {}).record(partial)


def judge_deal(deal: Deal, levels: Mapping[str, str] | None = None) -> Verdict:
    """The engine's verdict on the deal so far (the whole-deal audit once every trick is in), from ``levels``
    (both sides' when it began) when the caller has folded them already, else ``levels_before``."""
    snap = snapshot(deal, dict(levels) if levels is not None else levels_before(deal))
    return judge_probe(snap.record(), snap.rs)


def export_deals(match: Match) -> list[dict]:
    """The match's deals as DEAL-RECORD documents, each with the levels it began at (quick deals are partial)."""
    return [
        deal_record(deal, levels=levels_before(deal), partial=deal.mode == Deal.Mode.QUICK)
        for deal in match.deals.order_by("number")
    ]


def check_record_fits(match: Match, record: Mapping[str, Any]) -> tuple[Board | None, MatchState]:
    """A record must agree with the match's state: same ruleset, the banker due, the banker side's level; and
    the match's round must be published (a draft takes no entries). At a duplicate table it must be the play of
    the table's next board, whose row it returns (``duplicate.tables.check_board_record``), with the table's
    state (``fold.table_state``) the record was checked against."""
    require_entries(match)
    try:
        parsed = parse_record(record)
    except (RecordError, RulesetError) as exc:
        raise RecordingError(str(exc)) from exc
    if parsed.partial:
        raise RecordingError("the record is partial: only complete deals can be recorded")
    check_sizes(parsed)
    for i, call in enumerate(parsed.penalties):
        if problem := text_problem(call.note, Penalty._meta.get_field("note").max_length):
            raise RecordingError(f"penalties[{i}].note: {problem}")
    if Ruleset.from_spec(record.get("ruleset", "standard")) != Ruleset.from_spec(
        match.round.tournament.ruleset
    ):
        raise RecordingError(
            f"ruleset {record.get('ruleset', 'standard')!r} differs from the tournament's "
            f"{match.round.tournament.ruleset!r}"
        )
    state = table_state(match)
    if state.over:
        raise RecordingError("the match is over")
    if has_open_deal(match):
        raise RecordingError("a deal of this match is being recorded at the table")
    if state.banker is not None and parsed.banker != state.banker:
        raise RecordingError(f"banker {parsed.banker} is not the banker due, {state.banker}")
    due_level = state.levels[side_of(parsed.banker)]
    if parse_rank(record["level"]) != due_level:
        raise RecordingError(f"level {record['level']} differs from the banker side's level {due_level}")
    if not is_duplicate_match(match):
        return None, state
    board = next_board(match)
    if board is None:
        raise RecordingError("every board of this table's round is played")
    try:
        check_board_record(board, parsed)
    except DuplicateError as exc:
        raise RecordingError(exc.message) from exc
    return board, state


def check_sizes(parsed: Record) -> None:
    """No play, throw or kitty holds more cards than a hand: no table can have played it (nor can it be stored)."""
    most = parsed.ruleset.hand_size
    for i, trick in enumerate(parsed.tricks):
        entries = [cards for _seat, cards in trick.plays]
        if trick.throw is not None:
            entries += [trick.throw.attempted, trick.throw.shown]
        if any(len(cards) > most for cards in entries):
            raise RecordingError(f"tricks[{i}]: more cards in one entry than a hand holds ({most})")
    if len(parsed.kitty) > most:
        raise RecordingError(f"kitty: more cards than a hand holds ({most})")


@transaction.atomic
def record_deal(
    match: Match,
    record: Mapping[str, Any],
    user,
    *,
    started_at: datetime | None = None,
    finished_at: datetime | None = None,
) -> Deal:
    """Record a whole DEAL-RECORD into the match, confirmed by ``user`` (the command's operator).

    Refused (``settling.Unsettled``) when the record's penalties leave a violation unsettled, as a judge's
    submit is: a confirmed deal never carries an open violation."""
    match = get_object_or_404(Match.objects.select_for_update(), pk=match.pk)
    board, state = check_record_fits(match, record)
    now = timezone.now()
    started_at = started_at or now
    # The deal starts where the table's state left the match (no deal is open: the played deals are all the
    # deals before it), unless it began before time was called (``fold.replay_deals``) or is a board's.
    same_start = board is None and (match.time_called_at is None or match.time_called_at <= started_at)
    if board is not None:
        number = board_place(match, board)
    else:
        number = (match.deals.aggregate(n=Max("number"))["n"] or 0) + 1
    rs = ruleset_for(match)
    t = trump_from_text(record["level"], record["trump"], rs.permanent_twos)

    def canon(text: str) -> str:
        return format_cards(parse_cards(text), t)

    deal = Deal(
        match=match,
        number=number,
        banker=record["banker"],
        declarer=record["banker"] if number == 1 and board is None else "",
        level=parse_rank(record["level"]),
        trump=str(record["trump"]).upper(),
        kitty=canon(record.get("kitty") or ""),
        started_at=started_at,
        changed_by=user,
        board=board,
    )
    deal._history_user = user
    deal.save()
    tricks, plays = [], []
    for i, entry in enumerate(record["tricks"]):
        throw = entry.get("throw") or {}
        tricks.append(
            Trick(
                deal=deal,
                number=i,
                throw_attempted=canon(throw.get("attempted", "")) if throw else "",
                throw_challenger=throw.get("challenger", ""),
                throw_shown=canon(throw.get("shown", "")) if throw else "",
            )
        )
    tricks = bulk_create_with_history(tricks, Trick, default_user=user)
    if not tricks or tricks[0].pk is None:  # some databases do not return keys from bulk inserts
        tricks = list(deal.tricks.order_by("number"))
    for trick, entry in zip(tricks, record["tricks"], strict=True):
        for order, (seat, cards) in enumerate(entry["plays"]):
            plays.append(Play(trick=trick, order=order, seat=seat, cards=canon(cards), recorded_by=user))
    bulk_create_with_history(plays, Play, default_user=user)
    for p in record.get("penalties") or ():
        penalty = Penalty(
            deal=deal,
            seat=p["seat"],
            code=p["code"],
            trick=p.get("trick"),
            note=p.get("note", ""),
            recorded_by=user,
        )
        penalty._history_user = user
        penalty.save()
    if match.started_at is None:
        match.started_at = started_at
        match.save(update_fields=["started_at"])
    verdict = judge_deal(deal, state.levels if same_start else None)
    require_record_settled(deal, verdict)  # refused: the transaction stores nothing
    deal.verdict = verdict.as_dict()
    deal.state = Deal.State.CONFIRMED
    deal.submitted_by = deal.confirmed_by = user
    deal.submitted_at = deal.confirmed_at = deal.finished_at = finished_at or now
    touch(deal, user)
    recompute_match(match)
    return deal
