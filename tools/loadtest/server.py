"""The load test's server: the site in its own process group on 127.0.0.1, its CPU time, kill -9 midway."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

from referee.serve import KEEPALIVE
from tools.loadtest.browser import CONNECTION_ERRORS, Browser
from tools.loadtest.budget import Budget

LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})


def local_address(url: str) -> tuple[str, int]:
    """Host and port of ``url``, refused unless it is plain HTTP on this machine."""
    parts = urlsplit(url)
    if parts.scheme != "http" or parts.hostname not in LOCAL_HOSTS:
        raise ValueError(f"{url!r}: the load test only sends traffic to http://127.0.0.1 or http://localhost")
    return parts.hostname, parts.port or 80


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
                "-w", str(self.workers), "--threads", str(self.threads), "--keep-alive", str(KEEPALIVE),
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
