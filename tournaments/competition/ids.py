"""Ids sent in a form: a number past 64 bits is no row's id on any database, so a form refuses it as it refuses
any id that names no row, before a query is made (SQLite's driver cannot bind such a number: an OverflowError,
a 500, where a form takes a list of ids — the byes of a round, a series' tournaments, the admin's
many-to-many fields and the rows ticked for an action)."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError

LARGEST = 2**63 - 1  # a signed 64-bit integer, the widest integer column of SQLite and PostgreSQL


def can_be_id(value) -> bool:
    """Whether ``value`` may name a row of an integer key: anything but a whole number past 64 bits may (what
    is no number at all is left to Django's own check)."""
    try:
        number = int(str(value).strip())
    except ValueError:
        return True
    return -LARGEST - 1 <= number <= LARGEST


class IdChoicesField(forms.ModelMultipleChoiceField):
    """Django's choice of several rows by their integer key, an id past 64 bits refused as a choice that is not
    one of the available ones (Django asks the database about every id of the list at once)."""

    def clean(self, value):
        for item in value if isinstance(value, list | tuple) else ():
            if not can_be_id(item):
                raise ValidationError(
                    self.error_messages["invalid_choice"], code="invalid_choice", params={"value": item}
                )
        return super().clean(value)
