"""Time a ruleset change on a played tournament: every played deal scored again and every match recomputed.

A tournament of ``--pairs`` pairs plays ``--rounds`` Swiss rounds, each deal dealt by the engine's simulator and
recorded through the recording service (``referee.table.simulation``). Then the desk's own service
(``setup.services.save_settings``) saves another preset, and back, ``--repeat`` times: what the director waits for
after pressing save. Prints the seconds and the queries of each save. Everything is rolled back at the end, except
with ``--keep``: building takes minutes, so the played tournament is then kept (slug ``rescore-bench``) and the
next run times it again (the saves still rolled back).
"""

from __future__ import annotations

import statistics
import time

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import connection, transaction

from referee.table.simulation import simulate_round
from tournaments.models import Deal, Pair, Player, Tournament
from tournaments.pairing.services import pair_round, publish_pairing
from tournaments.setup.services import save_settings

SLUG = "rescore-bench"


class Rollback(Exception):
    pass


class QueryCount:
    """Counts the statements run on the connection while it is installed (``connection.execute_wrapper``)."""

    def __init__(self) -> None:
        self.n = 0

    def __call__(self, execute, sql, params, many, context):
        self.n += 1
        return execute(sql, params, many, context)


def build_played(pairs: int, rounds: int, max_deals: int, operator) -> Tournament:
    """A Swiss tournament of ``pairs`` pairs whose ``rounds`` rounds are played to the end (or ``max_deals``)."""
    t = Tournament.objects.create(name="rescore bench", slug=SLUG, num_rounds=rounds)
    players = Player.objects.bulk_create(Player(name=f"bench player {i}") for i in range(2 * pairs))
    Pair.objects.bulk_create(
        Pair(
            tournament=t, name=f"pair {i:03}", player1=players[2 * i], player2=players[2 * i + 1], seed=i + 1
        )
        for i in range(pairs)
    )
    for number in range(1, rounds + 1):
        publish_pairing(pair_round(t, number))
        simulate_round(t, number, operator, seed="bench", max_deals=max_deals)
    return t


class Command(BaseCommand):
    help = "Time a ruleset change on a played tournament (64 pairs, one round by default); changes nothing."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--pairs", type=int, default=64)
        parser.add_argument("--rounds", type=int, default=1)
        parser.add_argument("--max-deals", type=int, default=20, help="deals a match plays at most")
        parser.add_argument("--repeat", type=int, default=3)
        parser.add_argument(
            "--presets", default="standard,club-competition", help="the two presets saved in turn"
        )
        parser.add_argument("--keep", action="store_true", help="keep the played tournament for the next run")

    def handle(self, *args, **o) -> None:
        try:
            with transaction.atomic():
                operator, _ = get_user_model().objects.get_or_create(username=SLUG, is_superuser=True)
                t = Tournament.objects.filter(slug=SLUG).first() if o["keep"] else None
                if t is None:
                    t0 = time.perf_counter()
                    t = build_played(o["pairs"], o["rounds"], o["max_deals"], operator)
                    self.stdout.write(
                        f"built {o['pairs']} pairs × {o['rounds']} rounds in {time.perf_counter() - t0:.1f} s"
                    )
                if not o["keep"]:
                    self.run(t, operator, o)
                    raise Rollback
            with transaction.atomic():
                self.run(t, operator, o)
                raise Rollback
        except Rollback:
            pass

    def run(self, t: Tournament, operator, o) -> None:
        deals = Deal.objects.of(t).count()
        presets = o["presets"].split(",")
        times = []
        for i in range(o["repeat"]):
            t = Tournament.objects.get(pk=t.pk)
            spec = {"preset": presets[(i + 1) % len(presets)]}
            queries = QueryCount()
            with connection.execute_wrapper(queries):
                t1 = time.perf_counter()
                save_settings(t, spec, operator)
                times.append(time.perf_counter() - t1)
            self.stdout.write(f"saved {spec['preset']}: {times[-1]:.2f} s, {queries.n} queries")
        self.stdout.write(
            f"ruleset change, {deals} deals: median {statistics.median(times):.2f} s, best {min(times):.2f} s"
        )
