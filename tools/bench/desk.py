"""Time the desk on a large event: standings (512 pairs × 9 rounds) and the workbook (~40,000 deals).

The event is built inside a transaction that is rolled back at the end, so the database is left as it was.
"""

from __future__ import annotations

import io
import random
import resource
import time
import tracemalloc

from django.core.cache import cache
from django.core.management.base import BaseCommand
from django.db import transaction
from django.template.loader import render_to_string
from django.test import RequestFactory
from django.utils import translation

from tournaments.models import Deal, Match, Pair, Penalty, Player, Round, Seating, Tournament
from tournaments.standings.compute import compute_standings, tie_break_columns
from tournaments.standings.grids import StandingsGrid
from tournaments.workbook.export import write_workbook

SEATS = "NESW"
LEVELS = "23456789TJQKA"


class Rollback(Exception):
    pass


def synthetic_verdict(rng: random.Random) -> dict:
    """A verdict of the engine's shape and size (25 trick summaries)."""
    total = rng.randrange(0, 200, 5)
    outcome = "takeover" if total >= 80 else rng.choice(["banker_holds"] * 20 + ["match_won"])
    kitty, mult = rng.randrange(0, 30, 5), rng.choice([0, 0, 2, 4])
    return {
        "ok": True,
        "violations": [],
        "tricks": [
            {
                "leader": rng.choice(SEATS),
                "winner": rng.choice(SEATS),
                "points": rng.choice([0, 5, 10, 15, 20]),
                "lead_shape": rng.choice(["single", "pair", "tractor"]),
            }
            for _ in range(25)
        ],  # fmt: skip
        "attackers_points": {
            "tricks": total,
            "kitty": kitty,
            "multiplier": mult,
            "kitty_bonus": kitty * mult,
            "penalties": 0,
            "total": total + kitty * mult,
        },  # fmt: skip
        "result": {
            "outcome": outcome,
            "side": "attackers" if outcome == "takeover" else "banker",
            "levels": rng.randint(0, 3),
            "next_banker": None if outcome == "match_won" else "N",
        },  # fmt: skip
    }


def build_event(n_pairs: int, n_rounds: int, n_deals: int, seed: int = 2026) -> Tournament:
    rng = random.Random(seed)
    t = Tournament.objects.create(name="bench", slug=f"bench-{seed}", num_rounds=n_rounds, is_public=True)
    players = Player.objects.bulk_create(Player(name=f"player {i}") for i in range(2 * n_pairs))
    pairs = Pair.objects.bulk_create(
        Pair(tournament=t, name=f"pair {i:03}", player1=players[2 * i], player2=players[2 * i + 1],
             club=f"club {i % 40}", seed=i + 1)
        for i in range(n_pairs)
    )  # fmt: skip
    rounds = Round.objects.bulk_create(
        Round(tournament=t, number=n, state=Round.State.FINISHED) for n in range(1, n_rounds + 1)
    )
    matches = []
    for rnd in rounds:
        order = pairs[:]
        rng.shuffle(order)
        for table in range(n_pairs // 2):
            ns, ew = order[2 * table], order[2 * table + 1]
            matches.append(
                Match(round=rnd, table=table + 1, pair_ns=ns, pair_ew=ew, state=Match.State.FINISHED,
                      winner=rng.choice([ns, ew, ns, ew, None]), level_ns=rng.choice(LEVELS),
                      level_ew=rng.choice(LEVELS), ended_by="target")
            )  # fmt: skip
    matches = Match.objects.bulk_create(matches, batch_size=1000)
    Seating.objects.bulk_create(
        (Seating(match=m, round_id=m.round_id, pair_id=p, side=s)
         for m in matches for p, s in ((m.pair_ns_id, "NS"), (m.pair_ew_id, "EW"))),
        batch_size=2000,
    )  # fmt: skip
    per_match = max(1, n_deals // len(matches))
    extra = n_deals - per_match * len(matches)
    for start in range(0, len(matches), 200):  # in batches, so building stays small in memory
        deals = []
        for i, m in enumerate(matches[start : start + 200], start=start):
            for number in range(1, per_match + (1 if i < extra else 0) + 1):
                deals.append(
                    Deal(match=m, number=number, banker=rng.choice(SEATS), level=rng.choice(LEVELS),
                         trump=rng.choice(["S", "H", "C", "D", "NT"]), state=Deal.State.CONFIRMED,
                         verdict=synthetic_verdict(rng)).fill_totals()
                )  # fmt: skip
        deals = Deal.objects.bulk_create(deals, batch_size=2000)
        Penalty.objects.bulk_create(
            Penalty(deal=d, seat=rng.choice(SEATS), code="misplay", trick=3, note="=1+1") for d in deals[::40]
        )
        del deals
    return t


def render_standings(t: Tournament) -> str:
    request = RequestFactory().get(f"/t/{t.slug}/standings/", HTTP_X_LIVE="1")
    table = StandingsGrid([x.as_row() for x in compute_standings(t)], tie_breaks=tie_break_columns(t))
    table.request = request
    return render_to_string(
        "tournaments/standings/fragment.html",
        {"table": table, "title": "bench", "updated": None},
        request=request,
    )


class Command(BaseCommand):
    help = "Time standings (512 pairs × 9 rounds) and the Excel workbook (~40,000 deals); changes nothing."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--pairs", type=int, default=512)
        parser.add_argument("--rounds", type=int, default=9)
        parser.add_argument("--deals", type=int, default=40_000)
        parser.add_argument("--repeat", type=int, default=3)

    def handle(self, *args, **o) -> None:
        translation.activate("zh-hans")
        try:
            with transaction.atomic():
                self.run(o)
                raise Rollback
        except Rollback:
            pass

    def run(self, o) -> None:
        t0 = time.perf_counter()
        t = build_event(o["pairs"], o["rounds"], o["deals"])
        self.stdout.write(
            f"built {o['pairs']} pairs × {o['rounds']} rounds, {Deal.objects.of(t).count()}"
            f" deals in {time.perf_counter() - t0:.1f} s (rolled back afterwards)"
        )

        times, html = [], ""
        for _ in range(o["repeat"]):
            t1 = time.perf_counter()
            html = render_standings(t)
            times.append(time.perf_counter() - t1)
        self.stdout.write(
            f"standings computed and rendered: {times[0] * 1000:.0f} ms first, {min(times) * 1000:.0f} ms best of "
            f"{o['repeat']} (target ≤ 300 ms; {len(html) // 1024} KB of HTML)"
        )

        cache.clear()
        out = io.BytesIO()
        t2 = time.perf_counter()
        write_workbook(t, out)
        elapsed = time.perf_counter() - t2
        size = len(out.getvalue())
        cache.clear()
        rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        tracemalloc.start()
        write_workbook(t, io.BytesIO())
        _current, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        self.stdout.write(
            f"workbook: {elapsed:.2f} s (target ≤ 5 s), {size / 1e6:.1f} MB file, "
            f"peak Python memory {peak / 1e6:.0f} MB by tracemalloc (target ≤ 150 MB); process peak RSS {rss:.0f} MB "
            f"(was {rss_before:.0f} MB after building the event)"
        )
