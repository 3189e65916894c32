"""What has been ruled on a deal's violations, read from the database: its keyed penalties, confirmations and
dismissals (``read_settlement``), and which of a verdict's violations nobody settled (``Settlement.open``).

Each violation is keyed by its trick, seat and code (``violation_key``), so a ruling on one stays with it while the
deal grows around it. The table's page and its writes read it (``referee.table.recording.settling`` settles a
violation), and so does a re-scoring under new rules (``rescoring``): a deal left with an open violation refuses.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from rules.scoring import PENALTY_FOR_VIOLATION
from rules.verdict import Verdict, Violation
from tournaments.competition.accounts import display_name
from tournaments.models import Deal, Penalty, Ruling


def violation_key(trick: int | None, seat: str | None, code: str) -> str:
    """``3:W:revoke_suit`` (trick counted from 0; ``-`` for none): what rulings and penalties are keyed by."""
    return f"{'-' if trick is None else trick}:{seat or '-'}:{code}"


def key_of(v: Violation | Mapping[str, Any]) -> str:
    """The key of an engine violation (the object or its ``as_dict``)."""
    if isinstance(v, Violation):
        return violation_key(v.trick, v.seat, v.code)
    return violation_key(v["trick"], v["seat"], v["code"])


def penalty_for(v: Violation) -> str | None:
    """The penalty the ruleset gives for a violation; None when it has none or nobody is at fault."""
    return PENALTY_FOR_VIOLATION.get(v.code) if v.seat else None


def distinct(violations: Iterable[Violation]) -> list[Violation]:
    """One violation per key, in the verdict's order (a deck count may name several cards under one key)."""
    seen: dict[str, Violation] = {}
    for v in violations:
        seen.setdefault(key_of(v), v)
    return list(seen.values())


# ---------------------------------------------------------------- what has been ruled


@dataclass(frozen=True)
class Mark:
    """A penalty or a ruling on one violation: who made it, when, and its note."""

    pk: int
    by: str
    at: Any
    note: str = ""
    seat: str = ""
    code: str = ""
    trick: int | None = None


@dataclass
class Settlement:
    """What has been ruled on a deal's violations: keyed penalties, confirmations, dismissals."""

    penalties: dict[str, Mark] = field(default_factory=dict)
    played: dict[str, Mark] = field(default_factory=dict)
    dismissed: dict[str, Mark] = field(default_factory=dict)
    # Penalties the judge called with the form: one that names the violation's seat, trick and the ruleset's
    # penalty for it is that penalty applied, so the violation is settled (and not penalised twice).
    called: dict[str, Mark] = field(default_factory=dict)
    unkeyed: list[Mark] = field(default_factory=list)

    def settled(self, key: str) -> bool:
        return key in self.penalties or key in self.dismissed or key in self.called

    def note_called(self, violations: Iterable[Violation], marks: Iterable[Mark]) -> None:
        """Match the form's penalties (seat, trick, code) to the verdict's violations they settle."""
        by_place: dict[tuple[str | None, int | None, str | None], Mark] = {
            (m.seat, m.trick, m.code): m for m in marks
        }
        for v in violations:
            mark = by_place.get((v.seat, v.trick, penalty_for(v)))
            if mark is not None:
                self.called.setdefault(key_of(v), mark)

    def status(self, key: str) -> str:
        """``penalty``, ``dismissed`` or ``open``."""
        if key in self.penalties or key in self.called:
            return "penalty"
        return "dismissed" if key in self.dismissed else "open"

    def open(self, verdict: Verdict) -> list[Violation]:
        """The verdict's violations nobody settled."""
        self.note_called(verdict.violations, self.unkeyed)
        return [v for v in distinct(verdict.violations) if not self.settled(key_of(v))]


def username(user) -> str:
    """Who recorded or ruled, as the pages name an account (a table's device by its table)."""
    return display_name(user) if user is not None else ""


def read_settlement(deal: Deal) -> Settlement:
    """The deal's keyed penalties and its rulings (two queries)."""
    out = Settlement()
    for p in Penalty.objects.filter(deal_id=deal.pk).select_related("recorded_by"):
        mark = Mark(p.pk, username(p.recorded_by), p.recorded_at, p.note, p.seat, p.code, p.trick)
        if p.violation:
            out.penalties[p.violation] = mark
        else:
            out.unkeyed.append(mark)
    for r in Ruling.objects.filter(deal_id=deal.pk).select_related("made_by"):
        kind = out.played if r.kind == Ruling.Kind.PLAYED else out.dismissed
        kind[r.violation] = Mark(r.pk, username(r.made_by), r.made_at, r.note, r.seat, r.code, r.trick)
    return out
