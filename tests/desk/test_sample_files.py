"""The sample import files in fixtures/ import cleanly through the desk's import service."""

from __future__ import annotations

from pathlib import Path

import pytest

from tournaments.workbook.importing import import_entries, parse

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("name", "count"),
    [
        ("pairs.csv", 4),
        ("pairs.xlsx", 4),
        ("pairs-16.csv", 16),
        ("pairs-utf16.txt", 4),
        ("pairs-gb18030.csv", 4),
    ],
)
def test_sample_import_file_parses_without_problems_and_imports_every_pair(tournament, name, count):
    parsed = parse(tournament, name, (FIXTURES / name).read_bytes())
    assert parsed.ok, parsed.problems
    created = import_entries(tournament, parsed.entries)
    assert [p.name for p in created] == [e.pair for e in parsed.entries]
    assert len(created) == count and tournament.pairs.count() == count
