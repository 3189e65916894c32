"""``in`` on an integer column, for values no such column holds (an id over 64 bits typed into a form).

Django answers ``exact``, ``lt`` and friends with such a value as "matches nothing" (or everything), but passes
``in`` values to the database as they are, and SQLite's driver cannot bind an integer over 64 bits: an
``OverflowError``, a 500 wherever a form takes a list of ids (the byes of a round, the admin's many-to-many
fields). Registered in ``TournamentsConfig.ready``.
"""

from __future__ import annotations

from django.db.models import IntegerField
from django.db.models.lookups import In


class IntegerIn(In):
    """Values out of the column's range are left out: they match nothing, as ``exact`` says for each."""

    def process_rhs(self, compiler, connection):
        if self.rhs_is_direct_value():
            low, high = connection.ops.integer_field_range(self.lhs.output_field.get_internal_type())
            self.rhs = [value for value in self.rhs if fits(value, low, high)]
        return super().process_rhs(compiler, connection)


def fits(value, low: int | None, high: int | None) -> bool:
    """Whether ``value`` may be compared with the column (anything but an integer out of its range may)."""
    if not isinstance(value, int):
        return True
    return (low is None or value >= low) and (high is None or value <= high)


def register() -> None:
    IntegerField.register_lookup(IntegerIn)
