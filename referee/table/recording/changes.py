"""What changed in a deal since it was first submitted, read from its versions (django-simple-history): the
result before and after, the penalties added and removed, the plays changed, the kitty, the director's
dismissals, and every reopening (who, when, why) — so the person who confirms sees the correction, not only
its outcome.

A submitted deal is frozen (``access.require_open``): every change after the first submit came after a
reopening, so the deal as it stood then is the state of every row at the first submit's history date.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from tournaments.models import Deal, Penalty, Play, Ruling, Trick


@dataclass(frozen=True)
class Reopening:
    """One reopening of the deal: who, when, why."""

    by: Any
    at: datetime
    reason: str


@dataclass(frozen=True)
class PlayChange:
    """One seat's cards in one trick (counted from 0), as first submitted and as now ('' for none)."""

    trick: int
    seat: str
    before: str
    after: str


@dataclass
class DealChanges:
    """The difference between the deal as first submitted and as it stands."""

    submitted_at: datetime
    reopenings: list[Reopening]
    result_before: dict | None
    total_before: int | None
    kitty_before: str
    kitty_after: str
    penalties_added: list[tuple[str, str, int | None]] = field(default_factory=list)
    penalties_removed: list[tuple[str, str, int | None]] = field(default_factory=list)
    plays: list[PlayChange] = field(default_factory=list)
    dismissals_added: list[str] = field(default_factory=list)
    dismissals_removed: list[str] = field(default_factory=list)

    @property
    def entries_changed(self) -> bool:
        """Whether anything the judge entered differs (not only the result)."""
        return bool(
            self.penalties_added
            or self.penalties_removed
            or self.plays
            or self.kitty_before != self.kitty_after
            or self.dismissals_added
            or self.dismissals_removed
        )


def as_of(rows: Iterable[Any], when: datetime) -> list[Any]:
    """The rows (history records of several objects) as they stood at ``when``: each object's last record up
    to then, left out when that record is its deletion."""
    last: dict[Any, Any] = {}
    for row in sorted(rows, key=lambda r: (r.history_date, r.history_id)):
        if row.history_date <= when:
            last[row.id] = row
    return [row for row in last.values() if row.history_type != "-"]


def penalty_key(p) -> tuple[str, str, int | None]:
    return (p.seat, p.code, p.trick)


def multiset_difference(before: Counter, after: Counter) -> tuple[list, list]:
    """What ``after`` holds that ``before`` did not (added), and the other way round (removed)."""
    return sorted((after - before).elements(), key=str), sorted((before - after).elements(), key=str)


def plays_at(tricks: Iterable[Any], plays: Iterable[Any]) -> dict[tuple[int, str], str]:
    """(trick number, seat) → cards, for tricks and plays as they stood (history records or rows)."""
    numbers = {t.id: t.number for t in tricks}
    return {(numbers[p.trick_id], p.seat): p.cards for p in plays if p.trick_id in numbers}


def first_submission(deal: Deal):
    """The deal's history record of its first submit (a whole record is submitted and confirmed at once), or
    None when it was never submitted."""
    return (
        Deal.history.filter(id=deal.pk, state__in=[Deal.State.SUBMITTED, Deal.State.CONFIRMED])
        .order_by("history_date", "history_id")
        .first()
    )


def deal_changes(deal: Deal) -> DealChanges | None:
    """What changed since ``deal`` was first submitted; None when it was never submitted, or never reopened
    since (nothing can have changed)."""
    first = first_submission(deal)
    if first is None or deal.reopened_at is None or deal.reopened_at < first.history_date:
        return None
    when = first.history_date
    trick_rows = list(Trick.history.filter(deal_id=deal.pk))
    trick_ids = {t.id for t in trick_rows}
    play_rows = list(Play.history.filter(trick_id__in=trick_ids))
    before_plays = plays_at(as_of(trick_rows, when), as_of(play_rows, when))
    now_plays = plays_at(Trick.objects.filter(deal=deal), Play.objects.filter(trick__deal=deal))
    penalties_before = Counter(map(penalty_key, as_of(Penalty.history.filter(deal_id=deal.pk), when)))
    penalties_now = Counter(map(penalty_key, deal.penalties.all()))
    dismissed = Ruling.Kind.DISMISSED
    rulings_then = as_of(Ruling.history.filter(deal_id=deal.pk), when)
    dismissals_before = Counter(r.violation for r in rulings_then if r.kind == dismissed)
    dismissals_now = Counter(deal.rulings.filter(kind=dismissed).values_list("violation", flat=True))
    changes = DealChanges(
        submitted_at=when,
        reopenings=reopenings(deal, when),
        result_before=(first.verdict or {}).get("result"),
        total_before=((first.verdict or {}).get("attackers_points") or {}).get("total"),
        kitty_before=first.kitty,
        kitty_after=deal.kitty,
        plays=[
            PlayChange(trick, seat, before_plays.get((trick, seat), ""), now_plays.get((trick, seat), ""))
            for trick, seat in sorted({*before_plays, *now_plays})
            if before_plays.get((trick, seat)) != now_plays.get((trick, seat))
        ],
    )
    changes.penalties_added, changes.penalties_removed = multiset_difference(penalties_before, penalties_now)
    changes.dismissals_added, changes.dismissals_removed = multiset_difference(
        dismissals_before, dismissals_now
    )
    return changes


def reopenings(deal: Deal, since: datetime) -> list[Reopening]:
    """Every reopening after ``since``, oldest first, from the deal's history records."""
    seen: dict[datetime, Reopening] = {}
    rows = Deal.history.filter(id=deal.pk, reopened_at__gte=since).select_related("reopened_by")
    for row in rows.order_by("history_date", "history_id"):
        seen.setdefault(row.reopened_at, Reopening(row.reopened_by, row.reopened_at, row.reopen_reason))
    return list(seen.values())
