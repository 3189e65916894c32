"""The process-wide cache of each deal as its last play left it: the snapshot, the engine's typed record and its
verdict, so the next play's check reads no trick and judges the deal once, on the record extended by one play."""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass

from django.db import transaction

from rules.record import Record
from rules.verdict import Verdict
from tournaments.models import Deal, Trick
from tournaments.scoring.snapshot import Snapshot, snapshot


@dataclass(frozen=True)
class Turn:
    """What a play's check needs of the deal before it: whose turn it is, and the violations already known (a
    play is refused for, or proves, only new ones)."""

    due: str | None
    known: frozenset[tuple[int | None, str | None, str]]

    @classmethod
    def of(cls, snap: Snapshot, verdict: Verdict) -> Turn:
        return cls(snap.due(verdict), frozenset((v.trick, v.seat, v.code) for v in verdict.violations))


@dataclass(frozen=True)
class Kept:
    """A deal as a committed play left it: its tricks and plays, penalties, the engine's record and verdict."""

    tricks: tuple[Trick, ...]
    plays: tuple[tuple, ...]
    penalties: tuple[dict, ...]
    penalty_keys: tuple[str, ...]
    rec: Record
    verdict: Verdict
    turn: Turn


# The deal after each play this process saved, under its id, version, time of change, ruleset and start levels —
# kept only once committed, and a version is committed once (every write to a deal claims a new one) — so the
# next play (on this process: a tablet keeps its connection) reads no trick and judges the deal once.
KEPT: dict[tuple, Kept] = {}
KEPT_DEALS = 2048
_kept_lock = threading.Lock()


def kept_key(deal: Deal, rs, levels: Mapping[str, str]) -> tuple:
    return (deal.pk, deal.version, deal.changed_at, rs, tuple(sorted(levels.items())))


def before_play(deal: Deal, rs, levels: Mapping[str, str]) -> tuple[Snapshot, Turn]:
    """The deal before a play, and its turn: as the last play on this process left it, else read and judged."""
    kept = KEPT.get(kept_key(deal, rs, levels))
    if kept is None:
        snap = snapshot(deal, levels)
        return snap, Turn.of(snap, snap.judged())
    snap = Snapshot(
        deal,
        rs,
        list(kept.tricks),
        [list(plays) for plays in kept.plays],
        levels,
        list(kept.penalties),
        kept.verdict,
        list(kept.penalty_keys),
        typed=kept.rec,
    )
    return snap, kept.turn


def keep(snap: Snapshot) -> None:
    """Keep the deal after the play just saved on ``snap``, once its transaction commits."""
    key = kept_key(snap.deal, snap.rs, snap.levels)
    verdict = snap.judged()
    kept = Kept(
        tuple(snap.tricks),
        tuple(tuple(plays) for plays in snap.plays),
        tuple(snap.penalties),
        tuple(snap.penalty_keys),
        snap.rec,
        verdict,
        Turn.of(snap, verdict),
    )

    def store() -> None:
        with _kept_lock:
            if len(KEPT) >= KEPT_DEALS:
                del KEPT[next(iter(KEPT))]  # the oldest
            KEPT[key] = kept

    transaction.on_commit(store)
