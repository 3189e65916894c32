"""The judge's verdict on a deal (DEAL-RECORD): its violations, one summary per trick, the facts scoring needs
and, for a complete deal, the score. Plain frozen data."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, NamedTuple

from .facts import TrickFacts
from .scoring import DealScore


@dataclass(frozen=True, slots=True)
class Violation:
    """One fault: ``trick`` 0-based (None for the whole deal), the seat at fault (None: nobody in particular)."""

    trick: int | None
    seat: str | None
    code: str
    message: str
    message_zh: str

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


class TrickSummary(NamedTuple):
    """The verdict's view of one trick."""

    leader: str
    winner: str | None
    points: int
    lead_shape: str

    def as_dict(self) -> dict[str, Any]:
        return self._asdict()


@dataclass(frozen=True, slots=True)
class Verdict:
    """The judge's verdict (DEAL-RECORD). ``complete`` false ⇒ no ``score`` (a live or partial record)."""

    violations: tuple[Violation, ...]
    tricks: tuple[TrickSummary, ...]
    facts: tuple[TrickFacts, ...] = ()
    complete: bool = False
    score: DealScore | None = None

    @property
    def ok(self) -> bool:
        return not self.violations

    @property
    def attackers_points(self) -> dict[str, int] | None:
        """The verdict's ``attackers_points`` (built when asked: the live page never needs it)."""
        return None if self.score is None else self.score.attackers_points.as_dict()

    @property
    def result(self) -> dict[str, Any] | None:
        """The verdict's ``result``; None for a live or partial record."""
        return None if self.score is None else self.score.result.as_dict()

    def as_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "violations": [v.as_dict() for v in self.violations],
            "tricks": [t.as_dict() for t in self.tricks],
            "attackers_points": self.attackers_points,
            "result": self.result,
        }
