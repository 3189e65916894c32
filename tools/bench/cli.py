"""``python -m rules bench``: the engine's benchmark command, judging simulated deals or (``bench pairing``)
drawing Swiss rounds over simulated events.

The command is the engine's, so it answers under ``python -m rules``; its code sits here, with the other
benchmarks, because timing harnesses are tooling, not the engine. ``rules/__main__.py`` (the program, which no
module imports) hands this command to ``rules.cli.main``; the engine's library never imports ``tools``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from rules.cli import Command

from . import engine, pairing

HELP = "time judging simulated deals, or (bench pairing) Swiss draws"


def add_arguments(b: argparse.ArgumentParser) -> None:
    b.add_argument("what", nargs="?", choices=("judging", "pairing"), default="judging", help="what to time")
    b.add_argument("--deals", type=int, default=1000, help="how many deals (default 1000)")
    b.add_argument(
        "--pairs", type=int, nargs="+", default=None, help="pairing: field sizes (default 64 128 256)"
    )
    b.add_argument("--rounds", type=int, default=pairing.ROUNDS, help="pairing: rounds per event (default 9)")
    b.add_argument("--seed", type=int, default=0, help="simulation seed (default 0)")
    b.add_argument("--profile", action="store_true", help="print cProfile's top entries")


def pairing_bench(fields: Sequence[int] | None, rounds: int, seed: int) -> int:
    fields = fields or pairing.FIELDS
    if rounds < 1 or min(fields) < 2:
        print("error: --rounds must be at least 1 and --pairs at least 2", file=sys.stderr)
        return 2
    print(pairing.report(pairing.run(fields, rounds, seed)))
    return 0


def judging_bench(deals: int, seed: int, profile: bool) -> int:
    if deals < 1:
        print("error: --deals must be at least 1", file=sys.stderr)
        return 2
    n, dt = engine.run(deals, seed, profile)
    print(f"judged {n} deals in {dt:.3f} s: {n / dt:.0f} deals/s")
    if not profile:
        per = max(1, deals // 4)
        for name, rate in engine.run_presets(per, seed).items():
            print(f"  {name:<17} {rate:6.0f} deals/s ({per} deals)")
    return 0


def run(args: argparse.Namespace) -> int:
    if args.what == "pairing":
        return pairing_bench(args.pairs, args.rounds, args.seed)
    return judging_bench(args.deals, args.seed, args.profile)


COMMAND = Command(HELP, add_arguments, run)
