"""PostgreSQL's backup: ``pg_dump -Fc`` inside the snapshot its counts were read in, checked with ``pg_restore
--list``, and restored over newer work with --replace. Runs only when DATABASE_URL is PostgreSQL."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.db import connection

from tournaments.backup import files, identity, postgres
from tournaments.models import Deal, DeskIdentity

pytestmark = pytest.mark.skipif(
    connection.vendor != "postgresql" or not postgres.tools_present(),
    reason="pg_dump and pg_restore of a PostgreSQL database",
)


@pytest.mark.django_db(transaction=True)
def test_a_dump_is_counted_in_its_snapshot_and_restored_over_newer_work_with_replace(out, match):
    Deal.objects.create(match=match, number=1, banker="N", level="2", trump="S")
    call_command("backup")
    (dump,) = out.glob("referee-*.pgdump")
    assert postgres.is_dump_file(dump)
    assert files.read_sidecar(dump).counts == {"tournaments": 1, "matches": 1, "deals": 1, "plays": 0}
    Deal.objects.create(match=match, number=2, banker="E", level="2", trump="H")
    call_command("restore", str(dump), "--replace")
    assert list(Deal.objects.values_list("number", flat=True)) == [1]
    identity.forget()
    assert DeskIdentity.objects.order_by("-id").first().restored_from == dump.name
