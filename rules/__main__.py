"""``python -m rules`` — see ``rules.cli``."""

import os
import sys

from .cli import main

try:
    sys.exit(main())
except BrokenPipeError:  # the reader went away (``… | head -1``): stop quietly, as a Unix filter does
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # so the flush at exit raises nothing
    sys.exit(1)
