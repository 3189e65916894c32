"""`manage.py bench_trace`: a thin wrapper; the work is in ``tools.bench.trace_play``."""

from tools.bench.trace_play import Command

__all__ = ["Command"]
