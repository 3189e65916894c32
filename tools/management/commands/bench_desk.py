"""`manage.py bench_desk`: a thin wrapper; the work is in ``tools.bench.desk``."""

from tools.bench.desk import Command

__all__ = ["Command"]
