"""The judging benchmark: simulate deals first (not timed), then time judging them on one core.

Target ≥ 1,000 whole-deal judgements per second, aim 5,000. ``--profile`` prints cProfile's top entries.
"""

from __future__ import annotations

import time
from typing import Any

from .judge import judge
from .simulate import simulate_deal

PRESETS = ("standard", "permanent-twos", "jj-competition", "club-competition")


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
