"""Settings read from the environment; bad configuration stops start-up with one line naming the variable."""

from __future__ import annotations

import ipaddress
import json
import os
import re
import secrets
import socket
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.checks.security import base as deploy_checks
from django.core.management.utils import get_random_secret_key
from django.test import override_settings

from referee import config, serve
from referee.config import ConfigError, database, env_bool, secret_key
from tools.loadtest.server import server_env

ROOT = Path(__file__).resolve().parent.parent
STRONG_KEY = get_random_secret_key()  # made afresh: a key written here would be public


def test_sqlite_default_has_wal_immediate_full_sync_and_busy_timeout(monkeypatch, tmp_path):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.delenv("SQLITE_SYNCHRONOUS", raising=False)
    config = database(tmp_path)
    assert config["ENGINE"] == "referee.sqlite"  # Django's, with the write gate
    assert config["NAME"] == str(tmp_path / "db.sqlite3")
    options = config["OPTIONS"]
    assert options["transaction_mode"] == "IMMEDIATE"
    assert "journal_mode=WAL" in options["init_command"]
    assert "synchronous=FULL" in options["init_command"]  # an acknowledged play survives a power cut
    assert options["timeout"] >= 5
    assert config["CONN_MAX_AGE"] > 0  # each server thread keeps its connection: no connect per request


def test_sqlite_synchronous_normal_on_request_and_nonsense_refused(monkeypatch, tmp_path):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setenv("SQLITE_SYNCHRONOUS", "normal")
    assert "synchronous=NORMAL" in database(tmp_path)["OPTIONS"]["init_command"]
    monkeypatch.setenv("SQLITE_SYNCHRONOUS", "OFF")
    with pytest.raises(ConfigError, match="^SQLITE_SYNCHRONOUS"):
        database(tmp_path)


def test_postgres_url_gives_the_postgresql_settings(monkeypatch, tmp_path):
    monkeypatch.setenv("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/club")
    config = database(tmp_path)
    assert config["ENGINE"] == "django.db.backends.postgresql"
    assert (config["NAME"], config["USER"], config["HOST"], config["PORT"]) == (
        "club",
        "postgres",
        "127.0.0.1",
        5432,
    )
    assert "transaction_mode" not in config.get("OPTIONS", {})
    # repeated queries (the deal's ten-table read on every play) are prepared: planned once per connection
    assert config["OPTIONS"]["server_side_binding"] is True and config["OPTIONS"]["prepare_threshold"] == 5


@pytest.mark.django_db
def test_on_postgresql_the_deal_read_of_every_play_is_prepared_after_five_runs(match, judge):
    from django.db import connection

    from referee.table.recording.deal_entry import start_deal
    from referee.table.views import DEAL_WITH_MATCH

    if connection.vendor != "postgresql":
        pytest.skip("SQLite has no server-side prepared statements")
    deal = start_deal(match, judge, trump="S", declarer="N")
    for _ in range(6):
        assert DEAL_WITH_MATCH.first(deal.pk).pk == deal.pk
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE %s", ["%tournaments_deal%"]
        )
        assert cursor.fetchone()[0] >= 1


@pytest.mark.parametrize("url", ["nonsense://x", "postgres://user@host:notaport/db", "::::"])
def test_unparsable_database_url_names_the_variable(monkeypatch, tmp_path, url):
    monkeypatch.setenv("DATABASE_URL", url)
    with pytest.raises(ConfigError, match="^DATABASE_URL"):
        database(tmp_path)


def test_secret_key_required_without_debug(monkeypatch):
    monkeypatch.delenv("SECRET_KEY", raising=False)
    with pytest.raises(ConfigError, match="^SECRET_KEY"):
        secret_key(debug=False)
    assert secret_key(debug=True)
    monkeypatch.setenv("SECRET_KEY", STRONG_KEY)
    assert secret_key(debug=False) == STRONG_KEY


WEAK_KEYS = [
    "s3cret",
    "x" * 60,
    "abcd" * 20,
    "0123456789abcdef0123456789abcdefghijklmnopqrstuv",  # 48 characters: check --deploy asks for 50
    "django-insecure-t7#q(2vn@x!k5m8z^w$e0r%y6u&i9o*p)a_s+d=f4g3h1j",  # what startproject writes for development
]


@pytest.mark.parametrize("weak", WEAK_KEYS)
def test_a_key_djangos_deployment_check_calls_weak_is_refused_without_debug(monkeypatch, weak):
    monkeypatch.setenv("SECRET_KEY", weak)
    with pytest.raises(ConfigError, match="^SECRET_KEY: too weak"):
        secret_key(debug=False)
    assert secret_key(debug=True) == weak
    with override_settings(SECRET_KEY=weak):
        assert [m.id for m in deploy_checks.check_secret_key(None)] == [
            "security.W009"
        ]  # Django's verdict too


def test_a_key_djangos_deployment_check_takes_is_taken(monkeypatch):
    """The rule is Django's (W009), not a looser one of our own: what `check --deploy` takes, start-up takes."""
    monkeypatch.setenv("SECRET_KEY", STRONG_KEY)
    with override_settings(SECRET_KEY=STRONG_KEY):
        assert deploy_checks.check_secret_key(None) == []
    assert secret_key(debug=False) == STRONG_KEY


# Where the repository writes a key down: `SECRET_KEY=…`, `"SECRET_KEY": "…"`, `SECRET_KEY = "…"`.
KEY_WRITTEN = re.compile(r"""SECRET_KEY['"]?\s*[=:]\s*['"]?([^\s'"`,)]{8,})""")


# What the repository ignores (.gitignore): built, installed or made by a run, never written down by a person.
UNTRACKED_DIRS = {
    ".git",
    ".venv",
    "__pycache__",
    "staticfiles",
    "test-output",
    ".pytest_cache",
    ".ruff_cache",
}
UNTRACKED_FILES = {".secret_key"}


def repository_files() -> list[Path]:
    """The repository's own files, found by walking it (no ``git``: a copy or an exported tree is checked too)."""
    found = []
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in UNTRACKED_DIRS and not d.startswith(".hypothesis")]
        dirs[:] = [d for d in dirs if not d.endswith(".egg-info")]
        found += [
            Path(folder) / f for f in files if f not in UNTRACKED_FILES and not f.startswith("db.sqlite3")
        ]
    return found


def keys_in_the_repository() -> set[str]:
    """Every key this repository writes down, and the one DEBUG runs with."""
    found = {secret_key(debug=True)} if not os.environ.get("SECRET_KEY") else set()
    for path in repository_files():
        if path.suffix in {".py", ".md", ".toml", ".cfg", ".txt", ".yml", ".yaml", ""} and path.is_file():
            found |= set(KEY_WRITTEN.findall(path.read_text(errors="replace")))
    return found


def test_no_key_the_repository_contains_starts_the_server_without_debug(monkeypatch):
    """`SECRET_KEY=dev-only-insecure-key-do-not-use-in-production` started the server with DEBUG off."""
    monkeypatch.delenv("SECRET_KEY", raising=False)
    keys = keys_in_the_repository() | {secret_key(debug=True)}
    assert "dev-only-insecure-key-do-not-use-in-production" in keys
    for key in keys:
        monkeypatch.setenv("SECRET_KEY", key)
        with pytest.raises(ConfigError, match="^SECRET_KEY: "):
            secret_key(debug=False)


def test_the_development_key_is_refused_in_one_line_naming_it():
    result = run_manage({"DEBUG": "0", "SECRET_KEY": "dev-only-insecure-key-do-not-use-in-production"})
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert result.returncode != 0 and len(lines) == 1 and "Traceback" not in result.stderr
    assert "SECRET_KEY: this is the repository's development key" in lines[0], lines


@pytest.mark.parametrize("source", ["make serve", "the load test"])
def test_the_keys_make_serve_and_the_load_test_generate_pass(monkeypatch, tmp_path, source):
    monkeypatch.delenv("SECRET_KEY", raising=False)
    for _ in range(20):
        if source == "make serve":
            key = serve.ensure_secret_key(tmp_path / f"key{_}")
        else:
            key = server_env(secrets.token_urlsafe(50))["SECRET_KEY"]
        monkeypatch.setenv("SECRET_KEY", key)
        assert secret_key(debug=False) == key


@pytest.mark.parametrize(("raw", "expected"), [("1", True), ("yes", True), ("0", False), ("off", False)])
def test_env_bool_reads_yes_and_no_words(monkeypatch, raw, expected):
    monkeypatch.setenv("DEBUG", raw)
    assert env_bool("DEBUG") is expected


def test_env_bool_rejects_nonsense(monkeypatch):
    monkeypatch.setenv("DEBUG", "maybe")
    with pytest.raises(ConfigError, match="^DEBUG"):
        env_bool("DEBUG")


def run_manage(env_changes: dict[str, str | None]) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in env_changes}
    env.update({k: v for k, v in env_changes.items() if v is not None})
    return subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )


@pytest.mark.parametrize(
    ("changes", "variable"),
    [
        ({"DEBUG": "0", "SECRET_KEY": None}, "SECRET_KEY"),
        ({"DEBUG": "1", "DATABASE_URL": "bogus://nowhere"}, "DATABASE_URL"),
        ({"DEBUG": "0", "SECRET_KEY": "short-key"}, "SECRET_KEY"),
        ({"DEBUG": "0", "SECRET_KEY": "ab" * 20}, "SECRET_KEY"),
        ({"DEBUG": "0", "SECRET_KEY": STRONG_KEY, "HSTS_SECONDS": "a year"}, "HSTS_SECONDS"),
        ({"DEBUG": "0", "SECRET_KEY": STRONG_KEY, "SSL_REDIRECT": "maybe"}, "SSL_REDIRECT"),
        ({"DEBUG": "0", "SECRET_KEY": STRONG_KEY, "REFERRER_POLICY": "everyone"}, "REFERRER_POLICY"),
        ({"DEBUG": "0", "SECRET_KEY": STRONG_KEY, "LOG_FILE": "/no/such/folder/referee.log"}, "LOG_FILE"),
    ],
)
def test_bad_configuration_stops_with_one_line(changes, variable):
    result = run_manage(changes)
    assert result.returncode != 0
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    assert variable in lines[0]
    assert "Traceback" not in result.stderr


PRINT_SETTINGS = """
import json
from django.conf import settings
names = ["SECURE_SSL_REDIRECT", "SECURE_HSTS_SECONDS", "SECURE_HSTS_INCLUDE_SUBDOMAINS", "SECURE_HSTS_PRELOAD",
         "SECURE_PROXY_SSL_HEADER", "SECURE_CONTENT_TYPE_NOSNIFF", "X_FRAME_OPTIONS", "SECURE_REFERRER_POLICY"]
print(json.dumps({name: getattr(settings, name) for name in names}))
"""


def https_settings(env_changes: dict[str, str]) -> dict:
    keep = {k: v for k, v in os.environ.items() if k not in HTTPS_VARIABLES}
    env = {**keep, "DEBUG": "0", "SECRET_KEY": STRONG_KEY, "DJANGO_SETTINGS_MODULE": "referee.settings"}
    result = subprocess.run(
        [sys.executable, "-c", PRINT_SETTINGS],
        cwd=ROOT,
        env={**env, **env_changes},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


HTTPS_VARIABLES = ["SSL_REDIRECT", "HSTS_SECONDS", "HSTS_INCLUDE_SUBDOMAINS", "HSTS_PRELOAD", "BEHIND_PROXY"]


def test_https_settings_default_to_plain_http_on_the_hall_network():
    assert https_settings({}) == {
        "SECURE_SSL_REDIRECT": False,
        "SECURE_HSTS_SECONDS": 0,
        "SECURE_HSTS_INCLUDE_SUBDOMAINS": False,
        "SECURE_HSTS_PRELOAD": False,
        "SECURE_PROXY_SSL_HEADER": None,
        "SECURE_CONTENT_TYPE_NOSNIFF": True,
        "X_FRAME_OPTIONS": "DENY",
        "SECURE_REFERRER_POLICY": "same-origin",
    }


def test_https_settings_from_the_environment():
    got = https_settings(
        {
            "SSL_REDIRECT": "1",
            "HSTS_SECONDS": "31536000",
            "HSTS_INCLUDE_SUBDOMAINS": "yes",
            "HSTS_PRELOAD": "on",
            "BEHIND_PROXY": "1",
            "REFERRER_POLICY": "no-referrer",
        }
    )
    assert got["SECURE_SSL_REDIRECT"] is True
    assert got["SECURE_HSTS_SECONDS"] == 31536000
    assert got["SECURE_HSTS_INCLUDE_SUBDOMAINS"] is True and got["SECURE_HSTS_PRELOAD"] is True
    assert got["SECURE_PROXY_SSL_HEADER"] == ["HTTP_X_FORWARDED_PROTO", "https"]
    assert got["SECURE_REFERRER_POLICY"] == "no-referrer"


# `make serve`


def test_secret_key_file_is_made_once_private_and_reused(monkeypatch, tmp_path, capsys):
    monkeypatch.delenv("SECRET_KEY", raising=False)
    key_file = tmp_path / ".secret_key"
    key = serve.ensure_secret_key(key_file)
    assert "generated" in capsys.readouterr().out
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    monkeypatch.setenv("SECRET_KEY", "")
    monkeypatch.setenv("DEBUG", "0")
    assert serve.ensure_secret_key(key_file) == key
    assert secret_key(debug=False) == key  # strong enough for the check above
    monkeypatch.setenv("SECRET_KEY", STRONG_KEY)
    assert serve.ensure_secret_key(key_file) == STRONG_KEY


def test_lan_addresses_send_nothing_and_skip_loopback(monkeypatch):
    def no_traffic(*args, **kwargs):
        raise AssertionError("finding the addresses must not send anything")

    monkeypatch.setattr(socket.socket, "connect", no_traffic)
    monkeypatch.setattr(socket.socket, "sendto", no_traffic)
    monkeypatch.setattr(socket.socket, "send", no_traffic)
    addresses = serve.lan_addresses()
    for address in addresses:
        ip = ipaddress.ip_address(address)
        assert ip.version == 4 and not ip.is_loopback and not ip.is_link_local


def test_lan_addresses_from_the_host_name(monkeypatch):
    answers = [(socket.AF_INET, 0, 0, "", (a, 0)) for a in ["127.0.1.1", "192.168.1.20", "169.254.3.3"]]
    monkeypatch.setattr(socket, "getaddrinfo", lambda *args: answers)
    monkeypatch.setattr(serve, "interface_addresses", lambda: {"10.0.0.7", "127.0.0.1"})
    assert serve.lan_addresses() == ["10.0.0.7", "192.168.1.20"]


def test_allowed_hosts_name_the_tablets_addresses_unless_set(monkeypatch):
    monkeypatch.delenv("ALLOWED_HOSTS", raising=False)
    serve.ensure_allowed_hosts(["192.168.1.20"])
    hosts = os.environ["ALLOWED_HOSTS"].split(",")
    assert "192.168.1.20" in hosts and "127.0.0.1" in hosts
    monkeypatch.setenv("ALLOWED_HOSTS", "referee.club.example")
    serve.ensure_allowed_hosts(["192.168.1.20"])
    assert os.environ["ALLOWED_HOSTS"] == "referee.club.example"


def test_waitress_where_gunicorn_cannot_run(monkeypatch):
    monkeypatch.setattr(serve.importlib.util, "find_spec", lambda name: None)
    assert not serve.gunicorn_runs()
    served = {}
    monkeypatch.setattr("waitress.serve", lambda app, **options: served.update(app=app, **options))
    monkeypatch.setattr(serve.os, "execv", lambda *args: pytest.fail("gunicorn started"))
    serve.serve("0.0.0.0:8000")
    assert served["listen"] == "0.0.0.0:8000" and served["threads"] == serve.WORKERS * serve.THREADS
    assert callable(served["app"])


def test_make_serve_gives_the_qr_codes_the_halls_address_unless_one_is_set(monkeypatch):
    monkeypatch.delenv("PUBLIC_URL", raising=False)
    serve.ensure_public_url(["192.168.1.20", "10.0.0.7"], "8000", "http")
    assert os.environ["PUBLIC_URL"] == "http://192.168.1.20:8000"
    monkeypatch.setenv("PUBLIC_URL", "https://referee.club.example")
    serve.ensure_public_url(["192.168.1.20"], "8000", "https")
    assert os.environ["PUBLIC_URL"] == "https://referee.club.example"


@pytest.mark.parametrize(
    ("raw", "expected"),
    [("", ""), ("http://192.168.1.20:8000/", "http://192.168.1.20:8000"), ("https://club.example", None)],
)
def test_public_url_is_an_origin_or_start_up_names_it(monkeypatch, raw, expected):
    monkeypatch.setenv("PUBLIC_URL", raw)
    assert config.public_url() == (expected if expected is not None else raw)


@pytest.mark.parametrize("raw", ["192.168.1.20:8000", "ftp://x", "http://", "http://club.example/referee"])
def test_a_public_url_that_is_not_an_origin_stops_start_up(monkeypatch, raw):
    monkeypatch.setenv("PUBLIC_URL", raw)
    with pytest.raises(config.ConfigError, match="PUBLIC_URL"):
        config.public_url()


def test_gunicorn_serves_https_with_the_clubs_certificate(monkeypatch, tmp_path):
    cert, key = tmp_path / "hall.crt", tmp_path / "hall.key"
    cert.write_text("cert")
    key.write_text("key")
    monkeypatch.setenv("CERT_FILE", str(cert))
    monkeypatch.setenv("KEY_FILE", str(key))
    monkeypatch.setattr(serve, "gunicorn_runs", lambda: True)
    started = []
    monkeypatch.setattr(serve.os, "execv", lambda exe, argv: started.extend(argv))
    serve.serve("0.0.0.0:8443", serve.tls_files())
    assert f"--certfile={cert}" in started and f"--keyfile={key}" in started
    monkeypatch.setenv("KEY_FILE", str(tmp_path / "missing.key"))
    with pytest.raises(SystemExit, match="KEY_FILE"):
        serve.tls_files()
