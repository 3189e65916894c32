"""The load test's checks and figures: the database against what the clients were told; percentiles."""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass


@dataclass
class Tally:
    """The database against what the clients were told, for one deal."""

    lost: int = 0  # acknowledged, not stored
    duplicated: int = 0  # stored where no client's play belongs (a second copy, or a play never sent)
    rejected_stored: int = 0  # refused to the client, stored all the same

    def add(self, other: Tally) -> None:
        self.lost += other.lost
        self.duplicated += other.duplicated
        self.rejected_stored += other.rejected_stored


def compare_plays(
    expected: Sequence[tuple],
    stored: Sequence[tuple],
    *,
    acked: set[int],
    rejected: AbstractSet[int] = frozenset(),
    unresolved: AbstractSet[int] = frozenset(),
) -> Tally:
    """Stored plays must be the record's plays in order, each one acknowledged (or of unknown outcome)."""
    tally = Tally()
    tally.lost = sum(1 for i in acked if i >= len(stored) or stored[i] != expected[i])
    for i, key in enumerate(stored):
        if i >= len(expected) or key != expected[i]:
            tally.duplicated += 1
        elif i in rejected:
            tally.rejected_stored += 1
        elif i not in acked and i not in unresolved:
            tally.duplicated += 1
    return tally


def increasing(values: Sequence[int]) -> bool:
    return all(a < b for a, b in zip(values, values[1:], strict=False))


def percentile(values: Sequence[float], q: int) -> float:
    if not values:
        return float("nan")
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


def table_text(rows: Sequence[tuple[str, str]]) -> str:
    width = max(len(name) for name, _ in rows)
    return "\n".join(f"{name:<{width}}  {value}" for name, value in rows)
