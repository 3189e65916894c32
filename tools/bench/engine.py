"""The judging benchmark: simulate deals first (not timed), then time judging them on one core.

Target ≥ 1,000 whole-deal judgements per second, aim 5,000. ``run`` times the two-deck mix (the figure kept
comparable over time); ``run_presets`` times each of the seven presets on its own. ``--profile`` prints
cProfile's top entries.
"""

from __future__ import annotations

import time
from typing import Any

from rules.judge import judge
from rules.ruleset import PRESETS as ALL_PRESETS
from rules.simulate import simulate_deal

PRESETS = ("standard", "permanent-twos", "jj-competition", "club-competition")  # the two-deck mix


def make_deals(n: int, seed: int = 0) -> list[dict[str, Any]]:
    """``n`` simulated deals, varied over presets, bankers, levels and trumps."""
    return [
        simulate_deal(
            PRESETS[i % 4],
            banker="NWSE"[i % 4],
            level="23456789TJQKA"[(seed + i) % 13],
            seed=seed * 1_000_003 + i,
        )
        for i in range(n)
    ]


def run(n: int = 500, seed: int = 0, profile: bool = False) -> tuple[int, float]:
    """Judge ``n`` deals; returns (n, seconds). Every simulated deal must be judged ok."""
    deals = make_deals(n, seed)
    if profile:
        import cProfile
        import pstats

        prof = cProfile.Profile()
        prof.enable()
    t0 = time.perf_counter()
    bad = sum(1 for d in deals if not judge(d).ok)
    dt = time.perf_counter() - t0
    if profile:
        prof.disable()
        pstats.Stats(prof).sort_stats("tottime").print_stats(15)
    if bad:
        raise AssertionError(f"{bad} simulated deals were judged not ok")
    return n, dt


def run_presets(n: int = 250, seed: int = 0) -> dict[str, float]:
    """Deals judged per second for each preset (``n`` simulated deals each, bankers and levels varied)."""
    rates: dict[str, float] = {}
    for name in ALL_PRESETS:
        deals = [
            simulate_deal(
                name,
                banker="NWSE"[i % 4],
                level=ALL_PRESETS[name].ladder[(seed + i) % len(ALL_PRESETS[name].ladder)],
                seed=seed * 1_000_003 + i,
            )
            for i in range(n)
        ]
        t0 = time.perf_counter()
        bad = sum(1 for d in deals if not judge(d).ok)
        dt = time.perf_counter() - t0
        if bad:
            raise AssertionError(f"{bad} simulated {name} deals were judged not ok")
        rates[name] = n / dt
    return rates
