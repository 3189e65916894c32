"""The load test's parts that need no Django: the judges' phones over HTTP, the server process, the figures.

``manage.py load`` sets the tables up and checks the database afterwards; everything here reaches the site only
through HTTP, the way the trick-entry page does (static/js/deal.js): a session from /login/, the CSRF token in
the ``X-CSRFToken`` header, each play posted as form fields with the deal version the page shows, and the new
state (with the new version) in the JSON reply. Traffic only ever goes to this machine.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import re
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

from rules.cards import format_cards, parse_cards
from rules.ranks import parse_rank
from rules.simulate import simulate_deal

LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})
CONNECTION_ERRORS = (OSError, http.client.HTTPException)
TRUMPS = ("S", "H", "C", "D", "NT")
IDLE_REUSE = 1.0  # seconds: an older kept-alive connection may be closed by the server (gunicorn keeps 2 s)


def local_address(url: str) -> tuple[str, int]:
    """Host and port of ``url``, refused unless it is plain HTTP on this machine."""
    parts = urlsplit(url)
    if parts.scheme != "http" or parts.hostname not in LOCAL_HOSTS:
        raise ValueError(f"{url!r}: the load test only sends traffic to http://127.0.0.1 or http://localhost")
    return parts.hostname, parts.port or 80


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# ---------------------------------------------------------------- plays of a simulated deal


def card_key(seat: str, cards: Iterable[str] | str) -> tuple[str, tuple[str, ...]]:
    """A play as a comparable value: the seat and its cards in canonical text, whatever order they came in."""
    text = cards if isinstance(cards, str) else " ".join(cards)
    return seat, tuple(sorted(format_cards(parse_cards(text)).split()))


@dataclass(frozen=True)
class PlayEntry:
    """One play of a simulated deal, at its place in the deal (counted over all tricks)."""

    position: int
    seat: str
    cards: str
    throw: dict | None = None

    @property
    def key(self) -> tuple[str, tuple[str, ...]]:
        return card_key(self.seat, self.cards)

    def fields(self, version: int) -> dict[str, Any]:
        """The form fields deal.js posts for this play."""
        data: dict[str, Any] = {"seat": self.seat, "cards": self.cards, "version": version}
        if self.throw:
            data.update({f"throw_{k}": v for k, v in self.throw.items()})
        return data


def plays_of(record: dict) -> list[PlayEntry]:
    """The record's plays in the order the judge enters them (a challenged throw goes with its lead)."""
    out: list[PlayEntry] = []
    for trick in record["tricks"]:
        for j, (seat, cards) in enumerate(trick["plays"]):
            out.append(PlayEntry(len(out), seat, cards, trick.get("throw") if j == 0 else None))
    return out


def state_keys(state: dict) -> list[tuple[str, tuple[str, ...]]]:
    """The plays a deal-state reply shows, in order."""
    return [
        card_key(p["seat"], [c["code"] for c in p["cards"]])
        for t in state.get("tricks", [])
        for p in t["plays"]
    ]


def shows_play(state: dict | None, entry: PlayEntry) -> bool:
    """The reply's state already holds this play at its place (a retry whose first try was saved)."""
    if not state:
        return False
    keys = state_keys(state)
    return entry.position < len(keys) and keys[entry.position] == entry.key


# ---------------------------------------------------------------- bounds of a run


class Budget:
    """The run's bounds, shared by every client: no new play after the deadline, no request past the cap."""

    def __init__(self, duration: float, max_requests: int) -> None:
        self.start = time.monotonic()
        self.deadline = self.start + duration
        self.left = max_requests
        self.lock = threading.Lock()
        self.stopped = threading.Event()

    def take(self) -> bool:
        """Count one request; False once the cap is reached or the run was stopped."""
        with self.lock:
            if self.left <= 0 or self.stopped.is_set():
                return False
            self.left -= 1
            return True

    @property
    def over(self) -> bool:
        return self.stopped.is_set() or self.left <= 0 or time.monotonic() >= self.deadline

    def sleep_until(self, when: float) -> bool:
        """Wait for ``when`` (a monotonic time); False when the run ends first."""
        while True:
            now = time.monotonic()
            if self.over or when > self.deadline:
                return False
            if now >= when:
                return True
            self.stopped.wait(min(when - now, 0.5))


class Pace:
    """When a client posts its next play: on a fixed schedule (open loop) or at once (closed loop)."""

    def __init__(self, budget: Budget, rate: float | None, phase: float = 0.0) -> None:
        self.budget = budget
        self.interval = 1 / rate if rate else 0.0
        self.next_at = budget.start + phase
        self.late = 0  # plays that went out more than a second after their time (the server was slow)

    def wait(self) -> bool:
        if not self.interval:
            return not self.budget.over
        if not self.budget.sleep_until(self.next_at):
            return False
        if time.monotonic() - self.next_at > 1.0:
            self.late += 1
        self.next_at += self.interval
        return True


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


@dataclass
class Reply:
    status: int
    headers: http.client.HTTPMessage
    body: bytes
    elapsed: float

    def json(self) -> dict:
        try:
            return json.loads(self.body)
        except ValueError:
            return {}

    @property
    def state(self) -> dict | None:
        return self.json().get("state")


class Browser:
    """Cookies and one kept-alive connection: enough of a browser for the site's forms and JSON actions."""

    def __init__(self, host: str, port: int, timeout: float = 30.0) -> None:
        self.host, self.port, self.timeout = host, port, timeout
        self.cookies: dict[str, str] = {}
        self.conn: http.client.HTTPConnection | None = None
        self.used_at = 0.0

    def request(
        self, method: str, path: str, fields: dict | None = None, *, accept_json: bool = False
    ) -> Reply:
        """One request; connection errors are raised (and the connection dropped) for the caller to retry."""
        headers = {
            "Accept": "application/json" if accept_json else "text/html",
            "Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items()),
        }
        body = None
        if method == "POST":
            body = urlencode(fields or {})
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["X-CSRFToken"] = self.cookies.get("csrftoken", "")
        if self.conn is not None and time.monotonic() - self.used_at > IDLE_REUSE:
            self.close()
        if self.conn is None:
            self.conn = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
        start = time.perf_counter()
        try:
            self.conn.request(method, path, body, headers)
            response = self.conn.getresponse()
            data = response.read()
        except CONNECTION_ERRORS:
            self.close()
            raise
        elapsed = time.perf_counter() - start
        self.used_at = time.monotonic()
        for header in response.headers.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(header).items():
                self.cookies[name] = morsel.value
        if response.will_close:
            self.close()
        return Reply(response.status, response.headers, data, elapsed)

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None


class Judge:
    """One judge's phone: logs in, then enters plays; after a connection error it posts the same play again."""

    def __init__(
        self, address: tuple[str, int], username: str, password: str, budget: Budget, retry_for: float
    ) -> None:
        self.browser = Browser(*address)
        self.username, self.password = username, password
        self.budget, self.retry_for = budget, retry_for
        self.log = Log()
        self.last_status: int | str | None = None  # of the last request: an HTTP status or "connection error"

    def login(self) -> None:
        """The login form, as a browser fills it: the CSRF cookie first, then the form with its token."""
        self.browser.request("GET", "/login/")
        token = self.browser.cookies.get("csrftoken", "")
        fields = {"username": self.username, "password": self.password, "csrfmiddlewaretoken": token}
        reply = self.browser.request("POST", "/login/", fields)
        if reply.status != 302 or "sessionid" not in self.browser.cookies:
            raise RuntimeError(f"{self.username}: login refused (HTTP {reply.status})")

    def send(self, method: str, path: str, fields: dict | None = None, *, accept_json: bool = True):
        """One action, tried again (same fields, same version) after a connection error or a 5xx.

        None when the request cap is reached or the server stays away longer than ``retry_for``.
        """
        give_up = time.monotonic() + self.retry_for
        pause = 0.1
        if method == "POST":  # as the page does: one key per intended write, the same on every retry
            fields = {**(fields or {}), "idempotency_key": uuid.uuid4().hex}
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
        if reply is None or reply.status not in (200, 409) or not reply.state or not done(reply.state):
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
            return int(found.group(1)) if found else None
        page = self.send("GET", f"/match/{match_id}/", accept_json=False)
        found = page and re.search(rb'class="button primary" href="/deal/(\d+)/"', page.body)
        return int(found.group(1)) if found else None

    def state(self, deal_id: int) -> dict | None:
        reply = self.send("GET", f"/deal/{deal_id}/state/")
        return reply.json() if reply is not None and reply.status == 200 else None


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
    if version is None:
        judge.log.stopped_by["could not submit"] += 1
        return False
    judge.log.versions[job.deal_id].append(version)
    rng = random.Random(f"{job.seed}-{job.deals}")
    deal_id = judge.start_deal(job.match_id, rng.choice(TRUMPS))
    state = judge.state(deal_id) if deal_id else None
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


# ---------------------------------------------------------------- the server


class Server:
    """The site in its own process group (so kill -9 takes every worker), on 127.0.0.1 only."""

    def __init__(self, base_dir: Path, env: dict, port: int, log_path: Path, workers: int, threads: int):
        self.base_dir, self.env, self.port, self.log_path = base_dir, env, port, log_path
        self.workers, self.threads = workers, threads
        self.proc: subprocess.Popen | None = None

    @property
    def kind(self) -> str:
        return "gunicorn" if has_gunicorn() else "runserver"

    def command(self) -> list[str]:
        bind = f"127.0.0.1:{self.port}"
        if has_gunicorn():
            return [
                sys.executable, "-m", "gunicorn", "referee.wsgi:application", "-b", bind,
                "-w", str(self.workers), "--threads", str(self.threads),
            ]  # fmt: skip
        return [sys.executable, "manage.py", "runserver", "--noreload", bind]

    def start(self, timeout: float = 60.0) -> float:
        """Start it and wait until the login page answers; returns the seconds that took."""
        start = time.monotonic()
        with open(self.log_path, "ab") as log:
            self.proc = subprocess.Popen(
                self.command(),
                cwd=self.base_dir,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        browser = Browser("127.0.0.1", self.port, timeout=5)
        while time.monotonic() - start < timeout:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server stopped at start (see {self.log_path})")
            try:
                if browser.request("GET", "/login/").status == 200:
                    return time.monotonic() - start
            except CONNECTION_ERRORS:
                time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"the server did not answer within {timeout:.0f} s (see {self.log_path})")

    def signal(self, sig: int) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, sig)

    def cpu_seconds(self) -> float | None:
        """CPU time the server's processes have used so far (Linux /proc; None elsewhere or once stopped)."""
        if self.proc is None:
            return None
        return group_cpu_seconds(self.proc.pid)

    def kill(self) -> None:
        """kill -9 the server and its workers mid-run."""
        self.signal(signal.SIGKILL)
        if self.proc is not None:
            self.proc.wait()

    def stop(self) -> None:
        if self.proc is None:
            return
        self.signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.kill()
        self.proc = None


def group_cpu_seconds(group: int) -> float | None:
    """User and system CPU seconds of the live processes of one process group, from /proc (None without it)."""
    proc = Path("/proc")
    if not (proc / "self" / "stat").exists():
        return None
    ticks, total = os.sysconf("SC_CLK_TCK"), 0
    for stat in proc.glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):  # the process ended meanwhile
            continue
        if int(fields[2]) == group:  # fields after the name: state, ppid, pgrp, … utime (12th), stime (13th)
            total += int(fields[11]) + int(fields[12])
    return total / ticks


def has_gunicorn() -> bool:
    from importlib.util import find_spec

    return find_spec("gunicorn") is not None


def server_env(secret_key: str) -> dict[str, str]:
    """The server's environment: DEBUG off, a fresh secret key, this machine's names; the same database."""
    env = dict(os.environ)
    env.update({"DEBUG": "0", "SECRET_KEY": secret_key, "ALLOWED_HOSTS": "127.0.0.1,localhost"})
    return env


def kill_midway(server: Server, budget: Budget, after: float, restarts: list[float]) -> threading.Thread:
    """A thread that kills the server -9 at ``after`` seconds into the run and starts it again."""

    def run() -> None:
        if budget.sleep_until(budget.start + after):
            server.kill()
            restarts.append(server.start())

    thread = threading.Thread(target=run, name="killer", daemon=True)
    thread.start()
    return thread


# ---------------------------------------------------------------- checks and figures


@dataclass
class Tally:
    """The database against what the clients were told, for one deal."""

    lost: int = 0  # acknowledged, not stored
    duplicated: int = 0  # stored where no client's play belongs (a second copy, or a play never sent)
    rejected_stored: int = 0  # refused to the client, stored all the same

    def add(self, other: Tally) -> None:
        self.lost += other.lost
        self.duplicated += other.duplicated
        self.rejected_stored += other.rejected_stored


def compare_plays(
    expected: Sequence[tuple],
    stored: Sequence[tuple],
    *,
    acked: set[int],
    rejected: set[int] = frozenset(),
    unresolved: set[int] = frozenset(),
) -> Tally:
    """Stored plays must be the record's plays in order, each one acknowledged (or of unknown outcome)."""
    tally = Tally()
    tally.lost = sum(1 for i in acked if i >= len(stored) or stored[i] != expected[i])
    for i, key in enumerate(stored):
        if i >= len(expected) or key != expected[i]:
            tally.duplicated += 1
        elif i in rejected:
            tally.rejected_stored += 1
        elif i not in acked and i not in unresolved:
            tally.duplicated += 1
    return tally


def increasing(values: Sequence[int]) -> bool:
    return all(a < b for a, b in zip(values, values[1:], strict=False))


def percentile(values: Sequence[float], q: int) -> float:
    if not values:
        return float("nan")
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


def table_text(rows: Sequence[tuple[str, str]]) -> str:
    width = max(len(name) for name, _ in rows)
    return "\n".join(f"{name:<{width}}  {value}" for name, value in rows)
