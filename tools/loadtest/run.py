"""Load test (not a test of the suite): many judges enter plays over HTTP into a real server at once.

It sets up a throwaway tournament on the database the server uses (one judge account and one started deal per
table), starts the server itself (gunicorn, else runserver; DEBUG off) or uses ``--url`` of a running one on this
machine, and has one client per table post the plays of a simulated deal the way the trick-entry page does.
Afterwards the database is checked against what the clients were told: every acknowledged play stored exactly
once, no refused play stored, versions only going up, and every deal judged again by the engine. ``make load``
runs it on a throwaway SQLite database. ``--spectators`` adds anonymous visitors polling a tournament's public
pages (``tools.loadtest.spectators``), ``--servers`` spreads every client over several running servers.

This module is the command and the run; the set-up is ``prepare``, the checks ``audit``, the table ``report``.
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
from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from referee import serve
from referee.serve import free_port
from tools.loadtest.audit import verify
from tools.loadtest.browser import CONNECTION_ERRORS
from tools.loadtest.budget import Budget, Pace
from tools.loadtest.clients import Judge, Log, TableJob, bare_pages, run_pair, run_table
from tools.loadtest.event import public_pages, spectated
from tools.loadtest.figures import (
    table_text,
)
from tools.loadtest.prepare import set_up
from tools.loadtest.report import figures, report
from tools.loadtest.server import (
    Server,
    kill_midway,
    local_address,
    server_env,
)
from tools.loadtest.spectators import gather, public_figures, public_rows, warm, watch


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
            "--crowd-from-sign-ins",
            action="store_true",
            help="the spectators poll from before the judges sign in (their figures shown apart for each phase)",
        )
        parser.add_argument(
            "--no-etags", action="store_true", help="spectators never send If-None-Match (a cache turned off)"
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
    pages, interval, etags = options["pages"], options["spectator_interval"], not options["no_etags"]
    crowd = None
    if options["crowd_from_sign_ins"]:  # the crowd is there before the judges sign in, and stays
        warm(addresses, pages)
        crowd = Budget(float("inf"), options["max_requests"])
        watching, logs = watch(
            addresses, pages, options["spectators"], interval, crowd, options["seed"], etags
        )
    clock = time.monotonic()
    with ThreadPoolExecutor(8) as pool:
        try:
            list(pool.map(Judge.login, [j for group in judges for j in group]))
        except (RuntimeError, *CONNECTION_ERRORS) as exc:
            raise CommandError(f"login failed: {exc}") from exc
    phases["logins"] = time.monotonic() - clock
    if crowd is None:  # a crowd there from the start was preceded by its own warm-up
        warm(addresses, pages)
    phases["warm-up"] = time.monotonic() - clock - phases["logins"]
    connection.close()  # this process keeps no database connection open while the server writes
    run = Budget(options["duration"], options["max_requests"])
    for group in judges:
        for j in group:
            j.budget = run
    restarts: list[float] = []
    killer = None
    if options["kill"] and server is not None:  # --kill needs a server this command started (handle checks)
        after = options["kill_after"] if options["kill_after"] is not None else options["duration"] / 2
        killer = kill_midway(server, run, after, restarts)
    server_cpu, client_cpu = server.cpu_seconds() if server else None, time.process_time()
    if crowd is None:
        watching, logs = watch(addresses, pages, options["spectators"], interval, run, options["seed"], etags)
    try:
        log = run_clients(jobs, judges, run, options)
        elapsed = time.monotonic() - run.start
        log.cpu["clients"] = time.process_time() - client_cpu
        if (
            server is not None
            and server_cpu is not None
            and not restarts
            and (now := server.cpu_seconds()) is not None
        ):
            log.cpu["server"] = now - server_cpu
        if crowd is not None:
            crowd.stopped.set()
        signins = (crowd.start, run.start) if crowd is not None else None
        log.public = gather(watching, logs, addresses, pages, options["standings_burst"], signins)
        if server is not None and not restarts and options["bare_seconds"] > 0:
            log.bare = measure_bare_page(server, addresses[0], options)
    finally:
        run.stopped.set()  # also on Ctrl-C: clients and the killer stop at their next step
        if crowd is not None:
            crowd.stopped.set()
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
