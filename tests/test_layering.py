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
- A package's ``__main__`` is a program, like ``manage.py``, not a part of the library: ``ENTRY_POINTS`` names
  the few that may import a package above their own (``python -m rules bench`` runs the benchmark code kept in
  ``tools/bench/``). No module may import one, and one under ``NOT_BELOW`` still reaches none of those outside
  packages, through any chain of imports.

Inside ``tournaments/`` the rooms (its subpackages) are ordered the same way, ``ROOMS`` top to bottom: the pages,
then the services, then the data. A room may import its own modules and any room below it, never one above.
Decisions there:

- Every ``models.py`` is the data, whichever room's folder it sits in (Django keeps one app's models together
  and ``tournaments/models.py`` gathers them): it stands with the data rooms, so it may import only the data, and
  every room may import it.
- The app's own glue (``admin``, ``urls``, ``apps``, commands, migrations, template tags, the package itself) sits
  above every room: it may import any room, and no room may import it.
- A new subpackage of ``tournaments/`` fails the test until it takes its place in ``ROOMS`` (or ``GLUE``).
- Two rooms never import each other, counting each room's whole folder, its ``models.py`` too: the order above
  lets any room import every ``models.py``, so without this a lower room could still lean on a higher one's
  models while the higher one leans on its pages (the public pages and the team event did).
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
ENTRY_POINTS = {"rules.__main__"}  # programs (``python -m rules``): above every layer, imported by no module
APP = "tournaments"
ROOMS = (  # top to bottom: each room may import only its own modules and the rooms below it
    ("desk",),  # the desk's pages and its URLs, which gather every room's desk pages
    ("entries",),  # entries on line, their waiting list and desk page, and a player's own page
    ("live",),  # featured tables followed live on a delay, their desk page and the projector's panel
    ("api",),  # the public's read-only JSON API: what the public pages show
    ("teams",),  # team events: teams, line-ups, team matches across tables, zones and their tables
    ("public",),  # the public's pages and the projector screen
    ("checkin",),  # who is here for the next round; the round paired from them, absent pairs' forfeits
    ("table_links",),  # a table's link and PINs; the desk's table links page shows the board's cards
    ("board",),  # the director's board of tables, the confirmation queue, cards and score sheets
    ("calls",),  # a table's calls for the referee and the rulings
    ("season",),  # a club's series and ratings, its pages and its workbook
    ("workbook",),  # the workbook out and the pairs' import in
    ("setup",),  # a tournament set up and deleted
    ("backup",),  # the day kept safe: the desk's identity, backups, restore, the tournament archive
    ("people",),  # pairs, players (the registry) and accounts
    ("adjusted",),  # results the director awards or withdraws, and their page
    ("scoring",),  # a match's result: a deal read and scored, the match fold, who may write, re-scoring
    (
        "league",
    ),  # a team league's results and zone tables, its playoffs made as each round's last table finishes
    ("organisations",),  # who organises what: organisations, their members' roles, invitations
    ("pairing",),  # the draw: pairing, the knockout, its bracket
    ("duplicate",),  # duplicate: boards dealt from a seed, the movement, matchpoints, what a board may show
    ("standings",),  # standings from the database
    ("competition", "deals"),  # the data (and every room's models.py): what every room asks of it
)
GLUE = {"admin", "admin_reading", "apps", "urls", "management", "migrations", "templatetags"}
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
        if module in ENTRY_POINTS:
            continue
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


def room_rank(module: str, app: str = APP, rooms: Sequence[Sequence[str]] = ROOMS) -> int | None:
    """How high ``module`` stands in the app (0 = the data); None for the app's glue and outside modules. A
    module of an unknown room stands on top, like the glue (``test_every_subpackage_of_the_app_has_its_place``
    names it)."""
    parts = module.split(".")
    if parts[0] != app or len(parts) == 1:
        return None
    bottom_up = list(reversed(rooms))
    if parts[-1] == "models" and len(parts) <= 3:
        return 0
    for rank, band in enumerate(bottom_up):
        if parts[1] in band:
            return rank
    return None


def place(module: str, rank: int | None) -> str:
    """Where a module stands, for a failure message."""
    if rank is None:
        return "the app's glue"
    return "the data" if module.endswith(".models") else f"room {module.split('.')[1]}"


def room_back_arrows(
    graph: grimp.ImportGraph, root: Path, app: str = APP, rooms: Sequence[Sequence[str]] = ROOMS
) -> list[str]:
    """Each import by a room's module of a room above its own, or of the app's glue."""
    found = []
    for module in modules_of(graph, app):
        rank = room_rank(module, app, rooms)
        if rank is None:
            continue
        for imported in sorted(graph.find_modules_directly_imported_by(module)):
            if imported.split(".")[0] != app:
                continue
            above = room_rank(imported, app, rooms)
            if above is None or above > rank:
                found += [
                    f"{at}: {module} imports {imported} ({place(imported, above)}, above {place(module, rank)})"
                    for at in where(graph, root, module, imported)
                ]
    return found


def assert_no_room_back_arrow(
    graph: grimp.ImportGraph, root: Path, app: str = APP, rooms: Sequence[Sequence[str]] = ROOMS
) -> None:
    found = room_back_arrows(graph, root, app, rooms)
    order = " → ".join("/".join(band) for band in rooms)
    assert not found, f"a room of {app} imports one above it (order: {order}):\n" + "\n".join(found)


def room_of(module: str, app: str = APP, rooms: Sequence[Sequence[str]] = ROOMS) -> str | None:
    """The room whose folder holds ``module`` (its ``models.py`` included); None outside the rooms."""
    parts = module.split(".")
    names = {name for band in rooms for name in band}
    return parts[1] if parts[0] == app and len(parts) > 2 and parts[1] in names else None


def rooms_importing_each_other(
    graph: grimp.ImportGraph, root: Path, app: str = APP, rooms: Sequence[Sequence[str]] = ROOMS
) -> list[str]:
    """Each pair of rooms whose folders import each other, with the statements of both directions."""
    arrows: dict[tuple[str, str], list[str]] = {}
    for module in modules_of(graph, app):
        here = room_of(module, app, rooms)
        for imported in sorted(graph.find_modules_directly_imported_by(module)):
            there = room_of(imported, app, rooms)
            if here and there and here != there:
                arrows.setdefault((here, there), []).extend(where(graph, root, module, imported))
    return [
        f"{a} ⇄ {b}: {', '.join(arrows[a, b])} against {', '.join(arrows[b, a])}"
        for a, b in sorted(arrows)
        if a < b and (b, a) in arrows
    ]


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


def test_no_room_of_the_app_imports_a_room_above_it(graph):
    assert_no_room_back_arrow(graph, ROOT)


def test_no_two_rooms_of_the_app_import_each_other(graph):
    found = rooms_importing_each_other(graph, ROOT)
    assert not found, "rooms import each other (models.py counted with its room):\n" + "\n".join(found)


@pytest.mark.parametrize("entry", sorted(ENTRY_POINTS))
def test_no_module_imports_a_program(graph, entry):
    importers = sorted(graph.find_modules_that_directly_import(entry))
    assert not importers, f"{entry} is a program, imported by {importers}"


@pytest.mark.parametrize("entry", sorted(ENTRY_POINTS))
def test_a_program_of_a_pure_package_reaches_none_of_its_outside_packages(graph, entry):
    outside = NOT_BELOW.get(entry.split(".")[0], ())
    reached = sorted(m for m in graph.find_upstream_modules(entry) if forbidden(m, (), outside))
    assert not reached, f"{entry} reaches {reached} through its imports"


def test_every_subpackage_of_the_app_has_its_place_in_the_room_order():
    rooms = {name for band in ROOMS for name in band}
    subpackages = {p.parent.name for p in (ROOT / APP).glob("*/__init__.py")}
    assert subpackages - GLUE <= rooms, (
        f"add {sorted(subpackages - GLUE - rooms)} to ROOMS in tests/test_layering.py"
    )
    assert not rooms - subpackages, f"ROOMS names rooms that are gone: {sorted(rooms - subpackages)}"


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


PROBE_ROOMS = (("pages",), ("services",), ("data",))


def test_the_checker_finds_a_lower_room_importing_a_higher_one_inside_a_function(probe, tmp_path):
    graph = probe(
        {
            f"{HIGH}/pages/__init__.py": "",
            f"{HIGH}/pages/views.py": f"from {HIGH}.services.work import do\n",
            f"{HIGH}/services/__init__.py": "",
            f"{HIGH}/services/work.py": f"from {HIGH}.models import Row\n\ndef do():\n    return Row\n",
            f"{HIGH}/data/__init__.py": "",
            f"{HIGH}/data/text.py": f"def shown():\n    from {HIGH}.pages import views\n    return views\n",
            f"{HIGH}/models.py": f"from {HIGH}.data.text import shown\n\nRow = shown\n",
        }
    )
    found = room_back_arrows(graph, tmp_path, HIGH, PROBE_ROOMS)
    assert found == [
        f"{HIGH}/data/text.py:2: {HIGH}.data.text imports {HIGH}.pages.views (room pages, above room data)"
    ]
    with pytest.raises(AssertionError, match=rf"{HIGH}/data/text\.py:2"):
        assert_no_room_back_arrow(graph, tmp_path, HIGH, PROBE_ROOMS)


def test_the_checker_holds_a_rooms_models_to_the_data_and_its_glue_above_every_room(probe, tmp_path):
    graph = probe(
        {
            f"{HIGH}/admin.py": f"from {HIGH}.services import work\n",
            f"{HIGH}/services/__init__.py": "",
            f"{HIGH}/services/work.py": f"from {HIGH} import admin\n",
            f"{HIGH}/services/models.py": f"from {HIGH}.services.work import x\n",
        }
    )
    assert room_back_arrows(graph, tmp_path, HIGH, PROBE_ROOMS) == [
        f"{HIGH}/services/models.py:1: {HIGH}.services.models imports {HIGH}.services.work "
        "(room services, above the data)",
        f"{HIGH}/services/work.py:1: {HIGH}.services.work imports {HIGH}.admin (the app's glue, above room services)",
    ]


def test_the_checker_finds_two_rooms_importing_each_other_through_a_models_module(probe, tmp_path):
    graph = probe(
        {
            f"{HIGH}/pages/__init__.py": "",
            f"{HIGH}/pages/models.py": "Row = 1\n",
            f"{HIGH}/pages/views.py": f"from {HIGH}.services.work import do\n",
            f"{HIGH}/services/__init__.py": "",
            f"{HIGH}/services/work.py": f"def do():\n    from {HIGH}.pages.models import Row\n    return Row\n",
        }
    )
    assert room_back_arrows(graph, tmp_path, HIGH, PROBE_ROOMS) == []  # every room may import the data
    assert rooms_importing_each_other(graph, tmp_path, HIGH, PROBE_ROOMS) == [
        f"pages ⇄ services: {HIGH}/pages/views.py:1 against {HIGH}/services/work.py:2"
    ]
