"""Command line: ``python -m rules judge FILE|-``, ``python -m rules boards deal|check`` (duplicate boards, dealt
again from a published seed or a boards file checked), and the commands the program adds (``rules/__main__.py``
adds ``bench``, whose code lives with the other benchmarks in ``tools/bench/``).

Exit status of ``judge``: 0 ok, 1 violations, 2 unreadable input (one line on stderr naming the culprit,
nothing on stdout).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .judge import judge
from .record import RecordError

MAX_DIGITS = 30  # no number of a deal record comes near; Python refuses over 4,300 with a ValueError


@dataclass(frozen=True)
class Command:
    """A subcommand the program adds to the engine's own: its help line, its arguments and what it runs."""

    help: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


def _parser(commands: Mapping[str, Command]) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m rules", description="升级 / 拖拉机 referee: judge deal records."
    )
    sub = p.add_subparsers(dest="command", required=True)
    j = sub.add_parser("judge", help="judge one tractor-deal/1 record and print the verdict JSON")
    j.add_argument("file", help="the record file, or - for standard input")
    bd = sub.add_parser("boards", help="deal duplicate boards from a seed, or check a boards file")
    bsub = bd.add_subparsers(dest="action", required=True)
    deal = bsub.add_parser("deal", help="print the tractor-boards/1 file dealt from SEED")
    deal.add_argument("seed", help="64 lower-case hex digits")
    deal.add_argument("count", type=int, help="how many boards")
    deal.add_argument("--preset", default="standard", help="the boards' preset (default standard)")
    check = bsub.add_parser("check", help="check a tractor-boards/1 file's fingerprints (and seed)")
    check.add_argument("file")
    for name, command in commands.items():
        command.add_arguments(sub.add_parser(name, help=command.help))
    return p


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def _bounded_int(text: str) -> int:
    """A JSON integer, refused past ``MAX_DIGITS`` (named by its length, never echoed)."""
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise RecordError(f"not JSON this reader accepts: a number of {len(text.lstrip('-'))} digits")
    return int(text)


def _load(text: str) -> Any:  # any JSON document: the judge refuses what is not a record
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


def main(argv: Sequence[str] | None = None, commands: Mapping[str, Command] | None = None) -> int:
    """Run ``judge`` or one of ``commands`` (what the program adds, by name)."""
    commands = commands or {}
    args = _parser(commands).parse_args(argv)
    if args.command == "judge":
        return judge_command(args.file)
    if args.command == "boards":
        from .boards_cli import check_command, deal_command

        if args.action == "deal":
            return deal_command(args.seed, args.count, args.preset)
        return check_command(args.file)
    return commands[args.command].run(args)
