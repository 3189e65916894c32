"""``manage.py restore``: a database with newer work refused unless --replace, the backup restored, the desk's
identity renewed, and the desk's notice of what was restored and what may be missing. SQLite here (the restore
rewrites the test database through SQLite's backup API); PostgreSQL's dump in test_postgres.py."""

from __future__ import annotations

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.urls import reverse
from django.utils import translation

from tournaments.backup import identity
from tournaments.models import Deal, DeskIdentity, Match, Round

sqlite_only = pytest.mark.skipif(connection.vendor != "sqlite", reason="a SQLite backup restores onto SQLite")


@sqlite_only
@pytest.mark.django_db(transaction=True)
def test_a_restore_refuses_newer_work_unless_replace_then_renews_the_identity_and_the_desk_says_what_is_missing(
    out, client, director, tournament, round1, match, make_pair
):
    Deal.objects.create(match=match, number=1, banker="N", level="2", trump="S", state=Deal.State.CONFIRMED)
    Deal.objects.create(match=match, number=2, banker="E", level="2", trump="H", state=Deal.State.SUBMITTED)
    draft = Round.objects.create(tournament=tournament, number=2)
    Match.objects.create(round=draft, table=1, pair_ns=make_pair(), pair_ew=make_pair())
    before = identity.current()
    call_command("backup")
    (backup,) = out.glob("referee-*.sqlite3")
    Deal.objects.create(match=match, number=3, banker="S", level="3", trump="C")  # work after the backup

    with translation.override("en"), pytest.raises(CommandError, match="--replace"):
        call_command("restore", str(backup))
    assert Deal.objects.count() == 3

    call_command("restore", str(backup), "--replace")
    assert sorted(Deal.objects.values_list("number", flat=True)) == [1, 2]
    identity.forget()
    renewed = DeskIdentity.objects.order_by("-id").first()
    assert identity.current() == renewed.key != before
    assert renewed.restored_from == backup.name and renewed.backup_taken_at is not None

    client.cookies["django_language"] = "en"
    client.force_login(director)
    page = client.get(reverse("desk", args=[tournament.slug])).text
    when = renewed.backup_taken_at.astimezone(tournament_zone()).strftime("%H:%M")
    assert f"Restored from {when}; the tables are sending back what they hold." in page
    assert "round 1, table 1 (1 deal)" in page  # the submitted deal waits for its confirmation again
    assert f"Rounds published after {when} must be published again." in page
    assert reverse("desk-round", args=[tournament.slug, 2]) in page  # the draft round, to publish


def tournament_zone():
    from django.utils import timezone

    return timezone.get_current_timezone()


@sqlite_only
@pytest.mark.django_db
@pytest.mark.parametrize(
    "content, refusal",
    [(b"PGDMP\x01\x0e", "only onto PostgreSQL"), (b"not a database", "not a backup")],
)
def test_a_file_of_another_kind_is_refused_before_the_database_is_touched(out, tournament, content, refusal):
    path = out / "referee-20261205-103512.pgdump"
    path.write_bytes(content)
    with translation.override("en"), pytest.raises(CommandError, match=refusal):
        call_command("restore", str(path))
    assert DeskIdentity.objects.filter(restored_from__gt="").count() == 0
