"""Load test (not a test of the suite): many judges enter plays over HTTP into a real server at once.

It sets up a throwaway tournament on the database the server uses (one judge account and one started deal per
table), starts the server itself (gunicorn, else runserver; DEBUG off) or uses ``--url`` of a running one on this
machine, and has one client per table post the plays of a simulated deal the way the trick-entry page does.
Afterwards the database is checked against what the clients were told: every acknowledged play stored exactly
once, no refused play stored, versions only going up, and every deal judged again by the engine. ``make load``
runs it on a throwaway SQLite database. ``--spectators`` adds anonymous visitors polling a tournament's public
pages (``tools.loadtest.spectators``), ``--servers`` spreads every client over several running servers.
"""

from __future__ import annotations

import json
import random
import secrets
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction
from simple_history.utils import bulk_create_with_history

from referee import serve
from referee.table.recording.deal_entry import start_deal
from referee.table.recording.records import deal_record
from rules.cards import format_cards, parse_cards
from rules.judge import judge
from rules.simulate import simulate_deal
from tools.loadtest.clients import (
    CONNECTION_ERRORS,
    TRUMPS,
    Budget,
    Judge,
    Log,
    Pace,
    TableJob,
    bare_pages,
    card_key,
    plays_of,
    run_pair,
    run_table,
)
from tools.loadtest.event import public_pages, spectated
from tools.loadtest.figures import (
    Tally,
    compare_plays,
    increasing,
    percentile,
    table_text,
)
from tools.loadtest.server import (
    Server,
    free_port,
    kill_midway,
    local_address,
    server_env,
)
from tools.loadtest.spectators import gather, public_figures, public_rows, warm, watch
from tournaments.competition.access import JUDGE_GROUP, add_to_group
from tournaments.competition.accounts import seat_table
from tournaments.models import Deal, Play, Round, Tournament, Trick
from tournaments.scoring.fold import levels_before
from tournaments.scoring.versions import touch

PASSWORD = "load-judge-pass"


class Command(BaseCommand):
    help = "Many judges posting plays over HTTP at once; checks that no acknowledged play is lost or doubled."

    def add_arguments(self, parser):
        parser.add_argument("--tables", type=int, default=64, help="tables, one judge client each")
        parser.add_argument(
            "--conflicts", type=int, default=0, help="extra tables, each with two racing phones"
        )
        parser.add_argument("--rate-per-table", type=float, default=0.5, help="plays per second per table")
        parser.add_argument("--closed", action="store_true", help="closed loop: each client posts at once")
        parser.add_argument("--duration", type=float, default=120.0, help="seconds of load")
        parser.add_argument("--max-requests", type=int, default=200_000, help="requests in all, at most")
        parser.add_argument("--kill", action="store_true", help="kill -9 the server mid-run and restart it")
        parser.add_argument("--kill-after", type=float, help="seconds into the run (default: half-way)")
        parser.add_argument("--retry-for", type=float, default=30.0, help="seconds a client retries a play")
        parser.add_argument("--preplayed", type=int, default=0, help="tricks entered before the run")
        parser.add_argument("--url", help="a server already running on this machine (http://127.0.0.1:PORT)")
        parser.add_argument(
            "--port", type=int, help="port of the server this command starts (default: a free one)"
        )
        parser.add_argument("--workers", type=int, default=serve.WORKERS, help="as `make serve` (default)")
        parser.add_argument("--threads", type=int, default=serve.THREADS, help="as `make serve` (default)")
        parser.add_argument("--seed", default="load")
        parser.add_argument(
            "--spectators", type=int, default=0, help="anonymous visitors polling public pages"
        )
        parser.add_argument(
            "--spectator-interval", type=float, default=5.0, help="seconds between a spectator's polls"
        )
        parser.add_argument(
            "--spectate", help="slug of the tournament they watch (default: a simulated event)"
        )
        parser.add_argument(
            "--event", default="64x9", help="the simulated event: PAIRSxROUNDS (default 64x9)"
        )
        parser.add_argument(
            "--standings-burst", type=float, default=0.0, help="seconds of closed-loop standings"
        )
        parser.add_argument(
            "--servers", help="running servers to spread the clients over: URL,URL (as --url)"
        )
        parser.add_argument(
            "--bare-seconds",
            type=float,
            default=10.0,
            help="seconds of log-in page GETs after the run, the bare page a play's server CPU is compared with",
        )
        parser.add_argument("--json", dest="json_path", help="also write the figures to this file")

    def handle(self, *args, **options):
        # `kill PID` ends the run like Ctrl-C, so the server this command started is always stopped.
        signal.signal(signal.SIGTERM, signal.default_int_handler)
        if options["kill"] and (options["url"] or options["servers"]):
            raise CommandError("--kill needs a server this command starts (leave out --url and --servers)")
        if options["tables"] < 0 or options["conflicts"] < 0 or options["tables"] + options["conflicts"] < 1:
            raise CommandError("--tables and --conflicts: at least one table in all")
        if options["rate_per_table"] <= 0 or options["duration"] <= 0:
            raise CommandError("--rate-per-table and --duration must be positive")
        if options["spectators"] < 0 or options["spectator_interval"] <= 0 or options["standings_burst"] < 0:
            raise CommandError("--spectators, --spectator-interval and --standings-burst: none below zero")
        given = options["servers"] or options["url"]
        try:
            urls = given.split(",") if given else [f"http://127.0.0.1:{options['port'] or free_port()}"]
            addresses = [local_address(url.strip()) for url in urls]
            pairs, rounds = (int(n) for n in options["event"].lower().split("x"))
        except ValueError as exc:
            raise CommandError(f"{exc} (--servers URL,URL; --event PAIRSxROUNDS)") from exc
        clock = time.monotonic()
        jobs = set_up(options["tables"] + options["conflicts"], options["seed"], options["preplayed"])
        options["pages"] = []
        if options["spectators"] or options["standings_burst"]:
            event = spectated(options["spectate"], pairs, rounds)
            options["pages"] = public_pages(event, options["seed"])
        phases = {"set-up": time.monotonic() - clock}
        server = None
        if not given:
            server = start_server(addresses[0][1], options["workers"], options["threads"])
            phases["server start"] = time.monotonic() - clock - sum(phases.values())
        try:
            log, elapsed, restarts = drive(jobs, addresses, server, options, phases)
        except KeyboardInterrupt:
            raise CommandError("interrupted: the server is stopped, nothing was checked") from None
        finally:
            if server is not None:
                server.stop()
        clock = time.monotonic()
        tally, faults, checked = verify(log)
        phases["checks"] = time.monotonic() - clock
        rows, failures = report(log, tally, faults, checked, elapsed, restarts, server, options)
        rows += public_rows(log.public, elapsed, options)
        if log.public["log"].errors or log.public["burst_log"].errors:
            failures.append(
                f"public pages: {log.public['log'].errors + log.public['burst_log'].errors} errors"
            )
        rows.append(("phases", ", ".join(f"{k} {v:.1f} s" for k, v in phases.items())))
        if server is not None:
            rows.append(("server log", str(server.log_path) if failures else "removed (clean run)"))
        self.stdout.write(table_text(rows))
        if options["json_path"]:
            numbers = {**figures(log, tally, faults, checked, elapsed), **public_figures(log.public, elapsed)}
            Path(options["json_path"]).write_text(json.dumps(numbers))
        if failures:
            raise CommandError("; ".join(failures))
        if server is not None:
            server.log_path.unlink(missing_ok=True)


# ---------------------------------------------------------------- set-up (in the database)


@transaction.atomic
def set_up(tables: int, seed: str, preplayed: int) -> list[TableJob]:
    """A throwaway tournament: per table a judge (one password hash for all), a match and a started deal."""
    stamp = time.time_ns()
    tournament = Tournament.objects.create(name=f"load {stamp}", slug=f"load-{stamp}")
    rnd = Round.objects.create(tournament=tournament, number=1, state=Round.State.PUBLISHED)
    password = make_password(PASSWORD)
    rng = random.Random(seed)
    jobs = []
    for table in range(1, tables + 1):
        judge = get_user_model().objects.create(username=f"load-{stamp}-{table}", password=password)
        add_to_group(judge, JUDGE_GROUP)
        match = seat_table(rnd, table, judge, (f"NS{table}", f"EW{table}"))
        deal = start_deal(match, judge, trump=rng.choice(TRUMPS), declarer=rng.choice("NESW"))
        job_seed = f"{seed}-{table}"
        record = simulate_deal(
            tournament.ruleset, banker=deal.banker, level=deal.level, trump=deal.trump, seed=f"{job_seed}-1"
        )
        position = preplay(deal, judge, record, preplayed)
        deal.refresh_from_db()
        jobs.append(
            TableJob(
                table,
                match.pk,
                deal.pk,
                deal.version,
                judge.username,
                PASSWORD,
                record,
                tournament.ruleset,
                job_seed,
                position,
            )
        )
    return jobs


def preplay(deal: Deal, user, record: dict, tricks: int) -> int:
    """Store the first ``tricks`` tricks (never the whole deal) at once, one version for them all: a quick start
    for runs that should reach the end of a deal. The engine judges them again with the rest afterwards.
    """
    entries = record["tricks"][: min(tricks, len(record["tricks"]) - 1)]
    if not entries:
        return 0

    def canon(text: str) -> str:
        return format_cards(parse_cards(text))

    rows = []
    for number, entry in enumerate(entries):
        throw = entry.get("throw") or {}
        rows.append(
            Trick(
                deal=deal,
                number=number,
                throw_attempted=canon(throw["attempted"]) if throw else "",
                throw_challenger=throw.get("challenger", ""),
                throw_shown=canon(throw["shown"]) if throw else "",
            )
        )
    bulk_create_with_history(rows, Trick, default_user=user)
    made = list(deal.tricks.order_by("number"))
    plays = [
        Play(trick=trick, order=order, seat=seat, cards=canon(cards), recorded_by=user)
        for trick, entry in zip(made, entries, strict=True)
        for order, (seat, cards) in enumerate(entry["plays"])
    ]
    bulk_create_with_history(plays, Play, default_user=user)
    touch(deal, user)
    return len(plays)


# ---------------------------------------------------------------- the run (over HTTP)


def start_server(port: int, workers: int, threads: int) -> Server:
    """Static files collected for DEBUG off (the pages name them from the manifest), then the server."""
    env = server_env(secrets.token_urlsafe(50))
    base_dir = Path(settings.BASE_DIR)
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"], cwd=base_dir, env=env, check=True
    )
    log_path = Path(tempfile.gettempdir()) / f"referee-load-{port}.log"
    server = Server(base_dir, env, port, log_path, workers, threads)
    try:
        server.start()
    except RuntimeError as exc:
        raise CommandError(str(exc)) from exc
    return server


def drive(
    jobs: list[TableJob], addresses, server: Server | None, options, phases: dict
) -> tuple[Log, float, list[float]]:
    """Log every judge in, then run the tables (and the racing pairs) until the budget ends."""
    budget = Budget(float("inf"), options["max_requests"])  # logins are not part of the run

    def judge_for(job: TableJob) -> Judge:  # the tables spread over the servers
        address = addresses[job.table % len(addresses)]
        return Judge(address, job.username, job.password, budget, options["retry_for"])

    judges = [[judge_for(job)] for job in jobs[: options["tables"]]]
    judges += [[judge_for(job), judge_for(job)] for job in jobs[options["tables"] :]]
    clock = time.monotonic()
    with ThreadPoolExecutor(8) as pool:
        try:
            list(pool.map(Judge.login, [j for group in judges for j in group]))
        except (RuntimeError, *CONNECTION_ERRORS) as exc:
            raise CommandError(f"login failed: {exc}") from exc
    phases["logins"] = time.monotonic() - clock
    warm(addresses, options["pages"])
    phases["warm-up"] = time.monotonic() - clock - phases["logins"]
    connection.close()  # this process keeps no database connection open while the server writes
    run = Budget(options["duration"], options["max_requests"])
    for group in judges:
        for j in group:
            j.budget = run
    restarts: list[float] = []
    killer = None
    if options["kill"]:
        after = options["kill_after"] if options["kill_after"] is not None else options["duration"] / 2
        killer = kill_midway(server, run, after, restarts)
    server_cpu, client_cpu = server.cpu_seconds() if server else None, time.process_time()
    pages, interval = options["pages"], options["spectator_interval"]
    watching, logs = watch(addresses, pages, options["spectators"], interval, run, options["seed"])
    try:
        log = run_clients(jobs, judges, run, options)
        elapsed = time.monotonic() - run.start
        log.cpu["clients"] = time.process_time() - client_cpu
        if server_cpu is not None and not restarts and (now := server.cpu_seconds()) is not None:
            log.cpu["server"] = now - server_cpu
        log.public = gather(watching, logs, addresses, pages, options["standings_burst"])
        if server is not None and not restarts and options["bare_seconds"] > 0:
            log.bare = measure_bare_page(server, addresses[0], options)
    finally:
        run.stopped.set()  # also on Ctrl-C: clients and the killer stop at their next step
        if killer is not None:
            killer.join()
    return log, elapsed, restarts


BARE_THREADS = (
    8  # visitors at once in the bare page's phase: enough to keep both of the server's processes busy
)


def measure_bare_page(server: Server, address, options) -> dict:
    """A short closed loop of log-in page GETs on the same server, after the plays: its server CPU per request,
    the yardstick of a play's (``cpu_ratio``)."""
    budget = Budget(options["bare_seconds"], options["max_requests"])
    before = server.cpu_seconds()
    ok, other = bare_pages(address, budget, BARE_THREADS)
    after = server.cpu_seconds()
    cpu = after - before if before is not None and after is not None else None
    return {"requests": ok, "other": other, "seconds": time.monotonic() - budget.start, "server_cpu": cpu}


def run_clients(jobs: list[TableJob], judges: list[list[Judge]], run: Budget, options) -> Log:
    """One thread per table (per racing pair), each on its own schedule; their logs merged."""
    rate = None if options["closed"] else options["rate_per_table"]
    phase = random.Random(options["seed"])
    with ThreadPoolExecutor(len(jobs)) as pool:
        futures = []
        for job, group in zip(jobs, judges, strict=True):
            pace = Pace(run, rate, phase.uniform(0, 1 / rate) if rate else 0.0)
            if len(group) == 1:
                futures.append(pool.submit(run_table, job, group[0], pace))
            else:
                futures.append(pool.submit(run_pair, job, group, pace))
        log = Log()
        try:
            for future in futures:
                log.merge(future.result())
        finally:
            run.stopped.set()
    return log


# ---------------------------------------------------------------- checks (in the database)


def verify(log: Log) -> tuple[Tally, list[str], int]:
    """Every deal the clients touched, against what they were told; returns the tally, faults and deals checked."""
    tally, faults = Tally(), []
    for deal_id, record in log.records.items():
        deal = Deal.objects.select_related("match__round__tournament").get(pk=deal_id)
        stored = [
            card_key(seat, cards)
            for seat, cards in Play.objects.filter(trick__deal_id=deal_id)
            .order_by("trick__number", "order")
            .values_list("seat", "cards")
        ]
        tally.add(
            compare_plays(
                [p.key for p in plays_of(record)],
                stored,
                acked=log.acked[deal_id],
                rejected=log.rejected[deal_id],
                unresolved=log.unresolved[deal_id],
            )
        )
        versions = list(
            Deal.history.filter(id=deal_id).order_by("history_id").values_list("version", flat=True)
        )
        if not increasing(versions) or versions[-1] != deal.version:
            faults.append(f"deal {deal_id}: versions {versions} in its history")
        fault = rejudge(deal)
        if fault:
            faults.append(f"deal {deal_id}: {fault}")
    if log.version_faults:
        faults.append(f"{log.version_faults} deals whose versions went down in a client's replies")
    return tally, faults, len(log.records)


def rejudge(deal: Deal) -> str | None:
    """The engine on the stored deal (the service's record builder): legal plays, and the stored verdict's result."""
    verdict = judge(deal_record(deal, levels=levels_before(deal)), live=True)
    if not verdict.ok:
        return f"the engine finds {[v.code for v in verdict.violations]}"
    if deal.verdict is not None:
        fresh = json.loads(json.dumps(verdict.as_dict()))
        if fresh.get("result") != deal.verdict.get("result"):
            return "the stored verdict differs from the engine's"
    return None


# ---------------------------------------------------------------- figures


def server_errors(log: Log) -> int:
    return sum(n for status, n in log.statuses.items() if isinstance(status, int) and status >= 500)


def figures(log: Log, tally: Tally, faults: list[str], checked: int, elapsed: float) -> dict:
    lat = log.latencies
    return {
        "accepted": len(lat),
        "throughput": len(lat) / elapsed if elapsed else 0.0,
        "p50_ms": 1000 * percentile(lat, 50) if lat else None,
        "p95_ms": 1000 * percentile(lat, 95) if lat else None,
        "p99_ms": 1000 * percentile(lat, 99) if lat else None,
        "statuses": {str(k): v for k, v in log.statuses.items()},
        "server_errors": server_errors(log),
        "lost": tally.lost,
        "duplicated": tally.duplicated,
        "rejected_stored": tally.rejected_stored,
        "conflicts": dict(log.conflicts),
        "deals_checked": checked,
        "faults": faults,
        "retried": log.retried,
        "recovered": log.recovered,
        "late": log.late,
        "stopped_by": dict(log.stopped_by),
        "cpu_seconds": dict(log.cpu),
        "bare_page": dict(log.bare),
        "cpu_ratio": cpu_ratio(log),
    }


def cpu_text(log: Log) -> str:
    """Milliseconds of CPU per accepted play, the server's (when this command started it) and the clients'."""
    plays = len(log.latencies)
    if not plays:
        return "-"
    parts = [
        f"{name} {1000 * seconds / plays:.1f} ms" for name, seconds in sorted(log.cpu.items(), reverse=True)
    ]
    return ", ".join(parts)


def bare_cpu_ms(log: Log) -> float | None:
    """Milliseconds of server CPU per bare page (the log-in page), when the run measured it."""
    bare = log.bare
    if not bare or not bare.get("requests") or bare.get("server_cpu") is None:
        return None
    return 1000 * bare["server_cpu"] / bare["requests"]


def cpu_ratio(log: Log) -> float | None:
    """A play's server CPU over a bare page's, on the same server in the same run (the target: at most 3)."""
    bare, plays = bare_cpu_ms(log), len(log.latencies)
    if not bare or not plays or "server" not in log.cpu:
        return None
    return 1000 * log.cpu["server"] / plays / bare


def bare_text(log: Log) -> str:
    bare = bare_cpu_ms(log)
    if bare is None:
        return "-"
    b = log.bare
    return (
        f"server {bare:.2f} ms per request ({b['requests']} in {b['seconds']:.1f} s, "
        f"{b['requests'] / b['seconds']:.0f}/s; {b['other']} other answers)"
    )


def report(log, tally, faults, checked, elapsed, restarts, server, options) -> tuple[list, list[str]]:
    """The short table, and the reasons the run failed (none: exit code 0)."""
    lat = log.latencies
    mode = "closed loop" if options["closed"] else f"open loop, {options['rate_per_table']} plays/s per table"
    statuses = ", ".join(f"{k}: {v}" for k, v in sorted(log.statuses.items(), key=lambda kv: str(kv[0])))
    rows = [
        ("run", f"{options['tables']} tables + {options['conflicts']} racing pairs, {mode}, {elapsed:.1f} s"),
        (
            "server",
            f"{server.kind} -w {options['workers']} --threads {options['threads']}" if server else "--url",
        ),
        ("database", connection.vendor),
        ("plays accepted (200)", str(len(lat))),
        ("throughput", f"{len(lat) / elapsed:.1f} plays/s" if elapsed else "-"),
        (
            "latency p50 / p95 / p99",
            " / ".join(f"{1000 * percentile(lat, q):.0f}" for q in (50, 95, 99)) + " ms" if lat else "-",
        ),
        ("CPU per accepted play", cpu_text(log)),
        ("bare page (GET /login/)", bare_text(log)),
        (
            "play / bare page, server CPU",
            f"{ratio:.1f}×" if (ratio := cpu_ratio(log)) is not None else "-",
        ),
        ("requests by status", statuses or "-"),
        (
            "retried after an error",
            f"{log.retried} ({log.recovered} retried plays found already stored: 409)",
        ),
        ("plays sent > 1 s late", str(log.late)),
        ("races", ", ".join(f"{k}: {v}" for k, v in sorted(log.conflicts.items())) or "-"),
        (
            "server kills",
            f"{len(restarts)} (back in {', '.join(f'{r:.1f}' for r in restarts)} s)" if restarts else "0",
        ),
        ("lost writes", str(tally.lost)),
        ("duplicated writes", str(tally.duplicated)),
        ("refused but stored", str(tally.rejected_stored)),
        ("deals checked", f"{checked} (versions, engine re-judge): {len(faults)} faults"),
    ]
    if log.stopped_by:
        rows.append(("tables stopped early", ", ".join(f"{k}: {v}" for k, v in log.stopped_by.items())))
    failures = list(faults)
    if log.stopped_by:
        failures.append(f"tables stopped early: {dict(log.stopped_by)}")
    if tally.lost:
        failures.append(f"{tally.lost} acknowledged plays lost")
    if tally.duplicated:
        failures.append(f"{tally.duplicated} plays stored twice or unasked")
    if tally.rejected_stored:
        failures.append(f"{tally.rejected_stored} refused plays stored")
    if server_errors(log):
        failures.append(f"{server_errors(log)} server errors (5xx)")
    if log.conflicts.get("both accepted"):
        failures.append("a race accepted the same play twice")
    if log.bare.get("other"):
        failures.append(f"bare page: {log.bare['other']} answers other than 200")
    if options["kill"] and len(restarts) != 1:
        failures.append("the server was not killed and restarted")
    return rows, failures
