"""``python -m rules`` — see ``rules.cli``. The program, not the library: it adds the engine's benchmark command,
whose code lives with the other benchmarks in ``tools/bench/``; no module imports this one (the layering test
holds it to that, and to reaching no Django)."""

import os
import sys

from tools.bench.cli import COMMAND as BENCH

from .cli import main

try:
    sys.exit(main(commands={"bench": BENCH}))
except BrokenPipeError:  # the reader went away (``… | head -1``): stop quietly, as a Unix filter does
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # so the flush at exit raises nothing
    sys.exit(1)
