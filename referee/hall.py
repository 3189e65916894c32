"""`make hall` (or `python -m referee.hall`): the federation's deployment on one machine, to try before renting one.

Debian's nginx on loopback in front of two app servers (each as `make serve` runs it, `BEHIND_PROXY=1`), on
PostgreSQL and Redis (the services this machine runs, or those `DATABASE_URL` and `REDIS_URL` name). nginx runs
`deploy/nginx/referee.conf` itself, with only its lines marked "hall:" rewritten (the port, the app servers, the
static folder, the cache folder), so what is tried here is what is deployed. It prints the site's address and the
database, and stops everything on Ctrl-C.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from referee.serve import BASE_DIR, ensure_secret_key, free_port, gunicorn_argv, prepare

CONF_DIR = BASE_DIR / "deploy" / "nginx"
DEFAULT_DATABASE = "postgres://postgres@127.0.0.1:5432/referee_hall"
DEFAULT_REDIS = "redis://127.0.0.1:6379/0"
APP_SERVERS = 2
GATEWAY_ERRORS = {502, 503, 504}  # nginx's answers while no app server does
MARK = re.compile(r"^(?P<indent>\s*)(?P<line>.*?)\s*#\s*hall:\s*(?P<what>\w+)\s*$")


def app_argv(port: int) -> list[str]:
    """An app server as `make serve` runs it, without gunicorn's control socket (one path for all, so two servers
    would take it from each other)."""
    from gunicorn.config import KNOWN_SETTINGS

    quiet = ["--no-control-socket"] if any(s.name == "control_socket_disable" for s in KNOWN_SETTINGS) else []
    return [*gunicorn_argv(f"127.0.0.1:{port}"), *quiet]


def site_conf(*, port: int, apps: list[int], run: Path, static: Path) -> str:
    """deploy/nginx/referee.conf with its "hall:" lines made to fit this machine's loopback."""
    lines, apps_written = [], False
    for raw in (CONF_DIR / "referee.conf").read_text(encoding="utf-8").splitlines():
        mark = MARK.match(raw)
        if not mark:
            lines.append(raw)
            continue
        indent, line, what = mark["indent"], mark["line"], mark["what"]
        if what == "app":
            if not apps_written:
                lines += [f"{indent}server 127.0.0.1:{app} max_fails=0;" for app in apps]
                apps_written = True
        elif what == "cache":
            lines.append(indent + re.sub(r"proxy_cache_path \S+", f"proxy_cache_path {run / 'cache'}", line))
        elif what == "listen":
            lines.append(f"{indent}listen 127.0.0.1:{port};")
        elif what == "name":
            lines.append(f"{indent}server_name 127.0.0.1 localhost;")
        elif what == "static":
            lines.append(f"{indent}alias {static}/;")
        elif what == "asset":
            lines.append(f"{indent}alias {static}/$asset;")
        elif what == "proxy":
            lines.append(f"{indent}include {run / 'referee-proxy.conf'};")
        else:
            raise ValueError(f"deploy/nginx/referee.conf: unknown hall mark {what!r}")
    return "\n".join(lines) + "\n"


def main_conf(run: Path) -> str:
    """nginx's own configuration for a run in ``run``: no system folder written, the site's file included."""
    user = "user root;\n" if os.geteuid() == 0 else ""  # as root, nginx's workers would otherwise be nobody
    temp = "\n".join(
        f"    {kind}_temp_path {run / kind};" for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    return (
        f"{user}worker_processes auto;\npid {run / 'nginx.pid'};\nerror_log {run / 'error.log'} warn;\n"
        "daemon off;\nevents { worker_connections 4096; }\n"
        "http {\n    include /etc/nginx/mime.types;\n    default_type application/octet-stream;\n"
        f"    access_log {run / 'access.log'};\n{temp}\n    sendfile on;\n    keepalive_timeout 75s;\n"
        f"    include {run / 'referee.conf'};\n}}\n"
    )


def write_confs(run: Path, *, port: int, apps: list[int], static: Path) -> Path:
    shutil.copy(CONF_DIR / "referee-proxy.conf", run / "referee-proxy.conf")
    (run / "referee.conf").write_text(
        site_conf(port=port, apps=apps, run=run, static=static), encoding="utf-8"
    )
    main = run / "nginx.conf"
    main.write_text(main_conf(run), encoding="utf-8")
    return main


def shown(url: str) -> str:
    """A database address without its password, for printing."""
    parts = urlsplit(url)
    if parts.password:
        netloc = parts.netloc.replace(f":{parts.password}@", ":…@")
        return urlunsplit(parts._replace(netloc=netloc))
    return url


def ensure_database(url: str) -> None:
    """The PostgreSQL database ``url`` names, made when missing; a server that does not answer stops the hall."""
    import psycopg

    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    admin = urlunsplit(parts._replace(path="/postgres"))
    try:
        with psycopg.connect(admin, autocommit=True, connect_timeout=5) as connection:
            found = connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
            if not found:
                connection.execute(f'CREATE DATABASE "{name}"')
    except psycopg.Error as error:
        sys.exit(
            f"PostgreSQL at {shown(admin)} does not answer ({error}); docs/deployment.md says how to start it."
        )


def ensure_redis(url: str) -> None:
    import redis

    try:
        redis.Redis.from_url(url, socket_connect_timeout=3).ping()
    except redis.RedisError as error:
        sys.exit(f"Redis at {url} does not answer ({error}); docs/deployment.md says how to start it.")


def wait_until_up(url: str, processes: list[subprocess.Popen], seconds: float = 60) -> None:
    """Until an app server answers through nginx: nginx's own 502–504 (no app server listening yet) is not up."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if any(process.poll() is not None for process in processes):
            sys.exit("the hall did not start: a server stopped (its messages are above).")
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except urllib.error.HTTPError as error:
            if error.code not in GATEWAY_ERRORS:
                return  # an app server answers
            time.sleep(0.2)  # nginx answers for app servers still starting
        except OSError:
            time.sleep(0.2)
    sys.exit(f"the hall did not answer at {url} within {seconds:.0f} s.")


def child_environment(*, port: int, database: str, redis_url: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        DEBUG="0",
        # Django's own variable, as manage.py and referee/wsgi.py read it: the site's settings unless named.
        DJANGO_SETTINGS_MODULE=os.environ.get("DJANGO_SETTINGS_MODULE", "").strip() or "referee.settings",
        DATABASE_URL=database,
        REDIS_URL=redis_url,
        BEHIND_PROXY="1",
        TRUSTED_PROXIES="127.0.0.1,::1",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        PUBLIC_URL=f"http://127.0.0.1:{port}",
    )
    return env


def stop(processes: list[subprocess.Popen], seconds: float = 10) -> None:
    """nginx first (its fast stop closes its kept-alive connections to the app servers, which then have none to
    wait for), then the app servers, all of them within one ``seconds`` deadline. An app server still running then
    gets gunicorn's quick stop (SIGINT: its workers killed within 2 s) and, 5 s later, SIGKILL: killing a gunicorn
    master outright leaves its workers running. At most 15 s in all; each process used to get 10 s of its own, one
    after the other."""
    *apps, nginx = processes
    deadline = time.monotonic() + seconds
    for group in ([nginx], apps):
        for process in group:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in group:
            try:
                process.wait(timeout=max(deadline - time.monotonic(), 0.1))
            except subprocess.TimeoutExpired:
                process.send_signal(signal.SIGINT)
    deadline = time.monotonic() + 5
    for process in processes:
        try:
            process.wait(timeout=max(deadline - time.monotonic(), 0.1))
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def main() -> None:
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    if not Path(nginx).exists():
        sys.exit("nginx is not installed: `make hall` installs Debian's nginx (apt-get install nginx).")
    port = int(os.environ.get("HALL_PORT", "") or 8080)
    database = os.environ.get("DATABASE_URL", "").strip() or DEFAULT_DATABASE
    redis_url = os.environ.get("REDIS_URL", "").strip() or DEFAULT_REDIS
    # `kill PID` (SIGTERM) stops the hall as Ctrl-C does, from the start: a process started in the background of a
    # script inherits SIGINT ignored, and then SIGTERM is the only polite way to stop it.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    os.chdir(BASE_DIR)
    ensure_secret_key()
    if database.startswith("postgres"):
        ensure_database(database)
    ensure_redis(redis_url)
    env = child_environment(port=port, database=database, redis_url=redis_url)
    if prepare(env):  # migrate and collectstatic, as `make serve` does
        sys.exit(1)
    run = Path(tempfile.mkdtemp(prefix="referee-hall-"))
    apps = [free_port() for _ in range(APP_SERVERS)]
    conf = write_confs(
        run, port=port, apps=apps, static=Path(os.environ.get("STATIC_ROOT", "") or BASE_DIR / "staticfiles")
    )
    processes = [subprocess.Popen(app_argv(app), env=env, stdout=subprocess.DEVNULL) for app in apps]
    processes.append(subprocess.Popen([nginx, "-p", str(run), "-c", str(conf)]))
    try:
        wait_until_up(f"http://127.0.0.1:{port}/", processes)
        print(f"site: http://127.0.0.1:{port}/")
        print(f"database: {shown(database)}")
        print(
            f"nginx in front of {APP_SERVERS} app servers ({', '.join(map(str, apps))}); Ctrl-C stops them all."
        )
        sys.stdout.flush()
        while all(process.poll() is None for process in processes):
            time.sleep(0.5)
        sys.exit("a server of the hall stopped; the others are stopped too.")
    except KeyboardInterrupt:
        pass
    finally:
        stop(processes)
        shutil.rmtree(run, ignore_errors=True)


if __name__ == "__main__":
    main()
