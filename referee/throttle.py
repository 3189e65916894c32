"""A small counter of failed tries in the cache, for what django-axes does not cover (it counts log-ins): a
table link's token tried from an address, a pair's PIN tried at a table.

Only failures are counted: a hall's devices share one address, and forty tables opening their links at once is
not an attack. The public API (``referee.api_limit``) counts every request instead. Each key allows ``limit`` failures in a window of ``seconds``; the window starts at the first.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.cache import cache


@dataclass(frozen=True)
class Throttle:
    """Failures allowed per key and window: ``blocked`` before a try, ``failed`` after a wrong one."""

    name: str
    limit: int
    seconds: int

    def key(self, who: str) -> str:
        return f"throttle:{self.name}:{who}"

    def blocked(self, who: str) -> bool:
        return (cache.get(self.key(who)) or 0) >= self.limit

    def failed(self, who: str) -> None:
        self.counted(who)

    def counted(self, who: str) -> None:
        """One more try for this key (a failure, or for a rate limit every request)."""
        key = self.key(who)
        if cache.add(key, 1, self.seconds):
            return
        try:
            cache.incr(key)
        except ValueError:  # expired between the two calls: this failure starts a new window
            cache.add(key, 1, self.seconds)


# A wrong or dead link from one address: twenty a minute (a token has 256 bits; guessing is hopeless anyway).
TABLE_LINKS = Throttle("table-link", limit=20, seconds=60)
# Wrong PINs for one pair, wherever typed: five in ten minutes (a PIN has a million values).
PINS = Throttle("pin", limit=5, seconds=600)
# The public API from one address: 600 requests a minute (a stream's overlay polling a few answers every
# second stays well under it; the answers are cached, so this guards the server, not the data).
API = Throttle("api", limit=600, seconds=60)
