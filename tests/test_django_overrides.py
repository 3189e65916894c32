"""The project's two departures from Django's public API (docs/django-overrides.md) are pinned to the Django they
were written for: the SQLite engine's write gate overrides private methods of Django's SQLite ``DatabaseWrapper``
and reads what its connection sets, so a Django release that changes any of them fails here, and the override is
read again against the new code before the pin is moved.

Each pinned method is kept as the SHA-256 of its source (``inspect.getsource``): the same code on any machine,
another text on any change, however small.
"""

from __future__ import annotations

import hashlib
import inspect

import pytest
from django.db.backends.sqlite3.base import DatabaseWrapper

from referee.sqlite import base as gate

# What ``referee/sqlite/base.py`` overrides or relies on, as Django 5.2 writes it.
PINNED = {
    "_start_transaction_under_autocommit": "7315cfc61c1dde12",  # begins with the mode the connection read
    "_commit": "8ebc361e1e8fcb8d",
    "_rollback": "d671ec3bb3c8ed44",
    "_close": "d1a3f0e9a11cd084",
    "get_new_connection": "99ddcd0012130edd",  # sets ``transaction_mode`` from the settings' option
    "is_in_memory_db": "170ee74d791fa555",
}


def digest(method) -> str:
    return hashlib.sha256(inspect.getsource(method).encode()).hexdigest()[:16]


@pytest.mark.parametrize("name", sorted(PINNED))
def test_the_django_method_the_sqlite_gate_overrides_is_the_one_it_was_written_for(name):
    assert digest(getattr(DatabaseWrapper, name)) == PINNED[name], (
        f"Django's SQLite DatabaseWrapper.{name} changed: read referee/sqlite/base.py against it "
        "(docs/django-overrides.md), then move the pin"
    )


def test_every_private_method_the_gate_overrides_is_pinned():
    overridden = {
        name for name, value in vars(gate.DatabaseWrapper).items() if name.startswith("_") and callable(value)
    }
    assert overridden - {"__init__"} <= set(PINNED)
