"""What the serve checks read beside the server's answers, in the stores the server uses (this process is given
the server's environment, so its settings name the same database, cache and throttle store)."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings

from tournaments.competition.throttle import PINS, store
from tournaments.models import Adjustment, CheckIn, Match, Series

FILE_CACHE = "django.core.cache.backends.filebased.FileBasedCache"
REDIS_CACHE = "django.core.cache.backends.redis.RedisCache"


def cache_entries() -> int:
    """Entries in the public pages' cache, counted the way its backend allows: the file cache's ``.djcache``
    files in its folder, Redis's keys under the site's prefix."""
    config = settings.CACHES["default"]
    if config["BACKEND"] == FILE_CACHE:
        return sum(1 for _ in Path(config["LOCATION"]).glob("*.djcache"))
    if config["BACKEND"] == REDIS_CACHE:
        import redis

        client = redis.Redis.from_url(config["LOCATION"])
        return sum(1 for _ in client.scan_iter(f"{config.get('KEY_PREFIX', '')}:*", count=1000))
    raise ValueError(f"cannot count the entries of {config['BACKEND']}")


def wrong_pins_counted(pair_id: int) -> int:
    """The pair's wrong PINs in the throttle store (``PINS``: one budget wherever a PIN is typed)."""
    return store().count(PINS.key(str(pair_id)))


def checked_in(pair_id: int) -> bool:
    """Whether the pair is checked in for any round."""
    return CheckIn.objects.filter(pair_id=pair_id).exists()


def standing_adjustments(match_id: int) -> list[int]:
    """The match's adjustments in force (not withdrawn), by id."""
    return list(
        Adjustment.objects.filter(match_id=match_id, withdrawn_at__isnull=True).values_list("pk", flat=True)
    )


def forfeited_by(match_id: int) -> str:
    """The side the match's forfeit is against (what the fold reads), or nothing."""
    return Match.objects.filter(pk=match_id).values_list("forfeited_by", flat=True).get()


def series_named(name: str) -> int:
    """How many series carry this name."""
    return Series.objects.filter(name=name).count()
