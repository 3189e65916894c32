"""What every job of the recording service shares: the ruleset, the record permission, a locked and versioned
deal, and one read of its tricks (the snapshot) with the DEAL-RECORD document the engine judges.

Each write of a deal names the version the writer saw; a stale version is refused with who changed the deal and
when (optimistic concurrency), so nothing is overwritten silently.
"""

from __future__ import annotations

import dataclasses
import json
import re
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any, NamedTuple

from django.db import DEFAULT_DB_ALIAS, connection, transaction
from django.db.models import Model
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext as _

from referee.table.recording.errors import DraftRound, Finished, PermissionRefused, RecordingError, StaleEdit
from referee.table.recording.prepared import Prepared, history_row, inserter
from rules.cards import CardError, format_cards, parse_cards
from rules.judge import Verdict, judge
from rules.record import FORMAT, RecordError
from rules.ruleset import Ruleset, RulesetError
from rules.seats import next_seat, side_of
from tournaments.competition.access import can_record, in_draft
from tournaments.competition.finishing import refusal
from tournaments.models import SEAT_CHOICES, Deal, Match, Penalty, Play, Round, Trick

SEAT_NAMES = dict(SEAT_CHOICES)
CARD_SEPARATORS = re.compile(r"[\s,，、;]+")  # as rules.cards splits typed cards
TRICK_COLUMNS = ("id", "deal_id", "number", "throw_attempted", "throw_challenger", "throw_shown")


def ruleset_for(match: Match) -> Ruleset:
    """The tournament's ruleset, with its own match time limit when the TD set one."""
    tournament = match.round.tournament
    return tournament_ruleset(json.dumps(tournament.ruleset, sort_keys=True), tournament.match_time_limit)


@lru_cache(maxsize=256)
def tournament_ruleset(spec: str, time_limit: int | None) -> Ruleset:
    """``ruleset_for`` by the spec's JSON: ``Ruleset.from_spec`` is pure and a Ruleset frozen, so each is built once."""
    rs = Ruleset.from_spec(json.loads(spec))
    if time_limit:
        rs = dataclasses.replace(rs, time_limit_minutes=time_limit)
    return rs


def require_entries(match: Match) -> None:
    """A draft round's matches take no entries, not even the TD's: publishing the round comes first. A finished
    tournament's take none either (``Finished``, 409), until the director reopens it: its results are final. Every
    write of the recording service asks here first (through ``require_record`` or ``lock_for_entry``)."""
    if in_draft(match):
        raise DraftRound(
            _("This round is still a draft: the director publishes its pairing before any entry.")
        )
    if match.round.tournament.is_finished:
        raise Finished(refusal())


def lock_for_entry(match: Match) -> Match:
    """The match re-read under its row lock, refused if its round is a draft now or its tournament finished. A
    round goes back to draft only while none of its matches has begun, holding their locks
    (``pairing.unpublish_round``), and a tournament is finished holding every match's lock
    (``finishing.finish_tournament``), so whatever a request read before the lock, a table begins, and a match's
    result changes, only in a published round of an open tournament."""
    match = get_object_or_404(Match.objects.select_for_update(), pk=match.pk)
    # Its round and tournament are read after the lock, in a statement of their own: on PostgreSQL a read that
    # waited for the lock returns the rows it only joined as they were when it began, so a draft or a finish
    # committed meanwhile would go unseen (tests/test_races.py).
    match.round = Round.objects.select_related("tournament").get(pk=match.round_id)
    require_entries(match)
    return match


def require_record(user, match: Match) -> None:
    """Refuse a write by anyone ``tournaments.competition.access.can_record`` does not allow."""
    require_entries(match)
    if not can_record(user, match):
        raise PermissionRefused(_("You may not record this match: it is assigned to another judge."))


def require_open(deal: Deal) -> None:
    """Refuse a change to a deal already submitted (the TD reopens it first)."""
    if deal.state != Deal.State.RECORDING:
        raise RecordingError(_("This deal has been submitted; it can no longer be changed here."))


def seat_name(seat: str | None) -> str:
    """A seat in the active language (the model's label: ``W`` → West), '' for none."""
    return str(SEAT_NAMES[seat]) if seat else ""


def parse_card_text(text: str, field: str) -> str:
    """Canonical text of typed cards; a bad token is named in one sentence of the judge's language (the
    engine's own ``CardError`` is English), nothing guessed."""
    try:
        return format_cards(parse_cards(text))
    except CardError as exc:
        token = unreadable_token(text)
        raise RecordingError(
            _("%(field)s: “%(token)s” is not a card; write cards like SA H10 BJ.")
            % {"field": field, "token": token}
        ) from exc


def unreadable_token(text: str) -> str:
    """The first token of ``text`` the notation cannot read (the whole text when no single token fails)."""
    for token in CARD_SEPARATORS.split(text.strip()):
        try:
            parse_cards(token)
        except CardError:
            return token
    return text.strip()


# ---------------------------------------------------------------- versions


def lock_deal(deal: Deal, version: int | None) -> Deal:
    """Re-read the deal under a row lock and check the writer saw its current version."""
    return read_deal(deal, version, lock=True)


def read_deal(deal: Deal, version: int | None, *, lock: bool = False) -> Deal:
    """The deal as it is now (under a row lock when ``lock``), refused as stale unless at ``version`` (None:
    any)."""
    rows = Deal.objects.select_for_update(of=("self",)) if lock else Deal.objects
    current = rows.get(pk=deal.pk)
    if Deal.match.is_cached(deal):
        current.match = deal.match
    if version is not None and int(version) != current.version:
        raise stale(current)
    return current


def stale(current: Deal) -> StaleEdit:
    """The refusal of a write that saw an older version of ``current``: who changed it, and when."""
    who = current.changed_by.get_username() if current.changed_by else _("someone")
    when = timezone.localtime(current.changed_at).strftime("%H:%M:%S")
    return StaleEdit(
        _(
            "This deal was changed by %(who)s at %(when)s. The page now shows the current state; check it and "
            "enter your change again."
        )
        % {"who": who, "when": when},
        version=current.version,
    )


def claim(deal: Deal, user, version: int) -> None:
    """Count a change to a deal read without a lock, provided it is still at ``version``.

    One conditional UPDATE checks the version, bumps it and takes the row (on SQLite the write lock), so the
    checks before it run outside the lock; a change saved since the read is refused as stale, with who made it,
    before anything is written. The deal's history row says who and when, as ``touch``'s does.
    """
    now = timezone.now()
    changed_by = user if getattr(user, "is_authenticated", False) else None
    if not claim_version(deal.pk, version, changed_by, now):
        raise stale(Deal.objects.select_related("changed_by").get(pk=deal.pk))
    deal.version, deal.changed_by, deal.changed_at = version + 1, changed_by, now
    deal._history_user = changed_by
    history = history_of(Deal)
    inserter(history.model).insert(history_row(history, deal, changed_by, "~", now))


def claim_version(pk: int, version: int, changed_by, now) -> bool:
    """``UPDATE deal SET version = version + 1, changed_by, changed_at WHERE id = pk AND version = version``, its
    SQL written once per database (the ORM would build it again on every play); whether the deal was at
    ``version``."""
    sql, fields = claim_statement(connection.vendor)
    values = (version + 1, changed_by.pk if changed_by else None, now, pk, version)
    params = [f.get_db_prep_save(value, connection) for f, value in zip(fields, values, strict=True)]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.rowcount == 1


@cache
def claim_statement(vendor: str) -> tuple[str, tuple]:
    """``claim_version``'s UPDATE for the database ``vendor``, with the field of each parameter."""
    version, by, at, pk = (Deal._meta.get_field(name) for name in ("version", "changed_by", "changed_at", "id"))
    quote = connection.ops.quote_name
    v = quote(version.column)
    sql = (
        f"UPDATE {quote(Deal._meta.db_table)} SET {v} = %s, {quote(by.column)} = %s, {quote(at.column)} = %s "
        f"WHERE {quote(pk.column)} = %s AND {v} = %s"
    )
    return sql, (version, by, at, pk, version)


@cache
def history_of(model: type[Model]) -> Any:
    """A model's history manager, made once: simple-history makes a new manager class at every ``.history``
    (its save signal too), a large part of a play's cost."""
    return model.history


def insert_with_history(row: Model, user) -> None:
    """Insert ``row`` with its history row ('+', who and when), as saving it would: both with a prepared insert,
    and without building the history manager again."""
    inserter(type(row)).insert(row)
    history = history_of(type(row))
    inserter(history.model).insert(history_row(history, row, user))


def touch(deal: Deal, user) -> None:
    """Count a change: a new version, and who made it (kept in the deal's history too)."""
    deal.version += 1
    deal.changed_by = user if getattr(user, "is_authenticated", False) else None
    deal._history_user = deal.changed_by
    deal.save()


# ---------------------------------------------------------------- one read of a deal


@contextmanager
def consistent_read() -> Iterator[None]:
    """Several queries that see one state of the database, so a reader never sees half of another's write.

    SQLite: a deferred transaction (no write lock; in WAL mode its first read fixes the snapshot). PostgreSQL:
    a repeatable-read transaction. Inside a transaction already, that transaction's view is kept.
    """
    if connection.in_atomic_block:
        yield
        return
    if connection.vendor == "sqlite":
        connection.ensure_connection()  # connecting reads the configured mode: connect before changing it
        mode, connection.transaction_mode = connection.transaction_mode, "DEFERRED"
        try:
            with transaction.atomic():
                connection.transaction_mode = mode
                yield
        finally:
            connection.transaction_mode = mode
        return
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        yield


def penalty_entry(seat: str, code: str, trick: int | None, note: str) -> dict:
    """One DEAL-RECORD ``penalties`` entry (``trick`` left out when the judge named none)."""
    entry: dict[str, Any] = {"seat": seat, "code": code, "note": note}
    if trick is not None:
        entry["trick"] = trick
    return entry


def penalty_entries(deal: Deal) -> list[dict]:
    """DEAL-RECORD ``penalties``, in the order they were called."""
    return read_penalties(deal)[0]


PENALTIES = Prepared(
    lambda deal_id: (
        Penalty.objects.filter(deal_id=deal_id)
        .order_by("recorded_at", "pk")
        .values_list("seat", "code", "trick", "note", "violation")
    )
)


def read_penalties(deal: Deal) -> tuple[list[dict], list[str]]:
    """DEAL-RECORD ``penalties`` in the order they were called, and the violations they settle (keys, not '')."""
    rows = PENALTIES.rows(deal.pk)
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
    ] = ()  # violations the last play saved brought to light (``settling.violation_key``)

    def judged(self) -> Verdict:
        """The engine's verdict on the snapshot's record (judged once)."""
        if self.verdict is None:
            self.verdict = judge_probe(self.record(), self.rs)
        return self.verdict

    def add(self, trick: Trick, play: Play, verdict: Verdict) -> None:
        """The play just saved (and its trick, when it leads one), with the engine's verdict on the deal now."""
        if not self.tricks or self.tricks[-1] is not trick:
            self.tricks.append(trick)
            self.plays.append([])
        self.plays[-1].append(PlayedCards(play.seat, play.cards))
        self.verdict = verdict

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


# ---------------------------------------------------------------- the turn a play is checked against


@dataclass(frozen=True)
class Turn:
    """What a play's check needs of the deal before it: whose turn it is, and the violations already known (a
    play is refused for, or proves, only new ones)."""

    due: str | None
    known: frozenset[tuple[int, str | None, str]]

    @classmethod
    def of(cls, snap: Snapshot, verdict: Verdict) -> Turn:
        return cls(snap.due(verdict), frozenset((v.trick, v.seat, v.code) for v in verdict.violations))


# Each play's check judges the deal after the play; the deal before it is the previous play's "after". The turn
# after each play this process saved is kept here under the deal's id, version, time of change and ruleset —
# only once committed, and a version is committed once — so the next play's check (on this process: a tablet
# keeps its connection) judges the deal once instead of twice.
TURNS: dict[tuple, Turn] = {}
TURNS_KEPT = 2048
_turns_lock = threading.Lock()


def turn_key(snap: Snapshot) -> tuple:
    deal = snap.deal
    return (deal.pk, deal.version, deal.changed_at, snap.rs)


def turn_before(snap: Snapshot, probe: dict) -> Turn:
    """The turn on ``snap`` (the deal before the play): kept from the play that saved it, else judged."""
    found = TURNS.get(turn_key(snap))
    return found if found is not None else Turn.of(snap, judge_probe(probe, snap.rs))


def remember_turn(snap: Snapshot) -> None:
    """Keep the turn after the play just saved on ``snap``, once its transaction commits."""
    key, turn = turn_key(snap), Turn.of(snap, snap.judged())

    def keep() -> None:
        with _turns_lock:
            if len(TURNS) >= TURNS_KEPT:
                del TURNS[next(iter(TURNS))]  # the oldest
            TURNS[key] = turn

    transaction.on_commit(keep)


TRICKS_WITH_PLAYS = Prepared(
    lambda deal_id: (
        Trick.objects.filter(deal_id=deal_id)
        .order_by("number", "plays__order")
        .values_list(*TRICK_COLUMNS, "plays__seat", "plays__cards")
    )
)


def read_tricks(deal: Deal) -> tuple[list[Trick], list[list[PlayedCards]]]:
    """The deal's tricks, each with its plays in order, in one query (so one consistent read)."""
    db, split = DEFAULT_DB_ALIAS, len(TRICK_COLUMNS)
    tricks: list[Trick] = []
    plays: list[list[PlayedCards]] = []
    for row in TRICKS_WITH_PLAYS.rows(deal.pk):
        if not tricks or tricks[-1].pk != row[0]:
            tricks.append(Trick.from_db(db, TRICK_COLUMNS, row[:split]))
            plays.append([])
        if (
            row[split] is not None
        ):  # a trick without plays (LEFT JOIN) stays in, empty, as the engine must see it
            plays[-1].append(PlayedCards(*row[split:]))
    return tricks, plays


def snapshot(deal: Deal, levels: Mapping[str, str]) -> Snapshot:
    """Read the deal's tricks once; ``levels`` are both sides' levels when it began (``match_fold.start_levels``)."""
    tricks, plays = read_tricks(deal)
    penalties, keys = read_penalties(deal)
    return Snapshot(deal, ruleset_for(deal.match), tricks, plays, levels, penalties, penalty_keys=keys)


def judge_probe(record: dict, rs: Ruleset | None = None) -> Verdict:
    """The engine's verdict on a DEAL-RECORD document; a record it cannot read is the service's refusal. ``rs``,
    the tournament's ruleset already built, stands in for the record's spec (not read again on every play)."""
    if rs is not None:
        record = {**record, "ruleset": rs}
    try:
        return judge(record, live=True)
    except (RecordError, RulesetError) as exc:
        raise RecordingError(str(exc)) from exc
