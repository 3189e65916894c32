"""`manage.py bench_signin`: a thin wrapper; the work is in ``tools.bench.signin``."""

from tools.bench.signin import Command

__all__ = ["Command"]
