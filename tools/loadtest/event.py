"""The spectators' tournament: a simulated 64-pair, 9-round Swiss (the desk benchmark's event) or one named by
its slug, and the public pages of it a spectator polls."""

from __future__ import annotations

import random
import time

from django.urls import Resolver404, resolve, reverse

from tools.bench.desk import build_event
from tournaments.models import Tournament

DEALS_PER_MATCH = 6


def spectated(slug: str | None, pairs: int, rounds: int) -> Tournament:
    """The tournament named, else a new simulated one (finished matches, confirmed deals)."""
    if slug:
        return Tournament.objects.get(slug=slug)
    return build_event(pairs, rounds, pairs // 2 * rounds * DEALS_PER_MATCH, seed=time.time_ns() % 10**9)


def public_pages(tournament: Tournament, seed: str, count: int = 4) -> list[str]:
    """Overview, standings, each round, results (latest and some rounds), a few pairs' pages and the
    projector screen if the site has one."""
    slug = tournament.slug
    numbers = list(tournament.rounds.values_list("number", flat=True))
    rng = random.Random(seed)
    pairs = list(tournament.pairs.values_list("pk", flat=True))
    results = reverse("results", args=[slug])
    pages = [reverse("tournament", args=[slug]), reverse("standings", args=[slug]), results]
    pages += [reverse("round", args=[slug, n]) for n in numbers]
    pages += [f"{results}?round={n}" for n in rng.sample(numbers, min(count, len(numbers)))]
    pages += [reverse("pair", args=[slug, pk]) for pk in rng.sample(pairs, min(count, len(pairs)))]
    screen = f"/t/{slug}/screen/"
    try:
        resolve(screen)
    except Resolver404:
        return pages
    return [*pages, screen]
