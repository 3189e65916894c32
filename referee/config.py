"""Reading the environment into settings, with one clear message naming the variable that is wrong."""

from __future__ import annotations

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

TRUE = {"1", "true", "yes", "on"}
FALSE = {"0", "false", "no", "off", ""}


class ConfigError(ImproperlyConfigured):
    """Bad configuration: start-up stops with this one line."""


def env_bool(name: str, default: bool = False) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in TRUE:
        return True
    if value in FALSE:
        return False
    raise ConfigError(f"{name}: expected 1/0, true/false, yes/no or on/off, got {raw!r}")


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def secret_key(debug: bool) -> str:
    """SECRET_KEY from the environment; a development default only when DEBUG is on."""
    key = os.environ.get("SECRET_KEY", "").strip()
    if key:
        return key
    if debug:
        return "dev-only-insecure-key-do-not-use-in-production"
    raise ConfigError("SECRET_KEY: must be set when DEBUG is off")


SQLITE_OPTIONS = {
    # WAL lets the public pages read while a judge writes; IMMEDIATE takes the write lock at BEGIN so two
    # writers queue on the busy timeout instead of failing half-way through a transaction.
    "transaction_mode": "IMMEDIATE",
    "timeout": 20,
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA busy_timeout=20000;",
}


def database(base_dir: Path) -> dict:
    """DATABASES['default'] from DATABASE_URL (default: db.sqlite3 beside manage.py)."""
    url = os.environ.get("DATABASE_URL", "").strip() or f"sqlite:///{base_dir / 'db.sqlite3'}"
    try:
        config = dj_database_url.parse(url, conn_max_age=60, conn_health_checks=True)
    except Exception as exc:  # dj-database-url raises several kinds; the message is what matters
        raise ConfigError(f"DATABASE_URL: cannot parse {url!r} ({exc})") from exc
    engine = config.get("ENGINE", "")
    if not engine:
        raise ConfigError(f"DATABASE_URL: unsupported scheme in {url!r}")
    if engine == "django.db.backends.sqlite3":
        config["CONN_MAX_AGE"] = 0
        config.pop("CONN_HEALTH_CHECKS", None)
        config["OPTIONS"] = {**SQLITE_OPTIONS, **config.get("OPTIONS", {})}
    return config
