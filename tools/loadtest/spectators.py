"""The load test's spectators: anonymous visitors polling a tournament's public pages as a browser does.

Each spectator asks for one public page every ``interval`` seconds (tournament, standings, a round, results, a
pair, the projector screen when the site has one), sending ``If-None-Match`` once it holds the page's ETag, so an
unchanged page comes back as a 304. Their latencies are kept apart from the judges'. ``standings_burst`` is the
closed-loop figure: a few clients asking for the standings back to back, the throughput in requests per second.
"""

from __future__ import annotations

import random
import threading
import time
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from tools.loadtest.browser import CONNECTION_ERRORS, Browser
from tools.loadtest.budget import Budget
from tools.loadtest.figures import percentile


@dataclass
class SpectatorLog:
    latencies: list[float] = field(default_factory=list)
    statuses: Counter = field(default_factory=Counter)
    times: list[float] = field(default_factory=list)  # when each answered request was sent (monotonic)

    def merge(self, other: SpectatorLog) -> None:
        self.latencies += other.latencies
        self.statuses.update(other.statuses)
        self.times += other.times

    def between(self, start: float, end: float) -> list[float]:
        """The latencies of the requests sent from ``start`` to ``end``."""
        return [lat for at, lat in zip(self.times, self.latencies, strict=True) if start <= at < end]

    @property
    def errors(self) -> int:
        """Anything but a page or a 304: a 4xx, a 5xx, a connection error."""
        return sum(n for status, n in self.statuses.items() if status not in (200, 304))


class Spectator:
    """One anonymous browser: cookies, a kept-alive connection and the ETag of each page it has seen."""

    def __init__(
        self,
        address: tuple[str, int],
        pages: Sequence[str],
        budget: Budget,
        rng: random.Random,
        etags: bool = True,
    ):
        self.browser = Browser(*address, timeout=30)
        self.pages, self.budget, self.rng, self.use_etags = pages, budget, rng, etags
        self.etags: dict[str, str] = {}
        self.log = SpectatorLog()

    def poll(self, path: str) -> None:
        headers = {"If-None-Match": self.etags[path]} if path in self.etags else {}
        sent, start = time.monotonic(), time.perf_counter()
        try:
            reply = self.browser.request("GET", path, headers=headers)
        except CONNECTION_ERRORS:
            self.log.statuses["connection error"] += 1
            return
        self.log.latencies.append(time.perf_counter() - start)
        self.log.times.append(sent)
        self.log.statuses[reply.status] += 1
        if self.use_etags and reply.status == 200 and reply.headers.get("ETag"):
            self.etags[path] = reply.headers["ETag"]

    def run(self, interval: float, phase: float) -> SpectatorLog:
        at = self.budget.start + phase
        while self.budget.sleep_until(at) and self.budget.take():
            self.poll(self.rng.choice(self.pages))
            at += interval
        self.browser.close()
        return self.log


def warm(addresses: Sequence[tuple[str, int]], pages: Sequence[str]) -> None:
    """Each public page asked for once on each server before the run, as the first visitors of the day would."""
    for address in addresses:
        browser = Browser(*address, timeout=60)
        for path in pages:
            browser.request("GET", path)
        browser.close()


def watch(
    addresses: Sequence[tuple[str, int]],
    pages: Sequence[str],
    count: int,
    interval: float,
    budget: Budget,
    seed,
    etags: bool = True,
) -> tuple[list[threading.Thread], list[SpectatorLog]]:
    """Start ``count`` spectators (threads, spread over the servers); their logs fill in as they end. Without
    ``etags`` they never send ``If-None-Match``: every poll is a whole page, as a browser with its cache off."""
    logs: list[SpectatorLog] = []
    rng = random.Random(f"{seed}-spectators")
    threads = []
    for n in range(count):
        spectator = Spectator(
            addresses[n % len(addresses)], pages, budget, random.Random(f"{seed}-{n}"), etags
        )
        phase = rng.uniform(0, interval)

        def run(s: Spectator = spectator, p: float = phase) -> None:
            logs.append(s.run(interval, p))

        thread = threading.Thread(target=run, name=f"spectator-{n}", daemon=True)
        thread.start()
        threads.append(thread)
    return threads, logs


def standings_burst(
    addresses: Sequence[tuple[str, int]], path: str, seconds: float, clients: int = 8
) -> tuple[float, SpectatorLog]:
    """Closed loop: ``clients`` browsers asking for ``path`` back to back (no ETag) for ``seconds``; req/s."""
    budget = Budget(seconds, 10**9)

    def loop(n: int) -> SpectatorLog:
        spectator = Spectator(addresses[n % len(addresses)], [path], budget, random.Random(n))
        while not budget.over:
            spectator.etags.clear()
            spectator.poll(path)
        spectator.browser.close()
        return spectator.log

    with ThreadPoolExecutor(clients) as pool:
        logs = list(pool.map(loop, range(clients)))
    elapsed = time.monotonic() - budget.start
    log = SpectatorLog()
    for one in logs:
        log.merge(one)
    return log.statuses.get(200, 0) / elapsed, log


def gather(
    threads: Sequence[threading.Thread],
    logs: Sequence[SpectatorLog],
    addresses: Sequence[tuple[str, int]],
    pages: Sequence[str],
    burst: float,
    signins: tuple[float, float] | None = None,
) -> dict:
    """The spectators' logs once they have stopped, then the closed-loop standings (when asked for).
    ``signins``: when the judges' sign-ins began and the plays began, for a crowd there from the sign-ins on."""
    for thread in threads:
        thread.join()
    log = SpectatorLog()
    for one in logs:
        log.merge(one)
    rate, burst_log = (
        standings_burst(addresses, pages[1], burst) if burst and pages else (None, SpectatorLog())
    )
    return {
        "log": log,
        "count": len(threads),
        "burst_rate": rate,
        "burst_log": burst_log,
        "burst": burst,
        "signins": signins,
    }


def latency_text(latencies: Sequence[float]) -> str:
    if not latencies:
        return "-"
    return " / ".join(f"{1000 * percentile(latencies, q):.0f}" for q in (50, 95, 99)) + " ms"


def public_rows(public: dict, elapsed: float, options) -> list[tuple[str, str]]:
    """The report's lines on the public pages: the spectators', then the closed-loop standings'."""
    rows = (
        spectator_rows(public["log"], elapsed, public["count"], options["spectator_interval"])
        if public["count"]
        else []
    )
    if public["count"]:
        rows += [
            (f"spectators' p50 / p95 / p99 while {PHASE_WORDS[name]}", latency_text(lat))
            for name, lat in phase_latencies(public).items()
        ]
    if public["burst_rate"] is not None:
        burst = public["burst_log"]
        rows += [
            ("standings, closed loop", f"{public['burst_rate']:.0f} req/s over {public['burst']:g} s"),
            ("standings' latency p50 / p95 / p99", latency_text(burst.latencies)),
        ]
    return rows


PHASE_WORDS = {"sign_ins": "judges sign in", "plays": "they play"}


def phase_latencies(public: dict) -> dict[str, list[float]]:
    """A crowd there from the sign-ins on (``gather``'s ``signins``): its latencies while the judges sign in and
    while they play; nothing for a crowd that came with the plays."""
    if not public.get("signins"):
        return {}
    began, played = public["signins"]
    log = public["log"]
    return {"sign_ins": log.between(began, played), "plays": log.between(played, float("inf"))}


def public_figures(public: dict, elapsed: float) -> dict:
    phases = {
        f"spectators_while_{name}": {
            "requests": len(lat),
            "p95_ms": 1000 * percentile(lat, 95) if lat else None,
        }
        for name, lat in phase_latencies(public).items()
    }
    return {
        **phases,
        "spectators": spectator_figures(public["log"], elapsed),
        "standings_closed_loop_rps": public["burst_rate"],
        "standings_closed_loop": spectator_figures(public["burst_log"], public["burst"] or 1.0),
    }


def spectator_rows(log: SpectatorLog, elapsed: float, count: int, interval: float) -> list[tuple[str, str]]:
    statuses = ", ".join(f"{k}: {v}" for k, v in sorted(log.statuses.items(), key=lambda kv: str(kv[0])))
    served = sum(log.statuses.values())
    return [
        ("spectators", f"{count}, one public page every {interval:g} s each"),
        ("public pages served", f"{served} ({served / elapsed:.1f} req/s)" if elapsed else str(served)),
        ("spectators' latency p50 / p95 / p99", latency_text(log.latencies)),
        ("spectators' requests by status", statuses or "-"),
    ]


def spectator_figures(log: SpectatorLog, elapsed: float) -> dict:
    lat = log.latencies
    return {
        "requests": sum(log.statuses.values()),
        "requests_per_s": sum(log.statuses.values()) / elapsed if elapsed else 0.0,
        "p50_ms": 1000 * percentile(lat, 50) if lat else None,
        "p95_ms": 1000 * percentile(lat, 95) if lat else None,
        "p99_ms": 1000 * percentile(lat, 99) if lat else None,
        "statuses": {str(k): v for k, v in log.statuses.items()},
        "errors": log.errors,
    }
