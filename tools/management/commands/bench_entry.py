"""`manage.py bench_entry`: a thin wrapper; the work is in ``tools.bench.entry``."""

from tools.bench.entry import Command

__all__ = ["Command"]
