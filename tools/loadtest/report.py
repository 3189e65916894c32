"""The load test's report: the short table printed after the run, the figures written with ``--json``, and the
reasons a run failed."""

from __future__ import annotations

from django.db import connection

from tools.loadtest.clients import Log
from tools.loadtest.figures import Tally, percentile


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
