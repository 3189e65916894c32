"""The demo tournament 演示赛, read from ``fixtures/demo.json``: pairs, round 1 paired, a TD and two judges.

Safe to run again. The data file holds every name, club and demo password; this module only builds them.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction

from tournaments.competition.access import DIRECTOR_GROUP, add_to_group
from tournaments.models import Match, Pair, Round, Tournament
from tournaments.people.registry import player_named

DEMO_FILE = Path(settings.BASE_DIR) / "fixtures" / "demo.json"
DATES = ("start_date", "end_date")


@cache
def demo_data() -> dict:
    """The demo's data file, read once."""
    return json.loads(DEMO_FILE.read_text(encoding="utf-8"))


@dataclass(frozen=True)
class DemoResult:
    tournament: Tournament
    created: bool
    accounts: list[tuple[str, str, str]]  # (username, password, group), as the command prints them


def demo_accounts() -> list[tuple[str, str, str]]:
    return [(a["username"], a["password"], a["group"]) for a in demo_data()["accounts"]]


def ensure_account(username: str, password: str, group: str, name: str = ""):
    """The demo's account, made once with its password and the person's name (pages name people, not
    accounts)."""
    User = get_user_model()
    user, created = User.objects.get_or_create(username=username)
    if created:
        user.first_name = name
        user.set_password(password)
        if group == DIRECTOR_GROUP:
            user.is_staff = user.is_superuser = True
        user.save()
    add_to_group(user, group)
    return user


def tournament_defaults(fields: dict) -> dict:
    """The tournament's fields as the model takes them (dates from ISO text), without its slug."""
    defaults = {k: v for k, v in fields.items() if k != "slug"}
    for key in DATES:
        defaults[key] = dt.date.fromisoformat(defaults[key])
    return defaults


def create_pairs(tournament: Tournament, rows: list[dict]) -> dict[str, Pair]:
    """The demo's pairs, seeded in the file's order, by name."""
    pairs = {}
    for seed, row in enumerate(rows, start=1):
        club = row["club"]
        player1, player2 = player_named(row["player1"], club), player_named(row["player2"], club)
        pairs[row["pair"]] = Pair.objects.create(
            tournament=tournament, name=row["pair"], player1=player1, player2=player2, club=club, seed=seed
        )
    return pairs


@transaction.atomic
def create_demo(preset: str | None = None) -> DemoResult:
    """Create 演示赛 once, on the data file's ruleset or on ``preset`` (``three-deck``); a second run finds it
    and changes nothing."""
    data = demo_data()
    accounts = demo_accounts()
    names = {a["username"]: a.get("name", "") for a in data["accounts"]}
    users = {name: ensure_account(name, pw, group, names[name]) for name, pw, group in accounts}
    defaults = tournament_defaults(data["tournament"])
    if preset is not None:
        defaults["ruleset"] = {"preset": preset}
    tournament, created = Tournament.objects.get_or_create(slug=data["tournament"]["slug"], defaults=defaults)
    if created:
        pairs = create_pairs(tournament, data["pairs"])
        round1 = Round.objects.create(tournament=tournament, number=1, state=Round.State.PUBLISHED)
        for m in data["round1"]:
            Match.objects.create(
                round=round1,
                table=m["table"],
                pair_ns=pairs[m["ns"]],
                pair_ew=pairs[m["ew"]],
                judge=users[m["judge"]],
            )
    return DemoResult(tournament, created, accounts)
