"""A PostgreSQL site without ``pg_dump`` is backed up as the site archive (docs/archive.md), and ``manage.py
restore`` reads such a backup back, judging every deal again, on either database."""

from __future__ import annotations

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from tournaments.backup import files, identity, postgres, services
from tournaments.models import DeskIdentity, Match, Pair, Round, Tournament


def test_without_pg_dump_a_postgresql_site_is_backed_up_as_the_site_archive(monkeypatch):
    monkeypatch.setattr(connection, "vendor", "postgresql")
    monkeypatch.setattr(postgres, "tools_present", lambda: False)
    assert services._kind() == "archive"


@pytest.mark.django_db(transaction=True)
def test_the_site_archive_backup_is_listed_and_restores_every_tournament_into_a_database_without_them(
    out, monkeypatch, tournament, match
):
    monkeypatch.setattr(services, "_kind", lambda: "archive")
    call_command("backup")
    (backup,) = out.glob("referee-*.tractor.json.gz")
    assert files.NAME.match(backup.name)
    tables = list(Match.objects.filter(round__tournament=tournament).values_list("table", flat=True))
    Round.objects.filter(tournament=tournament).delete()  # the day lost
    Pair.objects.filter(tournament=tournament).delete()
    Tournament.objects.filter(pk=tournament.pk).delete()

    call_command("restore", str(backup))
    restored = Tournament.objects.get(slug=tournament.slug)
    assert list(Match.objects.filter(round__tournament=restored).values_list("table", flat=True)) == tables
    identity.forget()
    assert DeskIdentity.objects.order_by("-id").first().restored_from == backup.name

    with pytest.raises(CommandError, match=tournament.slug):  # never over a tournament the site holds
        call_command("restore", str(backup), "--replace")
