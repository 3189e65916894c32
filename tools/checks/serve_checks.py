"""Issue 38's checks against a server started as ``make serve`` starts it (not a test of the suite).

``python -m tools.checks.serve_checks`` (``make serve-checks``) makes a scratch folder in /tmp — a new SQLite
database, the file cache and the throttle store (``CACHE_DIR``), the static files, the backups — and starts
``python -m referee.serve`` there on 127.0.0.1 (DEBUG off, migrate, collectstatic, gunicorn 2×8, the backup
timer), exactly as ``make serve`` does; prepares an event in that database (``tools.checks.event``); runs the
checks (``tools.checks.probes``: 3,000 ``X-Live``, ``?sort=`` and ``Accept-Language`` values for one public
page, 64 wrong PINs at once at the tablet and 64 at a table, the pair locked at its table tried at the tablet, 6
identical adjustments at once, 2 identical forfeits at once and one withdrawn, 6 identical new series at once);
prints each figure with PASS or FAIL and the machine's load; stops the server and removes the folder (kept, with the
server's log, when a check fails). Nothing is written in the repository.

``--postgres URL`` puts the scratch database on PostgreSQL instead (made by the tool, dropped after), as
``make serve`` with ``DATABASE_URL`` set. ``--url`` checks a server already running on this machine instead;
this process must then be given the server's environment (``DATABASE_URL``, ``CACHE_DIR`` or ``REDIS_URL``), as
``manage.py load --url`` is. Exit status 1 when a check fails.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
from pathlib import Path

from tools.checks.scratch import scratch_server
from tools.loadtest.server import local_address


class ChecksFailed(Exception):
    pass


def run_checks(url: str, args: argparse.Namespace) -> list:
    """Prepare the event in the server's database, then each check in turn; their figures."""
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "referee.settings")
    django.setup()
    from django.db import connection

    from tools.checks import probes
    from tools.checks.event import prepare

    address = local_address(url)
    event = prepare(args.seed)
    connection.close()  # this process holds no connection while the server writes
    figures = [
        probes.live_flood(address, event, args.live_values),
        probes.query_flood(address, event, args.live_values),
        probes.language_flood(address, event, args.live_values),
        probes.pin_burst(address, event, args.pins),
        probes.table_burst(address, event, args.pins),
        probes.table_lock(address, event),
        probes.adjustments_at_once(address, event, args.adjustments),
        probes.forfeit_twins(address, event),
        probes.series_twins(address, event, args.adjustments),
    ]
    connection.close()
    return figures


def load_text() -> str:
    """The machine's load averages over 1, 5 and 15 minutes (as ``uptime`` prints them)."""
    one, five, fifteen = os.getloadavg()
    return f"load average: {one:.2f}, {five:.2f}, {fifteen:.2f}"


def report(figures: list, started_load: str, json_path: str | None) -> bool:
    """Print each figure and its verdict, the load before and after; whether all passed."""
    for figure in figures:
        print(figure.line())
    print(f"before: {started_load}; after: {load_text()}")
    if json_path:
        rows = [{**figure.__dict__} for figure in figures]
        Path(json_path).write_text(json.dumps({"figures": rows, "load": [started_load, load_text()]}))
    return all(figure.passed for figure in figures)


def parser() -> argparse.ArgumentParser:
    found = argparse.ArgumentParser(
        prog="python -m tools.checks.serve_checks", description=__doc__.splitlines()[0]
    )
    found.add_argument("--url", help="a server already running on this machine (http://127.0.0.1:PORT)")
    found.add_argument("--port", type=int, help="port of the server this tool starts (default: a free one)")
    found.add_argument("--folder", help="where the scratch folder is made (default: the system's /tmp)")
    found.add_argument(
        "--database", help="a migrated SQLite file to start from (default: a new one, migrated)"
    )
    found.add_argument(
        "--postgres",
        help="a PostgreSQL database URL instead of SQLite: the database is made (it must not exist) and dropped",
    )
    found.add_argument("--keep", action="store_true", help="keep the scratch folder")
    found.add_argument(
        "--live-values",
        type=int,
        default=3000,
        help="distinct X-Live values, ?sort= values and Accept-Language values (default 3000)",
    )
    found.add_argument(
        "--pins",
        type=int,
        default=64,
        help="wrong PINs posted at once, at the tablet and at a table (default 64)",
    )
    found.add_argument("--adjustments", type=int, default=6, help="identical adjustments at once (default 6)")
    found.add_argument("--seed", default="serve-checks")
    found.add_argument("--json", dest="json_path", help="also write the figures to this file")
    return found


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if min(args.live_values, args.pins, args.adjustments) < 1:
        sys.exit("--live-values, --pins and --adjustments: at least 1")
    signal.signal(signal.SIGTERM, signal.default_int_handler)  # `kill PID` stops the server this tool started
    started_load = load_text()
    if args.url:
        local_address(args.url)
        passed = report(run_checks(args.url, args), started_load, args.json_path)
    else:
        with scratch_server(args) as (url, _folder):
            figures = run_checks(url, args)
            passed = report(figures, started_load, args.json_path)
            if not passed:
                raise ChecksFailed
    return 0 if passed else 1


if __name__ == "__main__":
    try:
        sys.exit(main())
    except ChecksFailed:
        sys.exit(1)
