"""Command line: ``python -m rules judge FILE|-``, ``python -m rules boards deal|check`` (duplicate boards), ``python -m rules bench`` (judging) and
``python -m rules bench pairing`` (Swiss draws over simulated events).

Exit status of ``judge``: 0 ok, 1 violations, 2 unreadable input (one line on stderr naming the culprit,
nothing on stdout).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from .judge import judge
from .record import RecordError

MAX_DIGITS = 30  # no number of a deal record comes near; Python refuses over 4,300 with a ValueError


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m rules", description="升级 / 拖拉机 referee: judge deal records."
    )
    sub = p.add_subparsers(dest="command", required=True)
    j = sub.add_parser("judge", help="judge one tractor-deal/1 record and print the verdict JSON")
    j.add_argument("file", help="the record file, or - for standard input")
    b = sub.add_parser("bench", help="time judging simulated deals, or (bench pairing) Swiss draws")
    b.add_argument("what", nargs="?", choices=("judging", "pairing"), default="judging", help="what to time")
    b.add_argument("--deals", type=int, default=1000, help="how many deals (default 1000)")
    b.add_argument(
        "--pairs", type=int, nargs="+", default=None, help="pairing: field sizes (default 64 128 256)"
    )
    b.add_argument("--rounds", type=int, default=9, help="pairing: rounds per event (default 9)")
    b.add_argument("--seed", type=int, default=0, help="simulation seed (default 0)")
    b.add_argument("--profile", action="store_true", help="print cProfile's top entries")
    bd = sub.add_parser("boards", help="deal duplicate boards from a seed, or check a boards file")
    bsub = bd.add_subparsers(dest="action", required=True)
    deal = bsub.add_parser("deal", help="print the tractor-boards/1 file dealt from SEED")
    deal.add_argument("seed", help="64 lower-case hex digits")
    deal.add_argument("count", type=int, help="how many boards")
    deal.add_argument("--preset", default="standard", help="the boards' preset (default standard)")
    check = bsub.add_parser("check", help="check a tractor-boards/1 file's fingerprints (and seed)")
    check.add_argument("file")
    return p


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def _bounded_int(text: str) -> int:
    """A JSON integer, refused past ``MAX_DIGITS`` (named by its length, never echoed)."""
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise RecordError(f"not JSON this reader accepts: a number of {len(text.lstrip('-'))} digits")
    return int(text)


def _load(text: str) -> object:
    try:
        return json.loads(text, parse_int=_bounded_int)
    except (json.JSONDecodeError, RecursionError) as e:
        raise RecordError(f"not JSON: {e}") from None


def judge_command(path: str) -> int:
    try:
        if path == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as f:
                data = f.read()
        text = data.decode("utf-8-sig")
    except (OSError, UnicodeDecodeError) as e:
        print(f"error: cannot read {path}: {_one_line(str(e))}", file=sys.stderr)
        return 2
    try:
        verdict = judge(_load(text))
    except (RecordError, RecursionError) as e:
        print(f"error: {_one_line(str(e))}", file=sys.stderr)
        return 2
    out = json.dumps(verdict.as_dict(), ensure_ascii=False, indent=2) + "\n"
    try:  # UTF-8 whatever the locale says (a C locale must not turn the Chinese into a crash)
        sys.stdout.buffer.write(out.encode("utf-8"))
        sys.stdout.flush()
    except AttributeError:  # a replaced stdout without a buffer (tests)
        sys.stdout.write(out)
    return 0 if verdict.ok else 1


def pairing_bench(fields: Sequence[int] | None, rounds: int, seed: int) -> int:
    from .pairing_bench import FIELDS, report, run

    fields = fields or FIELDS
    if rounds < 1 or min(fields) < 2:
        print("error: --rounds must be at least 1 and --pairs at least 2", file=sys.stderr)
        return 2
    print(report(run(fields, rounds, seed)))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "judge":
        return judge_command(args.file)
    if args.command == "boards":
        from .boards_cli import check_command, deal_command

        if args.action == "deal":
            return deal_command(args.seed, args.count, args.preset)
        return check_command(args.file)
    if args.what == "pairing":
        return pairing_bench(args.pairs, args.rounds, args.seed)
    from .bench import run, run_presets

    if args.deals < 1:
        print("error: --deals must be at least 1", file=sys.stderr)
        return 2
    n, dt = run(args.deals, args.seed, args.profile)
    print(f"judged {n} deals in {dt:.3f} s: {n / dt:.0f} deals/s")
    if not args.profile:
        per = max(1, args.deals // 4)
        for name, rate in run_presets(per, args.seed).items():
            print(f"  {name:<17} {rate:6.0f} deals/s ({per} deals)")
    return 0
