"""`manage.py load`: a thin wrapper; the work is in ``tools.loadtest.run``."""

from tools.loadtest.run import Command

__all__ = ["Command"]
