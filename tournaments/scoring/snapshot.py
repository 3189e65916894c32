"""One read of a deal: its tricks, plays and penalties read once per request (the snapshot), and the typed record
the engine judges (``rules.record.Record``, built from the rows once, not through a DEAL-RECORD document), shared
by a play's checks and the screen drawn after it; the document itself for the exports."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from django.db import DEFAULT_DB_ALIAS

from rules.cards import Card, CardError, format_cards, parse_cards
from rules.facts import PenaltyCall
from rules.judge import judge
from rules.ranks import parse_rank
from rules.record import FORMAT, Record, RecordError, ThrowRecord, TrickRecord
from rules.ruleset import Ruleset, RulesetError
from rules.seats import SIDES, next_seat, side_of
from rules.verdict import Verdict
from tournaments.models import Deal, Play, Trick
from tournaments.scoring import sql
from tournaments.scoring.board_hands import start_hands
from tournaments.scoring.errors import RecordingError
from tournaments.scoring.fold import levels_before, penalty_entry
from tournaments.scoring.rulesets import ruleset_for
from tournaments.scoring.sql import TRICK_COLUMNS


def read_penalties(deal: Deal) -> tuple[list[dict], list[str]]:
    """DEAL-RECORD ``penalties`` in the order they were called, and the violations they settle (keys, not '')."""
    rows = sql.penalties(deal.pk)
    return [penalty_entry(*row[:4]) for row in rows], [row[4] for row in rows if row[4]]


class PlayedCards(NamedTuple):
    """One play as a snapshot keeps it: the seat and its cards (canonical text)."""

    seat: str
    cards: str


@dataclass
class Snapshot:
    """One read of a deal's tricks and plays, shared by the checks and the screen of a request.

    A write that adds a play appends it here (``add``) with the engine's verdict on it, so the screen after the
    write is drawn from what the write read and saved, without a second read or a second verdict.
    """

    deal: Deal
    rs: Ruleset
    tricks: list[Trick]
    plays: list[list[PlayedCards]]
    levels: Mapping[str, str]
    penalties: list[dict]
    verdict: Verdict | None = None
    penalty_keys: list[str] = dataclasses.field(default_factory=list)  # violations settled by a penalty
    proven: tuple[
        str, ...
    ] = ()  # violations the last play saved brought to light (``settlement.violation_key``)
    typed: Record | None = None  # the engine's record of the snapshot (``rec``), built once

    def judged(self) -> Verdict:
        """The engine's verdict on the snapshot's record (judged once)."""
        if self.verdict is None:
            self.verdict = judge_record(self.rec)
        return self.verdict

    @property
    def rec(self) -> Record:
        """The deal as the engine reads it, built from the rows once (``typed_record``)."""
        if self.typed is None:
            self.typed = typed_record(self)
        return self.typed

    def add(self, trick: Trick, play: Play, rec: Record, verdict: Verdict) -> None:
        """The play just saved (and its trick, when it leads one), with the engine's record and verdict of the
        deal now."""
        if not self.tricks or self.tricks[-1] is not trick:
            self.tricks.append(trick)
            self.plays.append([])
        self.plays[-1].append(PlayedCards(play.seat, play.cards))
        self.typed, self.verdict = rec, verdict

    @property
    def cards_played(self) -> int:
        return sum(len(p.cards.split()) for plays in self.plays for p in plays)

    @property
    def complete(self) -> bool:
        """All tricks played: every seat has played a whole hand."""
        return all(len(p) == 4 for p in self.plays) and self.cards_played == 4 * self.rs.hand_size

    @property
    def last(self) -> tuple[Trick | None, list[PlayedCards]]:
        """The last trick and its plays (none for a trick saved without plays: it waits for its lead)."""
        return (self.tricks[-1], self.plays[-1]) if self.tricks else (None, [])

    def record_tricks(self) -> list[dict]:
        """DEAL-RECORD ``tricks`` (plays in order, challenged throws)."""
        out = []
        for trick, plays in zip(self.tricks, self.plays, strict=True):
            entry: dict[str, Any] = {"plays": [[p.seat, p.cards] for p in plays]}
            if trick.throw_attempted:
                entry["throw"] = {
                    "attempted": trick.throw_attempted,
                    "challenger": trick.throw_challenger,
                    "shown": trick.throw_shown,
                }
            out.append(entry)
        return out

    def record(self, partial: bool = False) -> dict:
        """The deal as a DEAL-RECORD document, with its start ``levels`` when they agree with the deal's level."""
        deal = self.deal
        record: dict[str, Any] = {
            "format": FORMAT,
            "ruleset": deal.match.round.tournament.ruleset,
            "banker": deal.banker,
            "level": deal.level,
            "trump": deal.trump,
            "kitty": deal.kitty,
            "partial": partial,
            "tricks": self.record_tricks(),
            "penalties": self.penalties,
        }
        if (hands := start_hands(deal)) is not None:  # a duplicate board's: every play judged against them
            record["hands"] = {seat: format_cards(cards) for seat, cards in hands.items()}
        if self.levels.get(side_of(deal.banker)) == deal.level:
            record["levels"] = dict(self.levels)
        return record

    def due(self, verdict: Verdict) -> str | None:
        """Whose turn it is: the next seat in the trick, the last winner (``verdict``'s), or the banker first.

        A trick saved without plays (the service never leaves one, a damaged database might) waits for its
        lead, like a new trick."""
        trick, plays = self.last
        if trick is None:
            return self.deal.banker
        if 0 < len(plays) < 4:
            return next_seat(plays[-1].seat, self.rs.clockwise)
        if self.complete:
            return None
        if verdict.tricks:  # the last full trick's winner (the engine skips a trick without plays)
            return verdict.tricks[-1].winner
        return None if plays else self.deal.banker


def throw_of(trick: Trick) -> ThrowRecord | None:
    """A trick's challenged throw as the engine reads it (None: no challenge)."""
    if not trick.throw_attempted:
        return None
    return ThrowRecord(
        parse_cards(trick.throw_attempted), trick.throw_challenger, parse_cards(trick.throw_shown)
    )


def typed_record(snap: Snapshot) -> Record:
    """The snapshot as the engine's ``Record``: what ``parse_record`` makes of ``snap.record()``, built from the
    rows directly (canonical text, checked when it was saved); a row the engine cannot read is refused."""
    deal, rs = snap.deal, snap.rs
    try:
        level = parse_rank(deal.level)
        levels = None
        if snap.levels.get(side_of(deal.banker)) == deal.level:
            levels = {side: parse_rank(snap.levels[side]) for side in SIDES}
        tricks = tuple(
            TrickRecord(tuple((p.seat, parse_cards(p.cards)) for p in plays), throw_of(trick))
            for trick, plays in zip(snap.tricks, snap.plays, strict=True)
        )
        penalties = tuple(
            PenaltyCall(p["seat"], p["code"], p.get("trick"), p["note"]) for p in snap.penalties
        )
        return Record(
            rs,
            deal.banker,
            level,
            rs.trump(level, deal.trump),
            tricks,
            parse_cards(deal.kitty),
            hands=start_hands(deal),
            levels=levels,
            penalties=penalties,
        )
    except (CardError, KeyError, ValueError) as exc:
        raise RecordingError(str(exc)) from exc


def with_play(rec: Record, seat: str, cards: tuple[Card, ...], throw: ThrowRecord | None) -> Record:
    """``rec`` with one play more: the lead of a new trick (with its challenged throw), or the next play of the
    last one. A trick saved without plays takes the play as its lead, as the snapshot does."""
    tricks = rec.tricks
    if not tricks or len(tricks[-1].plays) == 4:
        tricks += (TrickRecord(((seat, cards),), throw),)
    else:
        last = tricks[-1]
        tricks = (*tricks[:-1], TrickRecord((*last.plays, (seat, cards)), last.throw))
    return dataclasses.replace(rec, tricks=tricks)


def read_tricks(deal: Deal) -> tuple[list[Trick], list[list[PlayedCards]]]:
    """The deal's tricks, each with its plays in order, in one query (so one consistent read)."""
    return tricks_from_rows(sql.tricks_with_plays(deal.pk))


def tricks_from_rows(rows: Iterable[tuple]) -> tuple[list[Trick], list[list[PlayedCards]]]:
    """One deal's tricks and plays from the rows of ``sql.tricks_with_plays`` (one row a play, in order)."""
    db, split = DEFAULT_DB_ALIAS, len(TRICK_COLUMNS)
    tricks: list[Trick] = []
    plays: list[list[PlayedCards]] = []
    for row in rows:
        if not tricks or tricks[-1].pk != row[0]:
            tricks.append(Trick.from_db(db, TRICK_COLUMNS, row[:split]))
            plays.append([])
        if (
            row[split] is not None
        ):  # a trick without plays (LEFT JOIN) stays in, empty, as the engine must see it
            plays[-1].append(PlayedCards(*row[split:]))
    return tricks, plays


def start_levels(deal: Deal) -> dict[str, str]:
    """Both sides' levels when the deal began, as every snapshot of it is read with them: as stored on the deal
    (``Deal.start_levels``, which the fold keeps, ``fold.refresh_start_levels``); folded when it has none stored
    (``fold.levels_before``)."""
    return dict(deal.start_levels) if deal.start_levels else levels_before(deal)


def snapshot(deal: Deal, levels: Mapping[str, str]) -> Snapshot:
    """Read the deal's tricks once; ``levels`` are both sides' levels when it began (``start_levels``)."""
    tricks, plays = read_tricks(deal)
    penalties, keys = read_penalties(deal)
    return Snapshot(deal, ruleset_for(deal.match), tricks, plays, levels, penalties, penalty_keys=keys)


@dataclass
class DealRows:
    """Many deals' tricks, plays and penalties read at once (two statements a few hundred deals), from which
    each deal's snapshot is made without another read: the whole tournament scored again reads this way."""

    tricks: dict[int, list[tuple]]
    penalties: dict[int, list[tuple]]

    @classmethod
    def read(cls, deal_ids: Sequence[int]) -> DealRows:
        tricks: dict[int, list[tuple]] = {}
        for row in sql.tricks_of_deals(deal_ids):
            tricks.setdefault(row[1], []).append(row)  # TRICK_COLUMNS: the deal's id second
        penalties: dict[int, list[tuple]] = {}
        for row in sql.penalties_of_deals(deal_ids):
            penalties.setdefault(row[-1], []).append(row)
        return cls(tricks, penalties)

    def snapshot(self, deal: Deal, rs: Ruleset, levels: Mapping[str, str]) -> Snapshot:
        """``snapshot(deal, levels)`` from the rows read, under ``rs`` (the match's ruleset)."""
        tricks, plays = tricks_from_rows(self.tricks.get(deal.pk, ()))
        keys = [row[4] for row in self.penalties.get(deal.pk, []) if row[4]]
        return Snapshot(deal, rs, tricks, plays, levels, self.penalty_entries(deal.pk), penalty_keys=keys)

    def penalty_entries(self, deal_id: int) -> list[dict]:
        """The deal's DEAL-RECORD ``penalties`` in the order they were called (``read_penalties``)."""
        return [penalty_entry(*row[:4]) for row in self.penalties.get(deal_id, [])]


def judge_record(rec: Record) -> Verdict:
    """The engine's verdict on a typed record (live: a deal in progress is faulted only for what is certain)."""
    try:
        return judge(rec, live=True)
    except (RecordError, RulesetError) as exc:
        raise RecordingError(str(exc)) from exc


def judge_probe(record: dict, rs: Ruleset | None = None) -> Verdict:
    """The engine's verdict on a DEAL-RECORD document; a record it cannot read is the service's refusal. ``rs``,
    the tournament's ruleset already built, stands in for the record's spec (not read again on every play)."""
    if rs is not None:
        record = {**record, "ruleset": rs}
    try:
        return judge(record, live=True)
    except (RecordError, RulesetError) as exc:
        raise RecordingError(str(exc)) from exc
