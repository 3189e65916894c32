"""Failed tries counted for what django-axes does not cover (it counts log-ins): a table link's token tried from an
address, a pair's PIN tried at a table.

The counts live in a store of their own, never in the public pages' cache: a cache culls or evicts what it likes
(2,000 page addresses once emptied 90 % of the file cache, a pair's PIN lock with it), and its increments reset
an entry's expiry or race. The store is Redis when ``REDIS_URL`` names one (every app server shares it), else a
small SQLite file on this machine (every worker process shares it): ``settings.THROTTLES``.

Each key allows ``limit`` tries in a window of exactly ``seconds`` from the first; a try is taken (counted) in one
atomic step *before* the slow check it guards, so sixty-four wrong PINs at once check five and refuse the rest; a
try that turns out right is given back, so only failures count.

The public API (``referee.middleware.ApiRateLimit``) takes a try for every request instead, and gives none back; so does the
public pages' cache for each copy of a page it keeps beyond the plain one (``tournaments.public.caching``).
"""

from __future__ import annotations

import sqlite3
import threading
import time
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Protocol

from django.conf import settings


def now() -> float:
    return time.time()


class Store(Protocol):
    def take(self, key: str, limit: int, seconds: int) -> bool: ...
    def give_back(self, key: str) -> None: ...
    def count(self, key: str) -> int: ...
    def clear(self) -> None: ...


class SqliteStore:
    """The counts in a SQLite file: each step one ``BEGIN IMMEDIATE`` transaction, so the processes of one
    server (and their threads) take tries one at a time. A window's end is stored, never left to an expiry."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.local = threading.local()
        Path(path).parent.mkdir(parents=True, exist_ok=True)

    def _db(self) -> sqlite3.Connection:
        db = getattr(self.local, "db", None)
        if db is None:
            db = sqlite3.connect(self.path, timeout=30, isolation_level=None, check_same_thread=False)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute(
                "CREATE TABLE IF NOT EXISTS tries (key TEXT PRIMARY KEY, used INTEGER NOT NULL, ends REAL NOT NULL)"
            )
            self.local.db = db
        return db

    def take(self, key: str, limit: int, seconds: int) -> bool:
        db, at = self._db(), now()
        db.execute("BEGIN IMMEDIATE")
        try:
            row = db.execute("SELECT used, ends FROM tries WHERE key = ?", (key,)).fetchone()
            if row is None or row[1] <= at:  # a new window starts with this try; old windows are dropped
                db.execute("DELETE FROM tries WHERE ends <= ?", (at,))
                db.execute("INSERT OR REPLACE INTO tries VALUES (?, 1, ?)", (key, at + seconds))
                taken = True
            else:
                taken = row[0] < limit
                if taken:
                    db.execute("UPDATE tries SET used = used + 1 WHERE key = ?", (key,))
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        return taken

    def give_back(self, key: str) -> None:
        self._db().execute(
            "UPDATE tries SET used = max(used - 1, 0) WHERE key = ? AND ends > ?", (key, now())
        )

    def count(self, key: str) -> int:
        row = self._db().execute("SELECT used FROM tries WHERE key = ? AND ends > ?", (key, now())).fetchone()
        return row[0] if row else 0

    def clear(self) -> None:
        # ``WHERE true`` turns off SQLite's truncate optimisation, which writes (and syncs the WAL) even when the
        # table is already empty; a row at a time writes nothing then (the tests clear the store before each).
        self._db().execute("DELETE FROM tries WHERE true")


TAKE = """
local used = redis.call('GET', KEYS[1])
if not used then redis.call('SET', KEYS[1], 1, 'EX', ARGV[2]) return 1 end
if tonumber(used) >= tonumber(ARGV[1]) then return 0 end
redis.call('INCR', KEYS[1])
return 1
"""
GIVE_BACK = """
local used = redis.call('GET', KEYS[1])
if used and tonumber(used) > 0 then redis.call('DECR', KEYS[1]) end
return 0
"""


class RedisStore:
    """The counts in Redis, each step one script (atomic there); the window is the key's expiry, set once by the
    first try and kept by every increment."""

    def __init__(self, url: str, prefix: str) -> None:
        import redis

        self.client = redis.Redis.from_url(url)
        self.prefix = f"{prefix}:throttle:"
        self._take = self.client.register_script(TAKE)
        self._give_back = self.client.register_script(GIVE_BACK)

    def take(self, key: str, limit: int, seconds: int) -> bool:
        return bool(self._take(keys=[self.prefix + key], args=[limit, seconds]))

    def give_back(self, key: str) -> None:
        self._give_back(keys=[self.prefix + key])

    def count(self, key: str) -> int:
        return int(self.client.get(self.prefix + key) or 0)

    def clear(self) -> None:
        for key in self.client.scan_iter(f"{self.prefix}*"):
            self.client.delete(key)


def store() -> Store:
    """The store ``settings.THROTTLES`` names: ``{"redis": url, "prefix": …}`` or ``{"sqlite": path}``; one per
    setting, so a test that overrides the setting gets its own (and no signal is needed to notice)."""
    return store_at(tuple(sorted(settings.THROTTLES.items())))


@cache
def store_at(where: tuple[tuple[str, str], ...]) -> Store:
    """The store of one ``THROTTLES`` value, opened once."""
    found = dict(where)
    if "redis" in found:
        return RedisStore(found["redis"], found.get("prefix", ""))
    return SqliteStore(found["sqlite"])


@dataclass(frozen=True)
class Throttle:
    """Tries allowed per key and window: ``take`` one before a check (False: none left), ``give_back`` a right
    one, ``blocked`` to ask without taking."""

    name: str
    limit: int
    seconds: int

    def key(self, who: str) -> str:
        return f"{self.name}:{who}"

    def take(self, who: str) -> bool:
        return store().take(self.key(who), self.limit, self.seconds)

    def give_back(self, who: str) -> None:
        store().give_back(self.key(who))

    def blocked(self, who: str) -> bool:
        return store().count(self.key(who)) >= self.limit


# A wrong or dead link from one address: twenty a minute (a token has 256 bits; guessing is hopeless anyway).
TABLE_LINKS = Throttle("table-link", limit=20, seconds=60)
# Wrong PINs for one pair, wherever typed: five in ten minutes (a PIN has a million values).
PINS = Throttle("pin", limit=5, seconds=600)
# The public API from one address: 600 requests a minute (a stream's overlay polling a few answers every
# second stays well under it; the answers are cached, so this guards the server, not the data).
API = Throttle("api", limit=600, seconds=60)
# The public entry form (``tournaments.entries``): posts from one address, ten in ten minutes (a club's members
# entering from its one Wi-Fi share an address; a refused form counts too); posts to one tournament, a hundred
# and twenty in ten minutes from anywhere. A repeated post of a form that already made its entry counts nowhere.
ENTRY_ADDRESSES = Throttle("entry-address", limit=10, seconds=600)
ENTRY_TOURNAMENTS = Throttle("entry-tournament", limit=120, seconds=600)
# A wrong or guessed own-page link from one address: twenty a minute, as a table link's.
OWN_LINKS = Throttle("own-link", limit=20, seconds=60)
