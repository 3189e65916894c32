"""Settings read from the environment; bad configuration stops start-up with one line naming the variable."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from referee.config import ConfigError, database, env_bool, secret_key

ROOT = Path(__file__).resolve().parent.parent


def test_sqlite_default_has_wal_immediate_and_busy_timeout(monkeypatch, tmp_path):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    config = database(tmp_path)
    assert config["ENGINE"] == "django.db.backends.sqlite3"
    assert config["NAME"] == str(tmp_path / "db.sqlite3")
    options = config["OPTIONS"]
    assert options["transaction_mode"] == "IMMEDIATE"
    assert "journal_mode=WAL" in options["init_command"]
    assert "synchronous=NORMAL" in options["init_command"]
    assert options["timeout"] >= 5


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
    monkeypatch.setenv("SECRET_KEY", "s3cret")
    assert secret_key(debug=False) == "s3cret"


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
    ],
)
def test_bad_configuration_stops_with_one_line(changes, variable):
    result = run_manage(changes)
    assert result.returncode != 0
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    assert variable in lines[0]
    assert "Traceback" not in result.stderr
