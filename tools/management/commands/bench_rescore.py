"""`manage.py bench_rescore`: a thin wrapper; the work is in ``tools.bench.rescore``."""

from tools.bench.rescore import Command

__all__ = ["Command"]
