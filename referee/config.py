"""Reading the environment into settings, with one clear message naming the variable that is wrong."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import dj_database_url
from django.core.checks.security import base as deploy_checks
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


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        value = -1
    if value < 0:
        raise ConfigError(f"{name}: expected a whole number of 0 or more, got {raw!r}")
    return value


# The key DEBUG runs with when none is set. It is written in this repository, so anyone can sign a session with it.
DEVELOPMENT_KEY = "dev-only-insecure-key-do-not-use-in-production"
REPOSITORY_KEYS = frozenset({DEVELOPMENT_KEY})


def weak_key(key: str) -> bool:
    """Whether ``manage.py check --deploy`` calls the key weak (security.W009): Django's own rules, read from
    Django (at least 50 characters, at least 5 different ones, not one ``startproject`` made for development)."""
    return (
        len(key) < deploy_checks.SECRET_KEY_MIN_LENGTH
        or len(set(key)) < deploy_checks.SECRET_KEY_MIN_UNIQUE_CHARACTERS
        or key.startswith(deploy_checks.SECRET_KEY_INSECURE_PREFIX)
    )


def secret_key(debug: bool) -> str:
    """SECRET_KEY from the environment; the development key only when DEBUG is on.

    Without DEBUG a key written in this repository, or one Django's deployment check calls weak, is refused: it
    signs sessions and password-reset links, so a known or guessable one lets anyone forge a director's session.
    """
    key = os.environ.get("SECRET_KEY", "").strip()
    if debug:
        return key or DEVELOPMENT_KEY
    if not key:
        raise ConfigError("SECRET_KEY: must be set when DEBUG is off")
    if key in REPOSITORY_KEYS:
        raise ConfigError(
            "SECRET_KEY: this is the repository's development key, known to anyone: set your own "
            "(`make serve` generates one)"
        )
    if weak_key(key):
        raise ConfigError(
            f"SECRET_KEY: too weak, use at least {deploy_checks.SECRET_KEY_MIN_LENGTH} characters with at least "
            f"{deploy_checks.SECRET_KEY_MIN_UNIQUE_CHARACTERS} different ones, not starting with "
            f"{deploy_checks.SECRET_KEY_INSECURE_PREFIX!r} (`make serve` generates one)"
        )
    return key


SQLITE_SYNCHRONOUS = ("FULL", "NORMAL")


def sqlite_options() -> dict:
    """WAL lets the public pages read while a judge writes; IMMEDIATE takes the write lock at BEGIN so two
    writers never fail half-way through a transaction. Writers queue at the engine's gate (``referee.sqlite``)
    before BEGIN; the busy timeout is left for writers outside the server (a management command).

    ``synchronous=FULL`` (the default, ``SQLITE_SYNCHRONOUS``) syncs the WAL at every commit, so a play the
    judge was told is saved survives a power cut; NORMAL is faster but may lose the last commits then.
    """
    sync = os.environ.get("SQLITE_SYNCHRONOUS", "FULL").strip().upper()
    if sync not in SQLITE_SYNCHRONOUS:
        raise ConfigError(f"SQLITE_SYNCHRONOUS: expected FULL or NORMAL, got {sync!r}")
    return {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": f"PRAGMA journal_mode=WAL; PRAGMA synchronous={sync}; PRAGMA busy_timeout=20000;",
    }


def database(base_dir: Path) -> dj_database_url.DBConfig:
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
        # Each server thread keeps its connection (as for PostgreSQL): opening one and running the PRAGMAs cost
        # about a millisecond, on every request before. A file has nothing to check.
        config.pop("CONN_HEALTH_CHECKS", None)
        config["ENGINE"] = "referee.sqlite"  # Django's, with a write gate (referee/sqlite/base.py)
        config.setdefault("TEST", {}).setdefault("NAME", ":memory:")  # as Django's own: tests run in memory
        config["OPTIONS"] = {**sqlite_options(), **config.get("OPTIONS", {})}
    elif engine == "django.db.backends.postgresql":
        # Prepared statements: a query a connection runs again and again (five times) is planned once. Planning
        # the deal's read with its match, round, tournament, pairs and players (ten tables) took PostgreSQL about
        # 6 ms on every play; psycopg prepares only with server-side parameters.
        config["OPTIONS"] = {"server_side_binding": True, "prepare_threshold": 5, **config.get("OPTIONS", {})}
    return config


REFERRER_POLICIES = {
    "no-referrer",
    "no-referrer-when-downgrade",
    "origin",
    "origin-when-cross-origin",
    "same-origin",
    "strict-origin",
    "strict-origin-when-cross-origin",
    "unsafe-url",
}


def referrer_policy() -> str:
    raw = os.environ.get("REFERRER_POLICY", "").strip()
    if not raw:
        return "same-origin"
    if raw not in REFERRER_POLICIES:
        raise ConfigError(
            f"REFERRER_POLICY: expected one of {', '.join(sorted(REFERRER_POLICIES))}, got {raw!r}"
        )
    return raw


def public_url() -> str:
    """PUBLIC_URL: the address the hall's devices open (``http://192.168.1.20:8000``, a proxy's
    ``https://club.example``), which the table cards' and the projector's QR codes carry; empty: the address the
    page was opened on. `make serve` sets it to the hall's address it finds."""
    raw = os.environ.get("PUBLIC_URL", "").strip().rstrip("/")
    if not raw:
        return ""
    scheme, _sep, rest = raw.partition("://")
    if scheme not in ("http", "https") or not rest or "/" in rest or " " in rest:
        raise ConfigError(f"PUBLIC_URL: expected http://host:port or https://host, got {raw!r}")
    return raw


def log_file() -> str:
    """LOG_FILE, checked here so a missing folder is one line instead of a logging-configuration traceback."""
    raw = os.environ.get("LOG_FILE", "").strip()
    if raw and not Path(raw).expanduser().resolve().parent.is_dir():
        raise ConfigError(f"LOG_FILE: the folder of {raw!r} does not exist")
    return str(Path(raw).expanduser()) if raw else ""


def logging_config(path: str) -> dict:
    """LOGGING: warnings and errors, with their tracebacks, to stderr and to ``path`` when there is one.

    Django's default sends errors nowhere once DEBUG is off (it mails ADMINS, and there are none); here the
    ``django`` loggers, ``django.request``'s 500s among them, reach the root handlers instead.
    """
    handlers: dict[str, dict[str, Any]] = {
        "stderr": {"class": "logging.StreamHandler", "stream": "ext://sys.stderr", "formatter": "line"}
    }
    if path:
        # WatchedFileHandler reopens the file after logrotate moves it; every gunicorn worker appends to it.
        handlers["file"] = {
            "class": "logging.handlers.WatchedFileHandler",
            "filename": path,
            "encoding": "utf-8",
            "formatter": "line",
        }
    for handler in handlers.values():
        handler["filters"] = ["hide_table_tokens", "refusals_in_one_line"]
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"line": {"format": "%(asctime)s %(levelname)s %(name)s %(process)d: %(message)s"}},
        # No table token in a line; a 403 or 404 the site meant in one line, not a traceback (referee/logs.py).
        "filters": {
            "hide_table_tokens": {"()": "referee.logs.HideTableTokens"},
            "refusals_in_one_line": {"()": "referee.logs.RefusalsInOneLine"},
        },
        "handlers": handlers,
        "root": {"handlers": list(handlers), "level": "INFO"},
        # Replaces Django's own handlers for "django" (console only with DEBUG, mail to ADMINS) with the root's.
        "loggers": {
            "django": {"handlers": [], "level": "INFO", "propagate": True},
            # Failed log-ins and lock-outs are warnings; axes' start-up banner and resets are not worth a line.
            "axes": {"level": "WARNING"},
        },
    }


def caches(base_dir: Path, database_config: Mapping[str, Any]) -> dict:
    """CACHES: Redis from REDIS_URL (several servers share it); else a file cache on this machine, which every
    process of one server (gunicorn's workers) shares, as the public pages' generations must be. CACHE_DIR moves
    it (default: the system's temporary folder); its key prefix names the database, so two sites on one machine
    never read each other's pages."""
    import hashlib
    import tempfile

    name = f"{database_config.get('HOST', '')}:{database_config.get('PORT', '')}/{database_config.get('NAME', '')}"
    prefix = hashlib.blake2b(f"{base_dir}|{name}".encode(), digest_size=6).hexdigest()
    redis_url = os.environ.get("REDIS_URL", "").strip()
    if redis_url:
        return {
            "default": {
                "BACKEND": "django.core.cache.backends.redis.RedisCache",
                "LOCATION": redis_url,
                "KEY_PREFIX": prefix,
            }
        }
    folder = os.environ.get("CACHE_DIR", "").strip() or str(
        Path(tempfile.gettempdir()) / f"referee-cache-{prefix}"
    )
    return {
        "default": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": folder,
            "KEY_PREFIX": prefix,
            "OPTIONS": {"MAX_ENTRIES": 5000},
        }
    }


def throttles(base_dir: Path, database_config: Mapping[str, Any]) -> dict:
    """THROTTLES, where failed tries are counted (``tournaments.competition.throttle``), never beside the pages: Redis from
    REDIS_URL (every app server shares it, under a prefix naming the database), else a SQLite file
    ``referee-throttles-<prefix>.sqlite3`` in CACHE_DIR (default: the system's temporary folder), which every process
    of this machine shares (the file cache culls and clears its ``.djcache`` files only)."""
    import hashlib
    import tempfile

    name = f"{database_config.get('HOST', '')}:{database_config.get('PORT', '')}/{database_config.get('NAME', '')}"
    prefix = hashlib.blake2b(f"{base_dir}|{name}".encode(), digest_size=6).hexdigest()
    redis_url = os.environ.get("REDIS_URL", "").strip()
    if redis_url:
        return {"redis": redis_url, "prefix": prefix}
    folder = os.environ.get("CACHE_DIR", "").strip() or tempfile.gettempdir()
    return {"sqlite": str(Path(folder) / f"referee-throttles-{prefix}.sqlite3")}


DURATION_UNITS = {"s": 1, "m": 60, "h": 3600}
BACKUP_EVERY_DEFAULT = 300  # seconds: a backup every five minutes while `make serve` runs


def env_seconds(name: str, default: int) -> int:
    """A period from the environment: seconds (``300``), or with a unit (``300s``, ``5m``, ``1h``); 0 turns off."""
    raw = os.environ.get(name, "").strip().lower()
    if not raw:
        return default
    number, unit = (raw[:-1], raw[-1]) if raw[-1] in DURATION_UNITS else (raw, "s")
    if not number.isascii() or not number.isdigit():
        raise ConfigError(f"{name}: expected seconds (300) or a number with s, m or h (5m), got {raw!r}")
    return int(number) * DURATION_UNITS[unit]


def backup_dir(base_dir: Path, database_config: Mapping[str, Any]) -> Path:
    """BACKUP_DIR, where ``manage.py backup`` writes: default a ``backups`` folder beside the SQLite database (on
    PostgreSQL, or an in-memory database, beside manage.py)."""
    raw = os.environ.get("BACKUP_DIR", "").strip()
    if raw:
        return Path(raw).expanduser().resolve()
    name = str(database_config.get("NAME", ""))
    if database_config.get("ENGINE") == "referee.sqlite" and name and "memory" not in name:
        return Path(name).resolve().parent / "backups"
    return base_dir / "backups"
