"""`make hall`: nginx (deploy/nginx/referee.conf) in front of two app servers on PostgreSQL and Redis, tried as a
federation would: the lock-out counts the client the proxy saw and no forged header, an anonymous poll comes from
the micro-cache or as a 304, a signed-in page never does, and the static files carry their caching."""

from __future__ import annotations

import http.client
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import threading
import uuid
from pathlib import Path
from urllib.parse import urlencode

import pytest

from referee.hall import DEFAULT_REDIS, site_conf
from referee.serve import free_port

ROOT = Path(__file__).resolve().parent.parent
PG = os.environ.get("TEST_POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/postgres")
REDIS_URL = os.environ.get("TEST_REDIS_URL", DEFAULT_REDIS)
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
SET_UP = """
from django.contrib.auth import get_user_model
from tournaments.models import Tournament
Tournament.objects.create(name="大厅赛", slug="hall")
get_user_model().objects.create_superuser("hall-director", password="hall-director-pass")
"""


def reachable() -> str | None:
    """Why the hall cannot run here, or None."""
    if not Path(NGINX).exists():
        return "nginx is not installed (make hall installs it)"
    try:
        import psycopg
        import redis

        psycopg.connect(PG, connect_timeout=3).close()
        redis.Redis.from_url(REDIS_URL, socket_timeout=1).ping()
    except Exception as error:  # no server: the test is skipped, saying which
        return f"PostgreSQL or Redis does not answer: {error}"
    return None


pytestmark = pytest.mark.skipif(reachable() is not None, reason=str(reachable()))


def test_the_sites_nginx_file_is_rewritten_only_on_its_hall_lines(tmp_path):
    conf = site_conf(port=9123, apps=[9001, 9002, 9003], run=tmp_path, static=tmp_path / "static")
    original = (ROOT / "deploy" / "nginx" / "referee.conf").read_text(encoding="utf-8")
    unmarked = [line for line in original.splitlines() if "# hall:" not in line]
    assert [line for line in conf.splitlines() if line in unmarked] == unmarked
    assert re.findall(r"server 127\.0\.0\.1:(\d+) max_fails=0;", conf) == ["9001", "9002", "9003"]
    assert "listen 127.0.0.1:9123;" in conf and f"proxy_cache_path {tmp_path / 'cache'} " in conf


class Client:
    """An HTTP client from one loopback address (127.0.0.0/8 is all this machine's): nginx sees each as its own."""

    def __init__(self, port: int, source: str) -> None:
        self.port, self.source, self.cookies = port, source, {}

    def request(self, method: str, path: str, body: dict | None = None, headers: dict | None = None):
        connection = http.client.HTTPConnection(
            "127.0.0.1", self.port, timeout=30, source_address=(self.source, 0)
        )
        sent = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items()), **(headers or {})}
        data = None
        if body is not None:
            data = urlencode(body)
            sent.update({"Content-Type": "application/x-www-form-urlencoded", "Referer": self.origin})
        connection.request(method, path, body=data, headers=sent)
        response = connection.getresponse()
        content = response.read()
        for value in response.headers.get_all("Set-Cookie") or []:
            name, _, rest = value.partition("=")
            self.cookies[name] = rest.split(";", 1)[0]
        connection.close()
        return response, content.decode("utf-8", "replace")

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def log_in(self, username: str, password: str, headers: dict | None = None) -> int:
        _page, text = self.request("GET", "/login/")
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', text).group(1)
        fields = {"csrfmiddlewaretoken": token, "username": username, "password": password}
        response, _text = self.request("POST", "/login/", fields, headers)
        return response.status


@pytest.fixture(scope="module")
def hall(tmp_path_factory):
    """`python -m referee.hall` on a fresh PostgreSQL database; its port. Its migrate is most of the set-up's CPU
    (Django rendering each migration's models, some 10 s) and is kept: it is the suite's proof that a fresh start of
    the hall migrates, and `make test` runs on SQLite, with no migrated PostgreSQL database to copy."""
    run = tmp_path_factory.mktemp("hall")
    database = f"referee_hall_{uuid.uuid4().hex[:10]}"
    base = PG.rsplit("/", 1)[0]
    port = free_port()
    env = {
        **os.environ,
        "HALL_PORT": str(port),
        "DATABASE_URL": f"{base}/{database}",
        "REDIS_URL": REDIS_URL,
        "SECRET_KEY": secrets.token_urlsafe(50),
        "STATIC_ROOT": str(run / "static"),
        "TMPDIR": str(run),
        "DJANGO_SETTINGS_MODULE": "tests.server_settings",  # the suite's fast password hasher, nothing else
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "referee.hall"], cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True
    )
    started = threading.Event()
    lines: list[str] = []

    def read() -> None:
        for line in process.stdout:
            lines.append(line)
            if line.startswith("nginx in front"):  # the last of the lines it prints once up
                started.set()

    threading.Thread(target=read, daemon=True).start()
    try:
        while not started.wait(0.5):
            assert process.poll() is None, "the hall stopped: " + "".join(lines)
        assert f"site: http://127.0.0.1:{port}/\n" in lines and any(f"/{database}" in line for line in lines)
        manage = {**env, "DEBUG": "1"}
        subprocess.run([sys.executable, "manage.py", "shell", "-c", SET_UP], cwd=ROOT, env=manage, check=True)
        yield port
    finally:
        # SIGTERM, the hall's `kill PID`: a Ctrl-C (SIGINT) is ignored by a hall that inherited it ignored, as
        # every process started in the background of a non-interactive shell does (`make test &` in a script).
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        finally:
            import psycopg

            with psycopg.connect(PG, autocommit=True) as connection:
                connection.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')


def test_wrong_passwords_lock_the_client_the_proxy_saw_and_no_other(hall):
    guesser, neighbour = Client(hall, "127.0.0.2"), Client(hall, "127.0.0.3")
    statuses = [guesser.log_in(f"guess-{n}", "wrong-password") for n in range(10)]
    assert statuses[:4] == [200] * 4 and set(statuses[5:]) == {429}  # five failures from one address lock it
    assert neighbour.log_in("neighbour", "wrong-password") == 200  # another client is not locked with it


def test_a_forged_forwarded_address_counts_nothing(hall):
    # Five failures sent as if from 127.0.0.6: nginx replaces the header, so they count against 127.0.0.5 alone.
    forger, named = Client(hall, "127.0.0.5"), Client(hall, "127.0.0.6")
    forged = {"X-Forwarded-For": "127.0.0.6"}
    statuses = [forger.log_in(f"forged-{n}", "wrong-password", forged) for n in range(6)]
    assert statuses[-1] == 429
    assert named.log_in("hall-director", "hall-director-pass") == 302


def test_an_anonymous_poll_is_micro_cached_or_a_304_and_sets_no_cookie(hall):
    visitor = Client(hall, "127.0.0.7")
    first, _ = visitor.request("GET", "/t/hall/")
    assert first.status == 200 and first.getheader("Set-Cookie") is None
    again, _ = visitor.request("GET", "/t/hall/")
    assert again.getheader("X-Micro-Cache") in {"HIT", "UPDATING"}
    etag = again.getheader("ETag")
    polled, body = visitor.request("GET", "/t/hall/", headers={"If-None-Match": etag})
    assert polled.status == 304 and body == ""
    assert first.getheader("X-Accel-Expires") is None  # nginx's instruction never reaches the visitor


def test_a_signed_in_directors_page_is_never_served_from_or_kept_in_the_micro_cache(hall):
    director = Client(hall, "127.0.0.8")
    assert director.log_in("hall-director", "hall-director-pass") == 302
    for _ in range(2):
        response, text = director.request("GET", "/t/hall/")
        assert response.getheader("X-Micro-Cache") == "BYPASS" and "hall-director" in text
    _anonymous, text = Client(hall, "127.0.0.9").request("GET", "/t/hall/")
    assert "hall-director" not in text


def test_static_files_come_from_nginx_the_hashed_ones_kept_a_year(hall):
    visitor = Client(hall, "127.0.0.10")
    _page, text = visitor.request("GET", "/t/hall/")
    hashed = re.search(r'href="(/static/css/site\.[0-9a-f]{12}\.css)"', text).group(1)
    response, css = visitor.request("GET", hashed, headers={"Accept-Encoding": "identity"})
    assert response.status == 200 and "immutable" in response.getheader("Cache-Control") and css
    plain, _ = visitor.request("GET", "/static/css/site.css")
    assert plain.status == 200 and "immutable" not in (plain.getheader("Cache-Control") or "")
