"""The process-wide turn cache: the deal after each play kept, so the next play's check judges the deal once."""

from __future__ import annotations

import threading
from dataclasses import dataclass

from django.db import transaction

from referee.table.recording.snapshot import Snapshot, judge_probe
from rules.judge import Verdict


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
