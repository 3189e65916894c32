"""A tournament that moves (issue 39 item 5): a finished 16-pair tournament exported, its site's copy gone (its
tournament and players deleted: a fresh database for what the archive holds), imported again — its standings,
every match page and every workbook cell are those it had. The import's refusals (a slug taken, a verdict the
rules engine does not give) and its matched players; the desk's button, for the tournament's directors only."""

from __future__ import annotations

import gzip
import json
from dataclasses import dataclass
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import transaction
from django.db.models import Q
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import translation

from tests.archive.scene import PAIRS, SLUG, build_day, member, seen
from tournaments.backup.archive import write_site_archive
from tournaments.backup.archive.plan import FORMAT
from tournaments.models import Deal, Match, Organisation, Pair, Player, Tournament

OUTPUT = Path(__file__).resolve().parents[2] / "test-output" / "archive"


@dataclass
class Moved:
    before: dict
    after: dict
    path: Path
    report: str
    director: object


def command(*args) -> str:
    out = StringIO()
    with translation.override("en"):
        call_command(*args, stdout=out)
    return out.getvalue()


@pytest.fixture(scope="module")
def moved(django_db_setup, django_db_blocker):
    OUTPUT.mkdir(parents=True, exist_ok=True)
    with django_db_blocker.unblock(), transaction.atomic():  # built once for the module, rolled back after
        t = build_day()
        director = get_user_model().objects.get(username="dongcheng-td")
        client = Client()
        client.force_login(director)
        before = seen(t, client)
        path = OUTPUT / f"{SLUG}.tractor.json.gz"
        command("export_tournament", SLUG, str(path))
        players = set(Pair.objects.filter(tournament=t).values_list("player1", "player2").distinct())
        with override_settings(SIMPLE_HISTORY_ENABLED=False):  # gone, not audited (the test stays quick)
            Deal.objects.filter(
                match__round__tournament=t
            ).delete()  # a deal protects the pair that confirmed it
            Match.objects.filter(round__tournament=t).delete()  # a match protects its pairs
            t.delete()
            Player.objects.filter(pk__in={pk for pair in players for pk in pair}).delete()
        report = command("import_tournament", str(path))
        after = seen(Tournament.objects.get(slug=SLUG), client)
        yield Moved(before, after, path, report, director)
        transaction.set_rollback(True)


def test_the_moved_tournament_has_the_same_standings_match_pages_and_workbook_cells(moved):
    assert (
        len(moved.before["standings"]) == PAIRS and len(moved.before["pages"]) == PAIRS
    )  # 8 tables, 2 rounds
    assert all(state["status"] == "finished" for state in moved.before["states"].values())
    assert moved.after["standings"] == moved.before["standings"]
    assert moved.after["states"] == moved.before["states"]
    for where, page in moved.before["pages"].items():
        assert moved.after["pages"][where] == page, f"round {where[0]} table {where[1]}"
    assert moved.after["workbook"] == moved.before["workbook"]
    assert "every verdict equal" in moved.report and "New players: 32." in moved.report


def archive_of(path: Path) -> dict:
    return json.loads(gzip.decompress(path.read_bytes()))


def test_the_archive_is_versioned_and_names_accounts_by_username_without_their_passwords(moved):
    archive = archive_of(moved.path)
    assert archive["format"] == FORMAT and archive["summary"]["matches"] == PAIRS
    payload = archive["tournaments"][0]
    assert payload["organisation"] == "dongcheng" and "dongcheng-td" in payload["accounts"]
    assert "password" not in moved.path.read_bytes().decode("latin-1")
    assert payload["history"]["deal"]["rows"]  # the audit trail travels with it


@pytest.mark.django_db
def test_a_slug_that_exists_is_refused_by_name_and_nothing_is_imported(moved):
    count = Tournament.objects.count()
    with (
        translation.override("en"),
        pytest.raises(CommandError, match=f"address {SLUG} already exists.*--slug"),
    ):
        call_command("import_tournament", str(moved.path))
    assert Tournament.objects.count() == count


@pytest.mark.django_db
def test_players_already_here_are_matched_by_name_and_listed_never_made_twice(moved):
    players = Player.objects.count()
    report = command("import_tournament", str(moved.path), "--slug", "spring16-copy")
    assert "matched to this site's registry by name: 东01、西01" in report and "New players: 0." in report
    copy = Tournament.objects.get(slug="spring16-copy")
    original = Tournament.objects.get(slug=SLUG)
    assert Player.objects.count() == players
    assert set(copy.pairs.values_list("player1", flat=True)) == set(
        original.pairs.values_list("player1", flat=True)
    )


@pytest.mark.django_db
def test_a_tampered_verdict_refuses_the_file_naming_the_deal(moved):
    archive = archive_of(moved.path)
    tables = archive["tournaments"][0]["tables"]
    deals, matches, rounds = tables["deal"], tables["match"], tables["round"]
    at = {name: i for i, name in enumerate(deals["fields"])}
    row = deals["rows"][5]
    row[at["verdict"]]["attackers_points"]["total"] += 5
    match = next(m for m in matches["rows"] if m[0] == row[at["match"]])
    m_at = {name: i for i, name in enumerate(matches["fields"])}
    r_at = {name: i for i, name in enumerate(rounds["fields"])}
    number = next(r[r_at["number"]] for r in rounds["rows"] if r[r_at["id"]] == match[m_at["round"]])
    tampered = OUTPUT / "tampered.tractor.json"
    tampered.write_text(json.dumps(archive, ensure_ascii=False))
    said = f"Deal {row[at['number']]} of table {match[m_at['table']]} in round {number}: the rules engine's verdict"
    with translation.override("en"), pytest.raises(CommandError, match=said):
        call_command("import_tournament", str(tampered), "--slug", "tampered")
    assert not Tournament.objects.filter(slug="tampered").exists()
    assert not Deal.objects.filter(Q(match__round__tournament__slug="tampered")).exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("who", "status"),
    [("director", 200), ("another organisation's director", 403), ("visitor", 302)],
)
def test_the_desks_export_button_serves_the_archive_to_the_tournaments_directors_only(moved, who, status):
    client = Client()
    if who == "director":
        client.force_login(moved.director)
    elif who != "visitor":
        client.force_login(member("xicheng-td", Organisation.objects.create(name="西城", slug="xicheng")))
    desk = client.get(reverse("desk", args=[SLUG]))
    response = client.get(reverse("desk-export-archive", args=[SLUG]))
    assert response.status_code == status
    if status == 200:
        assert 'data-testid="export-archive"' in desk.content.decode()
        assert "attachment" in response["Content-Disposition"]
        archive = json.loads(gzip.decompress(response.content))
        assert archive["format"] == FORMAT and archive["tournaments"][0]["slug"] == SLUG


@pytest.mark.django_db
def test_the_site_archive_holds_every_tournament_and_says_so_in_one_line(moved):
    Tournament.objects.create(name="另一个", slug="another")
    path = OUTPUT / "site.tractor.json.gz"
    line = write_site_archive(path)
    assert line.startswith(f"{Tournament.objects.count()} tournaments, {PAIRS} matches")
    assert {t["slug"] for t in archive_of(path)["tournaments"]} == set(
        Tournament.objects.values_list("slug", flat=True)
    )


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("content", "said"),
    [
        (b"\x1f\x8b not gzip at all", "not a tournament archive"),
        (b'{"format": "tractor-tournament/9", "tournaments": []}', "format is tractor-tournament/9"),
        (b'{"format": "tractor-tournament/1", "tournaments": [{"slug": "x", "people": 3}]}', "damaged"),
    ],
)
def test_a_file_that_is_not_a_good_archive_is_refused_in_one_sentence(content, said):
    path = OUTPUT / "hostile.tractor.json"
    OUTPUT.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)
    with translation.override("en"), pytest.raises(CommandError, match=said) as refused:
        call_command("import_tournament", str(path))
    assert refused.value.returncode == 2 and not Tournament.objects.filter(slug="x").exists()
