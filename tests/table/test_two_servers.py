"""The federation's deployment in small: two app servers sharing one database and one Redis cache. A write
through one is read on the other at once, and the other's cached page (and its ETag) gives way to it."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from referee.serve import free_port
from tools.loadtest.browser import Browser
from tools.loadtest.clients import Judge
from tools.loadtest.server import Server

ROOT = Path(__file__).resolve().parents[2]
REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
SET_UP = """
from django.contrib.auth import get_user_model
from tournaments.competition.access import JUDGE_GROUP, add_to_group
from tournaments.competition.accounts import seat_table
from tournaments.models import Round, Tournament
t = Tournament.objects.create(name="federation", slug="fed")
judge = get_user_model().objects.create_user("fed-judge", password="fed-judge-pass")
add_to_group(judge, JUDGE_GROUP)
print(seat_table(Round.objects.create(tournament=t, number=1, state="published"), 1, judge).pk)
"""


def redis_reachable() -> bool:
    try:
        import redis

        return bool(redis.Redis.from_url(REDIS_URL, socket_timeout=1).ping())
    except Exception:  # no server, no module: the test is skipped
        return False


pytestmark = pytest.mark.skipif(not redis_reachable(), reason=f"no Redis at {REDIS_URL}")


@pytest.fixture
def two_servers(tmp_path, migrated_file):
    """Two servers (one process, two threads each) on one SQLite file (a copy of the session's migrated one) and
    one Redis; the match's id."""
    database = tmp_path / "fed.sqlite3"
    shutil.copy(migrated_file, database)
    env = {
        **os.environ,
        "DEBUG": "1",
        "DATABASE_URL": f"sqlite:///{database}",
        "REDIS_URL": REDIS_URL,
    }
    manage = [sys.executable, "manage.py"]
    made = subprocess.run(
        [*manage, "shell", "-c", SET_UP], cwd=ROOT, env=env, check=True, timeout=120, capture_output=True
    )
    match_id = int(made.stdout.split()[-1])
    servers = [Server(ROOT, env, free_port(), tmp_path / f"server-{n}.log", 1, 2) for n in (1, 2)]
    try:
        for server in servers:
            server.start()
        yield servers, match_id
    finally:
        for server in servers:
            server.stop()


def test_a_write_on_one_server_shows_on_the_others_cached_page(two_servers):
    (one, two), match_id = two_servers
    spectator = Browser("127.0.0.1", two.port)
    first = spectator.request("GET", "/t/fed/")
    assert first.status == 200
    etag = first.headers["ETag"]
    assert "未开始" in first.body.decode()
    assert spectator.request("GET", "/t/fed/", headers={"If-None-Match": etag}).status == 304
    assert Browser("127.0.0.1", one.port).request("GET", "/t/fed/").headers["ETag"] == etag  # one cache

    judge = Judge(("127.0.0.1", one.port), "fed-judge", "fed-judge-pass", budget=_Unbounded(), retry_for=10)
    judge.login()
    form = judge.send("GET", f"/match/{match_id}/deal/new/", accept_json=False)
    next_deal = re.search(rb'name="next_deal" value="(\d+)"', form.body).group(1).decode()
    fields = {"trump": "S", "declarer": "N", "next_deal": next_deal}
    started = judge.send("POST", f"/match/{match_id}/deal/new/", fields, accept_json=False)
    assert started.status == 302  # the first deal begun through server one: the match is now in progress

    after = spectator.request("GET", "/t/fed/", headers={"If-None-Match": etag})
    assert after.status == 200 and after.headers["ETag"] != etag
    assert "进行中" in after.body.decode()


class _Unbounded:
    """A budget with no end, for a client outside a timed run."""

    def take(self) -> bool:
        return True
