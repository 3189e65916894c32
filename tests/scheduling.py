"""How a run spreads its tests over the workers (``make test``: ``-n 3 --dist loadscope``).

Two things made the suite wait rather than compute. A module whose scene is built once per module (a fixture of
scope "module": the hostile sweeps' world, the archive's tournaments, the hall's servers) was built again on every
worker that ran one of its tests; and the longest tests, collected last, were still running alone at the end of
the run while the other workers sat idle. So:

- a module's tests go to one worker, one after the other (pytest-xdist's ``loadscope``, with the module as the
  unit of work: a scene is built once a run); a module named in ``SPLIT`` is shared out between that many units,
  each building its scene once, so that no one worker carries all of it;
- the tests are sent in the order sorted here, not in the order collected: the longest modules (``LONGEST``)
  first, then the browser tests (long, but mostly waiting on chromium, so they run beside the others' computing),
  then the rest as collected, so that short ones come last and the workers finish together.

(pytest-xdist's own ``xdist_group`` marks cannot do the first: the group it writes into a test's id is no longer
read by pytest 9, so this module gives the scheduler its units itself, through xdist's
``pytest_xdist_make_scheduler`` hook.) Without ``-n`` (one process) the order is the same and nothing else
changes; a test's outcome never depends on its place."""

from __future__ import annotations

import zlib

import pytest
from xdist.scheduler import LoadScopeScheduling

# Modules shared out between this many units of work (the largest sweep: as one unit it would be a single worker's
# whole run); each test's unit is fixed by its id, so every worker agrees on it.
SPLIT = {"tests/test_hostile_urls.py": 3}

# The longest modules of the last measured run (docs/benchmarks.md, "The test suite"), the longest first: they
# start before everything else, so that none is left running alone at the end. A module not named here starts
# after them.
LONGEST = (
    "tests/test_hostile_urls.py",
    "tests/browser/test_restore_drill.py",
    "tests/test_hall.py",
    "tests/archive/test_archive.py",
    "tests/browser/test_table_last_mile.py",
    "tests/test_hostile_admin.py",
    "tests/browser/test_offline_journal.py",
    "tests/browser/test_table_done.py",
    "tests/table/test_serve_checks.py",
    "tests/browser/test_accessibility.py",
    "tests/table/test_load.py",
    "tests/test_hostile_input.py",
)


def unit_of(nodeid: str) -> str:
    """The unit of work a test belongs to: its module, or one of the module's ``SPLIT`` parts."""
    module = nodeid.split("::", 1)[0]
    parts = SPLIT.get(module, 1)
    return module if parts == 1 else f"{module}#{zlib.crc32(nodeid.encode()) % parts}"


class ModuleScheduling(LoadScopeScheduling):
    """pytest-xdist's ``loadscope`` with ``unit_of`` as the scope, in the order the workers collected."""

    def __init__(self, config: pytest.Config, log=None) -> None:
        config.option.loadscopereorder = False  # the order sorted below, not the largest unit first
        super().__init__(config, log)

    def _split_scope(self, nodeid: str) -> str:
        return unit_of(nodeid)


def pytest_xdist_make_scheduler(config: pytest.Config, log) -> LoadScopeScheduling | None:
    """The run's scheduler when it asks for ``--dist loadscope``; any other distribution as pytest-xdist has it."""
    return ModuleScheduling(config, log) if config.getvalue("dist") == "loadscope" else None


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def order(pair: tuple[int, pytest.Item]) -> tuple:
        position, item = pair
        module = item.nodeid.split("::", 1)[0]
        if module in LONGEST:
            return (0, LONGEST.index(module), unit_of(item.nodeid), position)
        if module.startswith("tests/browser/"):
            return (1, 0, "", position)
        return (2, 0, "", position)

    items[:] = [item for _, item in sorted(enumerate(items), key=order)]
