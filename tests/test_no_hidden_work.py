"""No work hidden in signals: a service that causes work calls it. The public cache's generation receivers
(``tournaments/public/generation.py``) are the project's only ones.

The modules are read as Python (``ast``), not as text, so a database driver's ``sqlite3.connect(…)`` is no
receiver. Counted as a receiver: a function decorated ``@receiver``, a ``.connect(`` on a name imported from
``django.dispatch`` or a ``…signals`` module (``post_save.connect``, ``setting_changed.connect``) or made by
``Signal()``, and a new ``Signal()`` itself (a custom signal is a call in disguise).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("rules", "tournaments", "referee", "tools")
THE_CACHE_MODULE = "tournaments/public/generation.py"


def signal_names(tree: ast.Module) -> set[str]:
    """The names a module binds to a signal: imported from a signals module or ``django.dispatch``, or
    assigned a ``Signal()``."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == "django.dispatch" or node.module.endswith("signals"):
                names |= {alias.asname or alias.name for alias in node.names}
        elif isinstance(node, ast.Assign) and makes_signal(node.value):
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    return names


def makes_signal(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) == "Signal"


def receivers_in(source: str, filename: str) -> list[str]:
    """Each receiver of a module, ``line: what``."""
    tree = ast.parse(source, filename)
    signals = signal_names(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for decorator in node.decorator_list:
                target = decorator.func if isinstance(decorator, ast.Call) else decorator
                if getattr(target, "id", getattr(target, "attr", "")) == "receiver":
                    found.append(f"{node.lineno}: @receiver on {node.name}")
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "connect"
        ):
            owner = node.func.value
            if isinstance(owner, ast.Name) and owner.id in signals:
                found.append(f"{node.lineno}: {owner.id}.connect(…)")
        if makes_signal(node):
            found.append(f"{node.lineno}: a new Signal()")
    return found


def modules() -> list[Path]:
    return sorted(p for package in PACKAGES for p in (ROOT / package).rglob("*.py") if ".venv" not in p.parts)


def test_no_module_but_the_public_cache_s_connects_a_signal_receiver():
    found = {
        path.relative_to(ROOT).as_posix(): hits
        for path in modules()
        if (hits := receivers_in(path.read_text(encoding="utf-8"), str(path)))
    }
    assert set(found) <= {THE_CACHE_MODULE}, f"signal receivers outside {THE_CACHE_MODULE}: " + "; ".join(
        f"{module} {hits}" for module, hits in found.items() if module != THE_CACHE_MODULE
    )


def test_the_public_cache_s_receivers_are_found_by_the_same_reading():
    """The reading finds the receivers it is meant to find (else the test above could pass by finding none)."""
    assert receivers_in((ROOT / THE_CACHE_MODULE).read_text(encoding="utf-8"), THE_CACHE_MODULE)


@pytest.mark.parametrize(
    "source",
    [
        "from django.dispatch import receiver\n@receiver(object)\ndef f(sender, **kw): pass\n",
        "from django.db.models.signals import post_save\npost_save.connect(print)\n",
        "from django.core.signals import setting_changed\nsetting_changed.connect(print)\n",
        "from django.dispatch import Signal\nround_done = Signal()\nround_done.connect(print)\n",
    ],
)
def test_each_way_of_connecting_a_receiver_is_caught(source):
    assert receivers_in(source, "example.py")


def test_a_database_driver_s_connect_is_no_receiver():
    assert not receivers_in("import sqlite3\ndb = sqlite3.connect(':memory:')\n", "example.py")
