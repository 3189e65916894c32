"""The load test's parts that need no Django: the judges' phones over HTTP, their pace and log.

``manage.py load`` sets the tables up and checks the database afterwards; everything here reaches the site only
through HTTP, the way the trick-entry page does (static/js/deal.js): a session from /login/, the CSRF token in
the ``X-CSRFToken`` header, each play posted as form fields with the deal version the page shows, and the new
state (with the new version) in the JSON reply. Traffic only ever goes to this machine.
"""

from __future__ import annotations

import random
import re
import threading
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from rules.ranks import parse_rank
from rules.simulate import simulate_deal
from tools.loadtest.browser import CONNECTION_ERRORS, Browser
from tools.loadtest.budget import Budget, Pace
from tools.loadtest.figures import increasing
from tools.loadtest.journal import Journal, give_back
from tools.loadtest.plays import TRUMPS, PlayEntry, plays_of, shows_play, state_keys

# ---------------------------------------------------------------- what the clients saw


@dataclass
class Log:
    """What clients saw, per deal; each client keeps its own and they are merged after the run."""

    latencies: list[float] = field(default_factory=list)
    statuses: Counter = field(default_factory=Counter)
    acked: dict[int, set[int]] = field(default_factory=lambda: defaultdict(set))
    rejected: dict[int, set[int]] = field(default_factory=lambda: defaultdict(set))
    unresolved: dict[int, set[int]] = field(default_factory=lambda: defaultdict(set))
    versions: dict[int, list[int]] = field(default_factory=lambda: defaultdict(list))
    records: dict[int, dict] = field(default_factory=dict)
    conflicts: Counter = field(default_factory=Counter)
    retried: int = 0
    recovered: int = 0  # retried plays found already stored (a lost reply, or a race lost)
    late: int = 0
    version_faults: int = 0  # deals whose versions, as one client saw them, did not always go up
    stopped_by: Counter = field(default_factory=Counter)
    cpu: dict[str, float] = field(
        default_factory=dict
    )  # CPU seconds of the run: "server" (if known), "clients"
    public: dict = field(default_factory=dict)  # the spectators' figures (tools.loadtest.spectators.gather)
    bare: dict = field(default_factory=dict)  # the bare page's phase (``bare_pages``): requests, seconds, CPU

    def merge(self, other: Log) -> None:
        """Add another client's log (its versions are checked here: only one client's order means anything)."""
        self.version_faults += other.version_faults + sum(not increasing(v) for v in other.versions.values())
        self.latencies += other.latencies
        self.statuses.update(other.statuses)
        self.conflicts.update(other.conflicts)
        self.stopped_by.update(other.stopped_by)
        self.retried += other.retried
        self.recovered += other.recovered
        self.late += other.late
        self.records.update(other.records)
        for mine, theirs in (
            (self.acked, other.acked),
            (self.rejected, other.rejected),
            (self.unresolved, other.unresolved),
        ):
            for deal, positions in theirs.items():
                mine[deal] |= positions


# ---------------------------------------------------------------- a judge's phone


class Judge:
    """One judge's phone: logs in, then enters plays; after a connection error it posts the same play again. It
    keeps its journal and gives it back to a desk that lost it, as the trick-entry page does
    (docs/journal-protocol.md, ``tools.loadtest.journal``)."""

    def __init__(
        self, address: tuple[str, int], username: str, password: str, budget: Budget, retry_for: float
    ) -> None:
        self.browser = Browser(*address)
        self.username, self.password = username, password
        self.budget, self.retry_for = budget, retry_for
        self.log = Log()
        self.last_status: int | str | None = None  # of the last request: an HTTP status or "connection error"
        self.last_key = ""  # of the last write
        self.journal = Journal()
        self.lost = ""  # the identity of a desk that lost what this phone gave it: a give-back is due

    def login(self) -> None:
        """The login form, as a browser fills it: the CSRF cookie first, then the form with its token."""
        self.browser.request("GET", "/login/")
        token = self.browser.cookies.get("csrftoken", "")
        fields = {"username": self.username, "password": self.password, "csrfmiddlewaretoken": token}
        reply = self.browser.request("POST", "/login/", fields)
        if reply.status != 302 or "sessionid" not in self.browser.cookies:
            raise RuntimeError(f"{self.username}: login refused (HTTP {reply.status})")

    def send(
        self, method: str, path: str, fields: dict | None = None, *, accept_json: bool = True, key: str = ""
    ):
        """One action, tried again (same fields, same version) after a connection error or a 5xx.

        None when the request cap is reached or the server stays away longer than ``retry_for``.
        """
        give_up = time.monotonic() + self.retry_for
        pause = 0.1
        if method == "POST":  # as the page does: one key per intended write, the same on every retry
            self.last_key = key or uuid.uuid4().hex
            fields = {**(fields or {}), "idempotency_key": self.last_key}
        while self.budget.take():
            try:
                reply = self.browser.request(method, path, fields, accept_json=accept_json)
            except CONNECTION_ERRORS:
                self.last_status = "connection error"
                self.log.statuses[self.last_status] += 1
            else:
                self.last_status = reply.status
                self.log.statuses[reply.status] += 1
                if reply.status < 500:
                    return reply
            if time.monotonic() + pause > give_up:
                return None
            self.log.retried += 1
            time.sleep(pause)
            pause = min(pause * 2, 2.0)
        return None

    def post_play(
        self, deal_id: int, entry: PlayEntry, version: int, *, before: Callable[[], Any] | None = None
    ) -> int | None:
        """Post one play; the deal's new version once it is stored (acknowledged), else None (logged)."""
        if before is not None:
            before()
        retried = self.log.retried
        reply = self.send("POST", f"/deal/{deal_id}/play/", entry.fields(version))
        if reply is None:
            self.log.unresolved[deal_id].add(entry.position)
            return None
        state = reply.state
        if reply.status in (403, 404) and self.journal.of(deal_id).start:
            self.lost = (
                self.lost or "?"
            )  # the desk has no such deal (or it is another's): its start goes back
            return None
        if reply.status == 200:
            self.journal.gave(deal_id, "play", entry.fields(version), version, self.last_key, state)
        if self.observe(deal_id, state):
            return None
        if reply.status == 200:
            self.log.latencies.append(reply.elapsed)
        elif reply.status == 409 and shows_play(state, entry):
            self.log.recovered += self.log.retried > retried
        else:
            self.log.rejected[deal_id].add(entry.position)
            return None
        new_version = state["deal"]["version"]
        self.log.acked[deal_id].add(entry.position)
        self.log.versions[deal_id].append(new_version)
        return new_version

    def deal_action(
        self, deal_id: int, action: str, fields: dict, done: Callable[[dict], bool]
    ) -> int | None:
        """Kitty or submit: the new version when it is done (a 409 whose state shows it done counts too)."""
        reply = self.send("POST", f"/deal/{deal_id}/{action}/", fields)
        if reply is None or reply.status not in (200, 409) or not reply.state:
            return None
        if action == "kitty" and reply.status == 200:
            self.journal.gave(deal_id, action, fields, fields["version"], self.last_key, reply.state)
        if self.observe(deal_id, reply.state) or not done(reply.state):
            return None
        return reply.state["deal"]["version"]

    def start_deal(self, match_id: int, trump: str) -> int | None:
        """The new-deal form; after a lost reply the match page's “continue” link names the deal it started."""
        form = self.send("GET", f"/match/{match_id}/deal/new/", accept_json=False)
        shown = form and re.search(rb'name="next_deal" value="(\d+)"', form.body)
        if not shown:
            return None
        fields = {"trump": trump, "next_deal": shown.group(1).decode()}
        reply = self.send("POST", f"/match/{match_id}/deal/new/", fields, accept_json=False)
        if reply is not None and reply.status == 302:
            found = re.search(r"/deal/(\d+)/", reply.headers.get("Location", ""))
            if found:  # the start, kept for a desk that loses the deal (start.js)
                self.journal.started(int(found.group(1)), match_id, self.last_key, fields)
            return int(found.group(1)) if found else None
        page = self.send("GET", f"/match/{match_id}/", accept_json=False)
        button = page and re.search(rb'class="button primary" href="/deal/(\d+)/"', page.body)
        return int(button.group(1)) if button else None

    def state(self, deal_id: int) -> dict | None:
        reply = self.send("GET", f"/deal/{deal_id}/state/")
        state = reply.json() if reply is not None and reply.status == 200 else None
        self.observe(deal_id, state)
        return state

    def observe(self, deal_id: int, state: dict | None) -> bool:
        """A state from the desk: whether it lost what this phone gave it (``lost``: a give-back is due)."""
        if self.journal.observe(deal_id, state):
            self.lost = (state or {}).get("desk", "")
        return bool(self.lost)

    def exchange(self, method: str, path: str, fields: dict | None, key: str | None):
        """The journal's requests (``journal.Send``): status, JSON body and where a redirect goes."""
        reply = self.send(method, path, fields, accept_json=not path.startswith("/match/"), key=key or "")
        if reply is None:
            return None
        return (
            reply.status,
            reply.json() if path.startswith("/deal/") else {},
            reply.headers.get("Location", ""),
        )

    def give_back(self, deal_id: int) -> tuple[int, dict | None]:
        """Give the desk back what it lost (``journal.give_back``): the deal's id there now, and its state."""
        desk, self.lost = self.lost, ""
        return give_back(self.journal, deal_id, desk, self.exchange)


# ---------------------------------------------------------------- a bare page, for comparison


BARE_PAGE = "/login/"  # the log-in page: a session-less GET, a template, no query to speak of


def bare_pages(address: tuple[str, int], budget: Budget, threads: int) -> tuple[int, int]:
    """GETs of the log-in page from ``threads`` visitors without a session, in a closed loop until ``budget``
    ends: the yardstick a play's server CPU is compared with. Returns (answered 200, any other answer)."""

    def visitor() -> tuple[int, int]:
        browser, ok, other = Browser(*address), 0, 0
        while not budget.over and budget.take():
            try:
                reply = browser.request("GET", BARE_PAGE)
            except CONNECTION_ERRORS:
                other += 1
                continue
            ok, other = ok + (reply.status == 200), other + (reply.status != 200)
            browser.cookies.clear()  # every request a first visit, as a bare page is
        browser.close()
        return ok, other

    with ThreadPoolExecutor(threads) as pool:
        counts = list(pool.map(lambda _i: visitor(), range(threads)))
    return sum(c[0] for c in counts), sum(c[1] for c in counts)


# ---------------------------------------------------------------- tables


@dataclass
class TableJob:
    """One table: its judge, the open deal, the simulated record to replay and how far it is entered."""

    table: int
    match_id: int
    deal_id: int
    version: int
    username: str
    password: str
    record: dict
    ruleset: dict
    seed: str
    position: int = 0  # plays entered before the run (through the service)
    deals: int = 1


def finish_and_start(judge: Judge, job: TableJob) -> bool:
    """The deal is played: kitty, submit, then a new deal with its own simulated record (False: table stops)."""
    record = job.record
    version = judge.deal_action(
        job.deal_id,
        "kitty",
        {"kitty": record["kitty"], "version": job.version},
        lambda s: bool(s["deal"]["kitty_text"]),
    )
    if version is not None:
        version = judge.deal_action(
            job.deal_id, "submit", {"version": version}, lambda s: s["deal"]["state"] != "recording"
        )
    if version is None and judge.lost:
        return regain(judge, job)
    if version is None:
        judge.log.stopped_by["could not submit"] += 1
        return False
    judge.log.versions[job.deal_id].append(version)
    return start_next(judge, job)


def start_next(judge: Judge, job: TableJob) -> bool:
    """The table's next deal, with its own simulated record (False: the table stops)."""
    rng = random.Random(f"{job.seed}-{job.deals}")
    deal_id = judge.start_deal(job.match_id, rng.choice(TRUMPS))
    state = judge.state(deal_id) if deal_id else None
    if judge.lost:
        return regain(judge, job)
    if state is None:
        judge.log.stopped_by["no new deal"] += 1
        return False
    deal = state["deal"]
    job.deals += 1
    job.deal_id, job.version, job.position = deal["id"], deal["version"], len(state_keys(state))
    job.record = simulate_deal(
        job.ruleset,
        banker=deal["banker"],
        level=parse_rank(deal["level"]),
        trump=deal["trump"],
        seed=f"{job.seed}-{job.deals}",
    )
    judge.log.records[job.deal_id] = job.record
    return True


def regain(judge: Judge, job: TableJob) -> bool:
    """The desk lost what this phone gave it: give it back (docs/journal-protocol.md), then go on from the deal
    as the desk holds it now (the next deal, when the deal given back is submitted again)."""
    deal_id, state = judge.give_back(job.deal_id)
    if state is None:
        judge.log.stopped_by["not given back"] += 1
        return False
    job.deal_id, job.version, job.position = deal_id, state["deal"]["version"], len(state_keys(state))
    judge.log.records[deal_id] = job.record
    if state["deal"]["state"] != "recording":
        return start_next(judge, job)
    return True


def run_table(job: TableJob, judge: Judge, pace: Pace) -> Log:
    """Enter the table's deals play by play until the run ends or a play is refused."""
    judge.log.records[job.deal_id] = job.record
    judge.log.acked[job.deal_id] |= set(range(job.position))
    plays = plays_of(job.record)
    while pace.wait():
        if job.position == len(plays):
            if not finish_and_start(judge, job):
                break
            plays = plays_of(job.record)
            continue
        version = judge.post_play(job.deal_id, plays[job.position], job.version)
        if version is None and judge.lost:
            if not regain(judge, job):
                break
            plays = plays_of(job.record)
            continue
        if version is None:
            judge.log.stopped_by["play not stored"] += 1
            break
        job.version, job.position = version, job.position + 1
    judge.log.late += pace.late
    return judge.log


def race(
    judges: Sequence[Judge], job: TableJob, entry: PlayEntry, pool: ThreadPoolExecutor
) -> list[int | None]:
    """Both phones post the same play with the same version, released together by a barrier."""
    barrier = threading.Barrier(len(judges))
    futures = [
        pool.submit(j.post_play, job.deal_id, entry, job.version, before=lambda: barrier.wait(timeout=60))
        for j in judges
    ]
    return [f.result() for f in futures]


def conflict_outcome(statuses: Sequence[Any], versions: Sequence[int | None]) -> str:
    """How a race ended: one 200 and one clean 409 is right; two 200s would be a play stored twice."""
    ok = sorted(str(s) for s in statuses)
    if ok == ["200", "409"] and versions[0] == versions[1] is not None:
        return "clean"
    if ok == ["200", "200"]:
        return "both accepted"
    if all(v is not None for v in versions):
        return "reply lost, play stored once"
    return "other"


def run_pair(job: TableJob, judges: Sequence[Judge], pace: Pace) -> Log:
    """Two phones of one table racing on every play of its deal (no new deal after it: the race is the point)."""
    first = judges[0]
    first.log.records[job.deal_id] = job.record
    first.log.acked[job.deal_id] |= set(range(job.position))
    plays = plays_of(job.record)
    with ThreadPoolExecutor(len(judges)) as pool:
        while job.position < len(plays) and pace.wait():
            versions = race(judges, job, plays[job.position], pool)
            first.log.conflicts[conflict_outcome([j.last_status for j in judges], versions)] += 1
            stored = [v for v in versions if v is not None]
            if not stored:
                first.log.stopped_by["play not stored"] += 1
                break
            job.version, job.position = max(stored), job.position + 1
    log = Log()
    for j in judges:
        log.merge(j.log)
    log.late += pace.late
    return log
