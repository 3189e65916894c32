"""The packages depend one way, top to bottom tools → referee → tournaments → rules, and no package's modules
import each other in a circle.

grimp reads every import statement of every module, those inside functions and methods included, and resolves
relative imports; networkx finds the cycles. Decisions:

- A module may import any package below its own, never one above; the rules engine imports no Django either.
- Cycles are looked for module by module inside each top-level package (a subpackage's modules included). A
  package importing its own submodules (an ``__init__`` re-exporting them) is left out: Python runs a package's
  ``__init__`` before any of its submodules, so that arrow would otherwise close a "cycle" with every submodule
  that imports a name from its package, and it orders nothing that could break.
- Imports under ``if TYPE_CHECKING:`` count like any other: a type from a higher package is a back-arrow too.
- ``tests/`` and ``manage.py`` are not checked; a new top-level package must take its place in ``LAYERS``.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable, Mapping, Sequence
from itertools import islice
from pathlib import Path

import grimp
import networkx as nx
import pytest

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ("tools", "referee", "tournaments", "rules")  # top to bottom: each may import only those below it
NOT_BELOW = {"rules": ("django",)}  # outside packages a layer must not import (``django`` and ``django_*``)
NOT_LAYERED = {"tests"}
MOST_CYCLES_SHOWN = 20


def packages_in(root: Path, layers: Sequence[str] = LAYERS) -> list[str]:
    """The layers that exist under ``root`` as packages (``tools`` may not yet)."""
    return [name for name in layers if (root / name / "__init__.py").is_file()]


def build(packages: Sequence[str]) -> grimp.ImportGraph:
    """Every import of the packages' modules; outside packages appear by their top-level name."""
    return grimp.build_graph(*packages, include_external_packages=True, cache_dir=None)


def source(root: Path, module: str) -> str:
    """The module's file, relative to ``root``, for a failure message."""
    path = Path(*module.split("."))
    path = path / "__init__.py" if (root / path).is_dir() else path.with_suffix(".py")
    return path.as_posix()


def where(graph: grimp.ImportGraph, root: Path, importer: str, imported: str) -> list[str]:
    """``file:line`` of each statement by which ``importer`` imports ``imported``."""
    details = graph.get_import_details(importer=importer, imported=imported)
    return [f"{source(root, importer)}:{d['line_number']}" for d in details] or [source(root, importer)]


def modules_of(graph: grimp.ImportGraph, package: str) -> list[str]:
    return sorted(m for m in graph.modules if m == package or m.startswith(package + "."))


def forbidden(name: str, above: Iterable[str], outside: Iterable[str]) -> bool:
    top = name.split(".")[0]
    return top in above or any(top == o or top.startswith(o + "_") for o in outside)


def back_arrows(
    graph: grimp.ImportGraph,
    root: Path,
    package: str,
    layers: Sequence[str],
    not_below: Mapping[str, Sequence[str]] = NOT_BELOW,
) -> list[str]:
    """Each import by ``package`` of a package above it (or of an outside package it must not use)."""
    above = layers[: layers.index(package)]
    outside = not_below.get(package, ())
    found = []
    for module in modules_of(graph, package):
        for imported in sorted(graph.find_modules_directly_imported_by(module)):
            if forbidden(imported, above, outside):
                found += [f"{at}: {module} imports {imported}" for at in where(graph, root, module, imported)]
    return found


def cycles(graph: grimp.ImportGraph, package: str) -> list[list[str]]:
    """The import cycles among ``package``'s modules, each from its first module in sorted order, shortest
    first (at most MOST_CYCLES_SHOWN: one tangle can hold very many)."""
    inside = modules_of(graph, package)
    edges = nx.DiGraph()
    for module in inside:
        for imported in sorted(graph.find_modules_directly_imported_by(module)):
            if imported in inside and not imported.startswith(module + "."):
                edges.add_edge(module, imported)
    found = []
    for cycle in islice(nx.simple_cycles(edges), MOST_CYCLES_SHOWN):
        first = cycle.index(min(cycle))
        found.append(cycle[first:] + cycle[:first])
    return sorted(found, key=lambda c: (len(c), c))


def describe(graph: grimp.ImportGraph, root: Path, cycle: list[str]) -> str:
    steps = zip(cycle, cycle[1:] + cycle[:1], strict=True)
    lines = [" → ".join([*cycle, cycle[0]])]
    lines += [f"    {a} imports {b} at {', '.join(where(graph, root, a, b))}" for a, b in steps]
    return "\n".join(lines)


def assert_no_cycle(graph: grimp.ImportGraph, root: Path, package: str) -> None:
    found = cycles(graph, package)
    assert not found, f"import cycles inside {package}:\n" + "\n".join(
        describe(graph, root, c) for c in found
    )


def assert_no_back_arrow(graph: grimp.ImportGraph, root: Path, package: str, layers: Sequence[str]) -> None:
    found = back_arrows(graph, root, package, layers)
    assert not found, f"{package} imports from above it (order: {' → '.join(layers)}):\n" + "\n".join(found)


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return build(packages_in(ROOT))


PACKAGES = packages_in(ROOT)


@pytest.mark.parametrize("package", PACKAGES)
def test_no_import_cycle_among_a_packages_modules(graph, package):
    assert_no_cycle(graph, ROOT, package)


@pytest.mark.parametrize("package", PACKAGES)
def test_no_package_imports_a_package_above_it(graph, package):
    assert_no_back_arrow(graph, ROOT, package, PACKAGES)


def test_every_top_level_package_has_its_place_in_the_layer_order():
    packages = {p.parent.name for p in ROOT.glob("*/__init__.py")} - NOT_LAYERED
    assert packages <= set(LAYERS), (
        f"add {sorted(packages - set(LAYERS))} to LAYERS in tests/test_layering.py"
    )


# ---------------------------------------------------------------- the checker itself, on a throwaway tree

HIGH, LOW = "layering_probe_high", "layering_probe_low"


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")


@pytest.fixture
def probe(tmp_path, monkeypatch):
    """Two throwaway packages, HIGH above LOW, on the import path; returns a function that builds the graph."""
    monkeypatch.syspath_prepend(str(tmp_path))
    write(tmp_path, {f"{HIGH}/__init__.py": "", f"{LOW}/__init__.py": ""})
    return lambda files: (write(tmp_path, files), build([HIGH, LOW]))[1]


def test_the_checker_finds_a_cycle_closed_by_a_relative_import_inside_a_function(probe, tmp_path):
    graph = probe(
        {
            f"{HIGH}/a.py": "from . import b\n",
            f"{HIGH}/b.py": "def f():\n    from .c import g\n    return g\n",
            f"{HIGH}/c.py": "from .a import b\n",
        }
    )
    assert cycles(graph, HIGH) == [[f"{HIGH}.a", f"{HIGH}.b", f"{HIGH}.c"]]
    with pytest.raises(AssertionError, match=rf"{HIGH}/b\.py:2") as failure:
        assert_no_cycle(graph, tmp_path, HIGH)
    assert f"{HIGH}.a → {HIGH}.b → {HIGH}.c → {HIGH}.a" in str(failure.value)


def test_the_checker_finds_a_lower_package_importing_a_higher_one_inside_a_method(probe, tmp_path):
    graph = probe(
        {
            f"{HIGH}/top.py": f"from {LOW}.base import x\n",
            f"{LOW}/base.py": f"x = 1\n\nclass C:\n    def m(self):\n        from {HIGH} import top\n        return top\n",
        }
    )
    assert back_arrows(graph, tmp_path, HIGH, [HIGH, LOW]) == []
    assert back_arrows(graph, tmp_path, LOW, [HIGH, LOW]) == [
        f"{LOW}/base.py:5: {LOW}.base imports {HIGH}.top"
    ]


def test_the_checker_finds_django_in_the_lowest_package(probe, tmp_path):
    graph = probe({f"{LOW}/pure.py": "def f():\n    import django_tables2\n    return django_tables2\n"})
    found = back_arrows(graph, tmp_path, LOW, [HIGH, LOW], not_below={LOW: ("django",)})
    assert found == [f"{LOW}/pure.py:2: {LOW}.pure imports django_tables2"]


def test_a_package_re_exporting_its_submodules_is_no_cycle(probe):
    graph = probe(
        {
            f"{HIGH}/__init__.py": "from .a import f\n\nNAME = 'high'\n",
            f"{HIGH}/a.py": "def f():\n    from . import NAME\n    return NAME\n",
        }
    )
    assert graph.direct_import_exists(importer=f"{HIGH}.a", imported=HIGH)
    assert cycles(graph, HIGH) == []
