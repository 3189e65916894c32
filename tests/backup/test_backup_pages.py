"""Who may take a backup at the desk (the tournament's directors) and who may download one (the site's admin only:
a backup holds every organisation's data); a hostile file name is a 404."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tournaments.backup import files
from tournaments.competition.access import JUDGE_GROUP, add_to_group
from tournaments.models import BackupOutcome, Membership, Organisation, Role, Tournament

BACKUP = "referee-20261205-103512.sqlite3"


@pytest.fixture
def scene(db, out):
    """A tournament of an organisation, a backup in the folder, and one account of each kind."""
    organisation = Organisation.objects.create(name="俱乐部", slug="club")
    tournament = Tournament.objects.create(
        name="赛事", slug="event", ruleset={"preset": "standard"}, organisation=organisation
    )
    (out / BACKUP).write_bytes(b"SQLite format 3\x00 the whole site")
    files.write_sidecar(out / BACKUP, files.Summary(BACKUP, "sqlite", "2026-12-05T10:35:12+08:00"))
    users = get_user_model().objects
    accounts = {"admin": users.create_superuser("site-admin", password="site-admin-pass")}
    for role in (Role.DIRECTOR, Role.SCORER):
        accounts[role] = users.create_user(f"{role}-1", password="member-pass-1")
        Membership.objects.create(organisation=organisation, user=accounts[role], role=role)
    accounts["judge"] = users.create_user("judge-1", password="judge-pass-1")
    add_to_group(accounts["judge"], JUDGE_GROUP)
    return tournament, accounts


@pytest.mark.parametrize(
    "who, listing, download",
    [
        (None, 302, 302),
        ("judge", 403, 403),
        (Role.SCORER, 403, 403),
        (Role.DIRECTOR, 200, 403),
        ("admin", 200, 200),
    ],
)
def test_the_backups_page_is_the_directors_and_a_download_the_site_admins_alone(
    client, scene, who, listing, download
):
    tournament, accounts = scene
    client.cookies["django_language"] = "en"
    if who:
        client.force_login(accounts[who])
    page = client.get(reverse("desk-backups", args=[tournament.slug]))
    assert page.status_code == listing
    got = client.get(reverse("desk-backup-download", args=[tournament.slug, BACKUP]))
    assert got.status_code == download
    if download == 200:
        assert b"".join(got.streaming_content).endswith(b"the whole site")
        assert 'data-testid="download"' in page.text
    if listing == 200 and download == 403:
        assert "Only the site's administrator may download a backup" in page.text
        assert 'data-testid="download"' not in page.text


@pytest.mark.parametrize(
    "name", ["..%2F..%2Fdb.sqlite3", "referee-20261205-999999.sqlite3", "notes.txt", "x" * 300]
)
def test_a_name_that_is_not_a_backup_in_the_folder_is_a_404(client, scene, out, name):
    tournament, accounts = scene
    (out / "notes.txt").write_text("not a backup")
    client.cookies["django_language"] = "en"
    client.force_login(accounts["admin"])
    assert client.get(f"/t/{tournament.slug}/desk/backups/{name}").status_code == 404


@pytest.mark.django_db(transaction=True)  # the copy reads committed rows, as the live site's does
def test_the_directors_button_takes_a_backup_and_says_what_it_holds(client, scene, out):
    tournament, accounts = scene
    client.cookies["django_language"] = "en"
    client.force_login(accounts[Role.DIRECTOR])
    page = client.post(reverse("desk-backups", args=[tournament.slug]), follow=True)
    assert "Backup taken: 1 tournaments, 0 matches, 0 deals, 0 plays." in page.text
    assert BackupOutcome.objects.get().reason == BackupOutcome.Reason.DESK
    assert len(files.listed(out)) == 2
