"""Benchmark (not a test): post simulated deals play by play to the trick-entry endpoint, each with its own
idempotency key as the page sends it; report per-play and per-trick times, and the CPU time per play (less
sensitive than the clock to other work on the machine). The posts run with DEBUG off, as the server does
(with DEBUG on Django also keeps every query's SQL).

Run it on a throwaway database (``make bench`` does): it creates its own tournament, judge and match.

``--orm-read`` reads each play's deal with its match, round, tournament, pairs and players through the ORM's
``select_related`` instead of ``tournaments.scoring.sql.ModelRead`` (the same rows, ``tests/table/test_hot_sql.py``):
the two runs' CPU per play are the benchmark that keeps ``ModelRead`` (docs/django-overrides.md).
"""

from __future__ import annotations

import statistics
import time
import uuid
from urllib.parse import urlencode

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import connection
from django.test import Client
from django.test.utils import override_settings, setup_test_environment
from django.urls import reverse

from referee.table import views
from referee.table.recording.deal_entry import confirm_deal, set_kitty, start_deal, submit_deal
from rules.seats import side_of
from rules.simulate import simulate_deal
from tournaments.competition.access import JUDGE_GROUP, add_to_group
from tournaments.competition.accounts import seat_table
from tournaments.models import Round, Tournament
from tournaments.scoring.fold import table_state
from tournaments.scoring.sql import ModelRead

FORM = "application/x-www-form-urlencoded"  # as the page's script posts (URLSearchParams)


class OrmRead:
    """``ModelRead.first`` through the ORM: ``select_related`` on the same paths, filtered on the same keys."""

    def __init__(self, read: ModelRead) -> None:
        self.model, self.keys = read.parts[0].model, read.keys
        self.paths = list(read.paths)

    def first(self, *values):
        rows = self.model.objects.select_related(*self.paths)
        return rows.filter(**dict(zip(self.keys, values, strict=True))).first()


class Command(BaseCommand):
    help = "Time trick entry through the JSON endpoint (median and p95 per play and per trick)."

    def add_arguments(self, parser):
        parser.add_argument("--deals", type=int, default=4)
        parser.add_argument("--seed", default="bench")
        parser.add_argument(
            "--orm-read", action="store_true", help="read the play's deal with select_related"
        )

    def handle(self, *args, **options):
        if options["orm_read"]:
            views.DEAL_WITH_MATCH = OrmRead(views.DEAL_WITH_MATCH)
        setup_test_environment()  # lets the test client run against ALLOWED_HOSTS=testserver
        judge = get_user_model().objects.create_user(f"bench-judge-{time.time_ns()}", password="x-bench-pass")
        confirmer = get_user_model().objects.create_user(
            f"bench-judge2-{time.time_ns()}", password="x-bench-pass"
        )
        add_to_group(confirmer, JUDGE_GROUP)
        tournament = Tournament.objects.create(name="bench", slug=f"bench-{time.time_ns()}")
        rnd = Round.objects.create(tournament=tournament, number=1, state=Round.State.PUBLISHED)
        match = seat_table(rnd, 1, judge, ("p0", "p1"))
        client = Client()
        client.force_login(judge)
        plays, tricks, cpu = [], [], []
        for n in range(options["deals"]):
            state = table_state(match)
            if state.over:
                break
            banker = state.banker or "N"
            record = simulate_deal(
                "standard",
                banker=banker,
                level=state.levels[side_of(banker)],
                seed=f"{options['seed']}-{n}",
            )
            deal = start_deal(match, judge, trump=record["trump"], declarer=banker)
            url = reverse("deal-play", args=[deal.pk])
            version = deal.version
            for trick in record["tricks"]:
                trick_time = 0.0
                for j, (seat, cards) in enumerate(trick["plays"]):
                    key = str(uuid.uuid4())  # as the page sends it
                    data = {"cards": cards, "seat": seat, "version": version, "idempotency_key": key}
                    if j == 0 and trick.get("throw"):
                        data.update({f"throw_{k}": v for k, v in trick["throw"].items()})
                    start, start_cpu = time.perf_counter(), time.process_time()
                    with override_settings(DEBUG=False):
                        response = client.post(url, urlencode(data), FORM, HTTP_ACCEPT="application/json")
                    elapsed = time.perf_counter() - start
                    cpu.append(time.process_time() - start_cpu)
                    if response.status_code != 200:
                        raise SystemExit(f"play refused: {response.json().get('message')}")
                    version = response.json()["state"]["deal"]["version"]
                    plays.append(elapsed)
                    trick_time += elapsed
                tricks.append(trick_time)
            deal.refresh_from_db()
            set_kitty(deal, judge, record["kitty"], version=deal.version)
            deal.refresh_from_db()
            submit_deal(deal, judge, version=deal.version)
            deal.refresh_from_db()
            confirm_deal(deal, confirmer, version=deal.version)

        def ms(values, q):
            return 1000 * (statistics.median(values) if q == 50 else statistics.quantiles(values, n=20)[18])

        self.stdout.write(
            f"trick entry on {connection.vendor}{' (ORM read)' if options['orm_read'] else ''}: {len(plays)} plays in {len(tricks)} tricks; per play median "
            f"{ms(plays, 50):.1f} ms, p95 {ms(plays, 95):.1f} ms (CPU median {ms(cpu, 50):.1f} ms); per trick median {ms(tricks, 50):.1f} ms, "
            f"p95 {ms(tricks, 95):.1f} ms"
        )
