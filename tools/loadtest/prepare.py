"""The load test's throwaway tournament, in the database the server uses: per table a judge (one password hash
for all), a match and a started deal, some tricks entered before the run when asked."""

from __future__ import annotations

import random
import time

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.db import transaction
from simple_history.utils import bulk_create_with_history

from referee.table.recording.deal_entry import start_deal
from rules.cards import format_cards, parse_cards
from rules.simulate import simulate_deal
from tools.loadtest.clients import TableJob
from tools.loadtest.plays import TRUMPS
from tournaments.competition.access import JUDGE_GROUP, add_to_group
from tournaments.competition.accounts import seat_table
from tournaments.models import Deal, Play, Round, Tournament, Trick
from tournaments.scoring.versions import touch

PASSWORD = "load-judge-pass"


@transaction.atomic
def set_up(tables: int, seed: str, preplayed: int) -> list[TableJob]:
    """A throwaway tournament: per table a judge (one password hash for all), a match and a started deal."""
    stamp = time.time_ns()
    tournament = Tournament.objects.create(name=f"load {stamp}", slug=f"load-{stamp}")
    rnd = Round.objects.create(tournament=tournament, number=1, state=Round.State.PUBLISHED)
    password = make_password(PASSWORD)
    rng = random.Random(seed)
    jobs = []
    for table in range(1, tables + 1):
        judge = get_user_model().objects.create(username=f"load-{stamp}-{table}", password=password)
        add_to_group(judge, JUDGE_GROUP)
        match = seat_table(rnd, table, judge, (f"NS{table}", f"EW{table}"))
        deal = start_deal(match, judge, trump=rng.choice(TRUMPS), declarer=rng.choice("NESW"))
        job_seed = f"{seed}-{table}"
        record = simulate_deal(
            tournament.ruleset, banker=deal.banker, level=deal.level, trump=deal.trump, seed=f"{job_seed}-1"
        )
        position = preplay(deal, judge, record, preplayed)
        deal.refresh_from_db()
        jobs.append(
            TableJob(
                table,
                match.pk,
                deal.pk,
                deal.version,
                judge.username,
                PASSWORD,
                record,
                tournament.ruleset,
                job_seed,
                position,
            )
        )
    return jobs


def preplay(deal: Deal, user, record: dict, tricks: int) -> int:
    """Store the first ``tricks`` tricks (never the whole deal) at once, one version for them all: a quick start
    for runs that should reach the end of a deal. The engine judges them again with the rest afterwards.
    """
    entries = record["tricks"][: min(tricks, len(record["tricks"]) - 1)]
    if not entries:
        return 0

    def canon(text: str) -> str:
        return format_cards(parse_cards(text))

    rows = []
    for number, entry in enumerate(entries):
        throw = entry.get("throw") or {}
        rows.append(
            Trick(
                deal=deal,
                number=number,
                throw_attempted=canon(throw["attempted"]) if throw else "",
                throw_challenger=throw.get("challenger", ""),
                throw_shown=canon(throw["shown"]) if throw else "",
            )
        )
    bulk_create_with_history(rows, Trick, default_user=user)
    made = list(deal.tricks.order_by("number"))
    plays = [
        Play(trick=trick, order=order, seat=seat, cards=canon(cards), recorded_by=user)
        for trick, entry in zip(made, entries, strict=True)
        for order, (seat, cards) in enumerate(entry["plays"])
    ]
    bulk_create_with_history(plays, Play, default_user=user)
    touch(deal, user)
    return len(plays)
