"""The restore drill (issue 39): real server processes on SQLite files, 8 tables recording (2 phones in Chromium
with journal.js, 6 through the load tool's phones), a backup taken while the site serves, play going on after
it (a deal confirmed, a deal started), the server killed with SIGKILL, the backup restored into a new database
and a new server on the same address; the phones come back and give back what the desk lost
(docs/journal-protocol.md). Then every play a phone was told was stored is stored exactly once, every verdict
judged again equals the first, the deal confirmed after the backup waits for its PINs again, and the desk lists
what it restored.

The play is scripted in steps rather than run for a minute (a few plays per table on each side of the backup):
the same protocol, in a fraction of the suite's time."""

from __future__ import annotations

import io
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from referee.table.recording.deal_entry import confirm_deal
from tests.table.conftest import file_connection, migrated_file  # noqa: F401 (the migrated file, a fixture)
from tools.loadtest.clients import Judge, TableJob, run_table
from tools.loadtest.plays import plays_of
from tools.loadtest.prepare import set_up
from tools.loadtest.server import Server, server_env
from tournaments.backup import identity
from tournaments.backup.notice import restore_notice
from tournaments.models import Deal, Match, Tournament
from tournaments.scoring.snapshot import snapshot, start_levels
from tournaments.table_links.services import issue_card

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
PORT = 8541  # this drill's address, the same for both servers
PREPLAYED = 22  # tricks stored before the phones begin: three tricks (12 plays) left in each first deal
BROWSER_TABLES = (1, 2)
CONFIRMED_AFTER = 3  # its first deal submitted before the backup, confirmed after it
STARTED_AFTER = 4  # its first deal finished, and its second started, after the backup


@dataclass
class Steps:
    """``run_table``'s pace for a scripted drill: ``n`` steps (a play, or a deal finished and the next begun)."""

    n: int
    late: int = 0

    def wait(self) -> bool:
        self.n -= 1
        return self.n >= 0


def play(judge: Judge, job: TableJob, steps: int) -> None:
    """The load tool's table loop, for ``steps`` steps; the phone's log says why it stopped, if it did."""
    run_table(job, judge, Steps(steps))  # type: ignore[arg-type]
    assert not judge.log.stopped_by, (job.table, judge.log.stopped_by)


# ---------------------------------------------------------------- the desk: its files and its server


def manage(database: Path, *args: str) -> str:
    """``manage.py ARGS`` on ``database`` (in this process: the command's own code, without a Python's start),
    as the director types it beside the running site; what it printed."""
    out = io.StringIO()
    with file_connection(database):
        call_command(*args, stdout=out)
    identity.forget()
    return out.getvalue()


def backup_of(live: Path, folder: Path) -> Path:
    """``manage.py backup --to DIR`` while the site serves: the file it wrote."""
    manage(live, "backup", "--to", str(folder))
    (copy,) = folder.glob("*.sqlite3")
    return copy


def server(database: Path, log: Path) -> Server:
    env = {
        **server_env("drill-secret-key-" + "x" * 40),
        "DEBUG": "1",
        "DATABASE_URL": f"sqlite:///{database}",
    }
    return Server(ROOT, env, PORT, log, workers=1, threads=8)


@contextmanager
def running(desk: Server) -> Iterator[Server]:
    desk.start()
    try:
        yield desk
    finally:
        desk.stop()


def deals_as_held(database: Path) -> dict[tuple[int, int], dict]:
    """Every deal of the file, by (table, number): its plays in order, the engine's verdict on them now, the
    verdict stored at the submit, and its state."""
    with file_connection(database):
        held = {}
        for deal in Deal.objects.select_related("match").order_by("match__table", "number"):
            snap = snapshot(deal, start_levels(deal))
            held[deal.match.table, deal.number] = {
                "plays": [(p.seat, p.cards) for plays in snap.plays for p in plays],
                "judged": snap.judged().as_dict(),
                "verdict": deal.verdict,
                "state": deal.state,
                "id": deal.pk,
            }
        return held


# ---------------------------------------------------------------- the phones in Chromium


def open_phone(browser, job: TableJob, token: str):
    """A phone in Chromium that opened its table's link, on the table's deal."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="zh-CN")
    context.set_default_timeout(15_000)
    page = context.new_page()
    base = f"http://127.0.0.1:{PORT}"
    page.goto(f"{base}/k/{token}/")
    page.goto(f"{base}/deal/{job.deal_id}/")
    return page


def type_plays(page, job: TableJob, n: int) -> None:
    """``n`` plays of the record typed as a judge does; back once the desk stored them all."""
    plays = plays_of(job.record)
    for entry in plays[job.position : job.position + n]:
        page.fill("#cards-input", entry.cards)
        page.press("#cards-input", "Enter")
        page.wait_for_function("() => document.getElementById('cards-input').value === ''")
    job.position += n
    page.wait_for_function("() => document.querySelector('.journal-count').dataset.count === '0'")


def journal_of(page, deal_id: int) -> dict:
    return page.evaluate(f"() => JSON.parse(localStorage.getItem('referee-journal:{deal_id}'))")


# ---------------------------------------------------------------- the drill


def table_links(database: Path, jobs: dict[int, TableJob]) -> dict[int, str]:
    """Every table's link, as the desk prints it on the table's card: the phones open it (no password to hash)."""
    with file_connection(database):
        desk = get_user_model().objects.create(username="drill-desk", is_superuser=True)
        return {t: issue_card(Match.objects.get(pk=job.match_id), desk).token for t, job in jobs.items()}


def open_link(phone: Judge, token: str) -> None:
    reply = phone.browser.request("GET", f"/k/{token}/")
    assert reply.status == 302 and "sessionid" in phone.browser.cookies


def test_a_desk_restored_from_a_backup_gets_back_from_the_phones_what_it_lost(
    browser,
    migrated_file,  # noqa: F811 (the fixture imported above)
    tmp_path,
    django_db_blocker,
):
    live, restored = tmp_path / "desk.sqlite3", tmp_path / "restored.sqlite3"
    shutil.copy(migrated_file, live)
    with django_db_blocker.unblock():
        with file_connection(live):
            jobs = {job.table: job for job in set_up(8, "drill", PREPLAYED)}
        tokens = table_links(live, jobs)
        address = ("127.0.0.1", PORT)
        phones = {t: Judge(address, j.username, j.password, budget(), retry_for=20) for t, j in jobs.items()}
        phones = {t: p for t, p in phones.items() if t not in BROWSER_TABLES}
        first = server(live, tmp_path / "first.log")
        first.start()
        try:
            for t, phone in phones.items():
                open_link(phone, tokens[t])
            pages = {t: open_phone(browser, jobs[t], tokens[t]) for t in BROWSER_TABLES}
            # Before the backup: every table records; table 3 finishes its deal and begins the next.
            for t in BROWSER_TABLES:
                type_plays(pages[t], jobs[t], 3)
            for t, phone in phones.items():
                play(phone, jobs[t], 13 if t == CONFIRMED_AFTER else 4)
            first_deal = jobs[STARTED_AFTER].deal_id
            backup = backup_of(live, tmp_path / "backups")
            # After it: more plays; table 3's first deal confirmed at the desk (its phone sees it); table 4
            # finishes its deal and plays the next.
            for t in BROWSER_TABLES:
                type_plays(pages[t], jobs[t], 3)
            for t, phone in phones.items():
                play(phone, jobs[t], 12 if t == STARTED_AFTER else 4)
            assert jobs[STARTED_AFTER].deal_id != first_deal
            confirmed = confirm_first_deal(live, phones[CONFIRMED_AFTER])
            told = {
                (t, r.number): sum(g.action == "play" for g in r.given)
                for t, p in phones.items()
                for r in p.journal.deals.values()
            }
            for t in BROWSER_TABLES:
                given = journal_of(pages[t], jobs[t].deal_id)["given"]
                told[t, 1] = sum(e["action"] == "play" for e in given)
        finally:
            first.kill()  # SIGKILL, every worker
        before = deals_as_held(live)
        manage(restored, "restore", str(backup))  # into a new, empty database
        with running(server(restored, tmp_path / "second.log")):
            # The phones come back: the load tool's at their next play (refused by a desk that lost what came
            # before it, or stored: either way the give-back runs first), Chromium's when the network returns.
            for t, phone in phones.items():
                play(phone, jobs[t], 1)
            for t in BROWSER_TABLES:
                pages[t].evaluate("() => window.dispatchEvent(new Event('online'))")
            with file_connection(restored):
                new_desk = identity.current()
            identity.forget()
            for t in BROWSER_TABLES:
                pages[t].wait_for_function(
                    "desk => (JSON.parse(localStorage.getItem('referee-journal:"
                    + str(jobs[t].deal_id)
                    + "')) || {}).desk === desk",
                    arg=new_desk,
                )
            after = deals_as_held(restored)
            with file_connection(restored):
                notice = restore_notice(Tournament.objects.get())  # what the desk's page shows
                waiting = [(d.match.table, d.number) for d in identity.waiting_again(Deal.objects.all())]
                confirm_again = identity.confirm_again(Deal.objects.get(pk=after[CONFIRMED_AFTER, 1]["id"]))
            identity.forget()
        for page in pages.values():
            page.context.close()

    # Every play a phone was told was stored is stored, once, in its place (a phone's next play, if the restored
    # desk took it before the give-back, may follow); every verdict judged again is the first one.
    assert sum(told.values()) > 0 and all(len(after[where]["plays"]) >= n for where, n in told.items())
    for where, deal in before.items():
        again = after[where]
        assert again["plays"][: len(deal["plays"])] == deal["plays"], where
        assert len(again["plays"]) <= len(deal["plays"]) + 1, where
        if len(again["plays"]) == len(deal["plays"]):
            assert again["judged"] == deal["judged"], where
        if deal["verdict"]:
            assert again["verdict"] == deal["verdict"], where
    # The deal confirmed after the backup waits for the pairs' PINs again, and says why; the desk lists it.
    assert before[CONFIRMED_AFTER, 1]["state"] == Deal.State.CONFIRMED == confirmed
    assert after[CONFIRMED_AFTER, 1]["state"] == Deal.State.SUBMITTED and confirm_again
    assert waiting == [(CONFIRMED_AFTER, 1)]
    assert notice is not None and notice.file_name == backup.name
    assert any(row["table"] == CONFIRMED_AFTER for row in notice.unconfirmed)
    # The deal started after the backup is started again, with its plays (checked above, with every deal).
    assert (STARTED_AFTER, 2) in after and before[STARTED_AFTER, 2]["plays"]


def budget():
    from tools.loadtest.budget import Budget

    return Budget(600, 100_000)


def confirm_first_deal(database: Path, phone: Judge) -> str:
    """The desk confirms the table's first deal (submitted at the table) while the site serves; the table's
    phone then reads it."""
    deal_id = next(d for d, r in phone.journal.deals.items() if r.number == 1)
    with file_connection(database):
        deal = Deal.objects.get(pk=deal_id)
        assert deal.state == Deal.State.SUBMITTED
        confirm_deal(deal, get_user_model().objects.get(username="drill-desk"), version=deal.version)
    seen = phone.state(deal_id)
    assert seen is not None
    return seen["deal"]["state"]
