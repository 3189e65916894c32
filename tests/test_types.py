"""The type checker's settings keep their promise: ``rules/`` checked as ``mypy --strict`` checks, no module let off.

mypy 2.4 reads ``strict = true`` in a per-module section as the whole run's ``--strict`` (tried: 1015 errors in
155 modules outside ``rules/``), so the override lists ``--strict``'s checks one by one; this test fails when a
mypy release adds a check to ``--strict`` that the list lacks, and when a module is let off its errors again.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from mypy.main import define_options

ROOT = Path(__file__).resolve().parent.parent
MYPY = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]


def option(name: str, value: bool) -> tuple[str, bool]:
    """A strict assignment as the config file spells it (``implicit_reexport = False``: ``no_implicit_reexport``)."""
    return (f"no_{name}", True) if value is False else (name, value)


def test_rules_is_checked_with_every_check_of_mypy_strict():
    (rules,) = [o for o in MYPY["overrides"] if "rules.*" in o["module"]]
    _parser, _names, assignments = define_options()
    missing = [
        name
        for name, value in map(lambda a: option(*a), assignments)
        if rules.get(name, MYPY.get(name)) is not value
    ]
    assert not missing, f"add to the rules/ override in pyproject.toml: {missing}"


def test_no_module_is_let_off_its_type_errors():
    let_off = [o["module"] for o in MYPY["overrides"] if o.get("ignore_errors")]
    assert not let_off, f"fix these modules' types instead: {let_off}"
