"""``manage.py backup``: a whole, checked copy while another connection writes, its summary and sidecar, which
backups are kept, a failure recorded and shown in red, and the round's backup started in the background."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils import translation

from referee import backup_timer
from tournaments.backup import files, services, sqlite_copy
from tournaments.checkin.forfeits import publish_round
from tournaments.models import BackupOutcome, Deal, Match, Round


def test_a_copy_taken_while_another_connection_writes_is_whole_and_holds_a_commit_boundary(out):
    live = out / "live.sqlite3"
    writer = sqlite3.connect(live, check_same_thread=False)
    writer.execute("PRAGMA journal_mode=WAL")
    writer.execute("CREATE TABLE play (id INTEGER PRIMARY KEY, batch INTEGER, cards TEXT)")
    writer.commit()
    stop = threading.Event()

    def write() -> None:
        batch = 0
        while not stop.is_set():  # each commit adds ten rows of one batch: a copy holds whole batches only
            batch += 1
            writer.executemany("INSERT INTO play (batch, cards) VALUES (?, ?)", [(batch, "SA" * 20)] * 10)
            writer.commit()

    thread = threading.Thread(target=write)
    thread.start()
    try:
        copies = []
        for n in range(3):
            target = out / f"copy{n}.sqlite3"
            sqlite_copy.copy_database(target, source_path=live)
            copies.append(target)
    finally:
        stop.set()
        thread.join()
        writer.close()
    for target in copies:
        copy = sqlite3.connect(target)
        assert copy.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert copy.execute("PRAGMA journal_mode").fetchone() == ("delete",)
        rows, batches = copy.execute("SELECT COUNT(*), COUNT(DISTINCT batch) FROM play").fetchone()
        copy.close()
        assert rows == batches * 10
        assert not Path(f"{target}-wal").exists()


@pytest.mark.django_db(transaction=True)  # the copy reads committed rows, as the live site's does
def test_the_command_prints_its_summary_keeps_it_beside_the_file_and_records_the_success(out, match, capsys):
    Deal.objects.create(match=match, number=1, banker="N", level="2", trump="S")
    call_command("backup", "--to", str(out))
    line = capsys.readouterr().out
    (made,) = [path for path in out.glob("referee-*") if path.suffix != ".json"]  # .sqlite3, or .pgdump
    assert line.startswith(made.name) and "1 tournaments, 1 matches, 1 deals, 0 plays" in line
    summary = files.read_sidecar(made)
    assert summary and summary.counts == {"tournaments": 1, "matches": 1, "deals": 1, "plays": 0}
    if made.suffix == ".sqlite3":
        assert sqlite_copy.check(made)["deals"] == 1
    assert BackupOutcome.objects.get().ok and BackupOutcome.objects.get().file_name == made.name


def summary(n: int, round_tag: str = "") -> files.Summary:
    return files.Summary(
        f"referee-20261205-{n:06d}.sqlite3", "sqlite", f"2026-12-05T00:00:{n:02d}", round_tag=round_tag
    )


def test_the_newest_48_and_the_newest_backup_of_each_round_are_kept():
    older = [
        summary(n, round_tag="spring#1" if n in (1, 2) else "spring#2" if n == 5 else "") for n in range(60)
    ]
    newest_first = sorted(older, key=lambda s: s.taken_at, reverse=True)
    pruned = set(files.to_prune(newest_first, 48))
    kept = {s.file_name for s in older} - pruned
    assert {summary(n).file_name for n in range(12, 60)} <= kept
    assert summary(2).file_name in kept and summary(5).file_name in kept  # each round's newest
    assert summary(1).file_name in pruned and summary(0).file_name in pruned
    assert len(kept) == 50


@pytest.mark.django_db
def test_prune_deletes_old_files_and_their_sidecars_but_nothing_else(out, settings):
    for n in range(4):
        path = out / summary(n).file_name
        path.write_bytes(b"x")
        files.write_sidecar(path, summary(n))
    (out / "notes.txt").write_text("mine")
    assert sorted(files.prune(out, 2)) == [summary(0).file_name, summary(1).file_name]
    assert sorted(p.name for p in out.iterdir()) == sorted(
        [
            "notes.txt",
            *(summary(n).file_name for n in (2, 3)),
            *(summary(n).file_name + ".json" for n in (2, 3)),
        ]
    )


@pytest.mark.django_db
def test_a_folder_that_cannot_be_written_fails_loudly_and_turns_the_desk_and_the_board_red(
    out, client, director, tournament, round1, settings
):
    blocked = out / "not-a-folder"
    blocked.write_text("a file where the folder should be")
    settings.BACKUP_DIR = blocked / "backups"
    with translation.override("en"), pytest.raises(CommandError, match="cannot be written"):
        call_command("backup")
    failed = BackupOutcome.objects.get()
    assert not failed.ok and failed.problem == BackupOutcome.Problem.NOT_WRITABLE and failed.error
    client.cookies["django_language"] = "en"
    client.force_login(director)
    for name in ("desk", "desk-board", "desk-board-rows"):
        page = client.get(reverse(name, args=[tournament.slug]))
        assert page.status_code == 200
        assert 'class="backup-failed"' in page.text and "The backup folder cannot be written." in page.text
    BackupOutcome.objects.create(ok=True, file_name="referee-20261205-103512.sqlite3")  # a later success
    assert 'class="backup-failed"' not in client.get(reverse("desk-board-rows", args=[tournament.slug])).text


@pytest.mark.django_db
def test_publishing_a_round_starts_its_backup_in_the_background_after_the_commit(
    tournament, make_pair, settings, monkeypatch, django_capture_on_commit_callbacks
):
    started = []
    monkeypatch.setattr(services, "start_in_background", lambda reason, tag="": started.append((reason, tag)))
    drafts = []
    for number in (1, 2):
        drafts.append(Round.objects.create(tournament=tournament, number=number))
        Match.objects.create(round=drafts[-1], table=1, pair_ns=make_pair(), pair_ew=make_pair())
    settings.BACKUP_AFTER_ROUND = False  # the tests' and `make run`'s default; `make serve` turns it on
    with django_capture_on_commit_callbacks(execute=True):
        publish_round(drafts[0])
    assert started == []
    settings.BACKUP_AFTER_ROUND = True
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        publish_round(drafts[1])
        assert started == []  # not before the publication commits
    assert callbacks and started == [("round", "spring#2")]


@pytest.mark.django_db
def test_a_background_backup_that_cannot_start_is_recorded_as_failed(monkeypatch):
    def refuse(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(services.subprocess, "Popen", refuse)
    services.start_in_background("round", "spring#1")
    failed = BackupOutcome.objects.get()
    assert not failed.ok and failed.problem == BackupOutcome.Problem.DISK_FULL


def test_serves_timer_backs_up_each_period_and_ends_when_its_server_is_gone():
    now = [0.0]
    taken = []
    alive_until = 12.5

    def sleep(seconds: float) -> None:
        now[0] += max(seconds, 0.5)

    count = backup_timer.run(
        5,
        alive=lambda: now[0] < alive_until,
        take=lambda: taken.append(now[0]),
        clock=lambda: now[0],
        sleep=sleep,
    )
    assert count == 2 and taken == [5.0, 10.0]
