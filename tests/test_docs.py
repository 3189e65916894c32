"""docs/rules.md and docs/deal-record.md stay the specification's texts.

The specification's own files are kept, as the project received them, in tests/spec/ (the test needs nothing
outside the repository); a new version of the specification is copied there and the docs follow it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "tests" / "spec"
# The repository's copy names the seeds where the specification points at its folder of seed files.
SEEDS_NAMED = (
    "are\nfive Chinese documents, the seeds, cited by number: 000 《拖拉机游戏详细规则》, 001 《拖拉机游戏》\n"
    "(二副牌拖拉机, 四副牌拖拉机), 002 《牌类游戏拖拉机》, 003 《升级拖拉机游戏规则说明》 and 004 《扑克牌拖拉机的玩法及规则》\n"
    "(not part of this repository)"
)
COPIES = {
    "rules.md": ("RULES.md", [("are in\n`../seeds/` (Chinese)", SEEDS_NAMED)]),
    "deal-record.md": ("DEAL-RECORD.md", []),
}


# The repository's copy of the rules may carry the readings settled after the specification where §13.6's list
# ends (§13's end, before any later section such as §14): bullets only, so every word of the specification stays
# as it is.
SETTLED = re.compile(r"(?:- [^\n]+\n(?:  [^\n]+\n)*)*")


def settled_at(spec: str) -> int:
    """Where a copy may insert settled bullets: the end of §13.6's list (the next top-level section or the end)."""
    start = spec.find("\n### 13.6")
    if start < 0:
        return len(spec)
    end = spec.find("\n## ", start)
    return len(spec) if end < 0 else end


def body(text: str) -> str:
    """The text after the copy's one-line header and the blank line under it."""
    header, blank, rest = text.split("\n", 2)
    assert header.startswith("> ") and blank == "", "a copy starts with a one-line header, then a blank line"
    return rest


@pytest.mark.parametrize("copy", sorted(COPIES))
def test_docs_copy_matches_the_specification_next_door(copy):
    original, edits = COPIES[copy]
    expected = (SPEC / original).read_text(encoding="utf-8")
    for old, new in edits:
        assert expected.count(old) == 1, f"{original} changed where {copy} names the seeds: update the copy"
        expected = expected.replace(old, new)
    text = body((ROOT / "docs" / copy).read_text(encoding="utf-8"))
    at = settled_at(expected)
    head, tail = expected[:at], expected[at:]
    assert text[:at] == head, f"copy {original} into docs/{copy}"
    assert text.endswith(tail), f"copy {original} into docs/{copy} (after §13)"
    added = text[at : len(text) - len(tail)]
    assert len(text) >= len(expected) and SETTLED.fullmatch(added), (
        f"docs/{copy} adds only settled points at the end of §13.6 of {original}"
    )


ARCHITECTURE = ROOT / "docs" / "architecture.md"
MOST_LINES = 200
# A path the map names in backticks: a package's file or folder, a template or a static file.
NAMED_PATH = re.compile(r"`((?:rules|tournaments|referee|tools|templates|static|tests)/[\w/.-]*)`")


def section(text: str, heading: str) -> str:
    """The text under ``## heading`` up to the next heading of that level."""
    return text.split(f"\n## {heading}", 1)[1].split("\n## ", 1)[0]


def test_the_architecture_map_fits_on_a_page():
    lines = ARCHITECTURE.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= MOST_LINES, (
        f"docs/architecture.md has {len(lines)} lines: keep the map, move the rest"
    )


def test_every_path_the_architecture_map_names_exists():
    named = set(NAMED_PATH.findall(ARCHITECTURE.read_text(encoding="utf-8")))
    gone = sorted(p for p in named if "<" not in p and not (ROOT / p).exists())
    assert named and not gone, f"docs/architecture.md names what is gone: {gone}"


def test_the_rooms_table_is_every_room_in_the_layering_tests_order():
    from tests.test_layering import ROOMS

    rows = re.findall(r"^\| `(\w+)/` \|", section(ARCHITECTURE.read_text(encoding="utf-8"), "Rooms"), re.M)
    assert rows == [room for band in ROOMS for room in band]


def test_no_rule_of_the_game_imports_django():
    """Where things live, rule 1 (the layering test reads every import; this reads the statements' text)."""
    found = [
        str(path.relative_to(ROOT))
        for path in (ROOT / "rules").rglob("*.py")
        if re.search(r"^\s*(?:import|from) django", path.read_text(encoding="utf-8"), re.M)
    ]
    assert not found, f"rules/ imports Django in {found}"


def test_every_model_is_in_a_models_module():
    """Where things live, rule 2; simple-history's historical models are made by the library, not written."""
    from django.apps import apps

    stray = [
        f"{model.__module__}.{model.__name__}"
        for model in apps.get_app_config("tournaments").get_models()
        if not model.__module__.endswith(".models") and not model.__name__.startswith("Historical")
    ]
    assert not stray, f"models outside a models.py: {stray}"


def url_patterns():
    """Every address of the site with the URL module that names it, Django's own (the admin, auth) left out."""
    from django.urls import URLResolver, get_resolver

    def walk(resolver, module):
        for pattern in resolver.url_patterns:
            if isinstance(pattern, URLResolver):
                yield from walk(pattern, getattr(pattern.urlconf_module, "__name__", module))
            else:
                view = getattr(pattern.callback, "view_class", pattern.callback)
                if not view.__module__.startswith("django") and not module.startswith("django"):
                    yield module, view.__module__, pattern

    yield from walk(get_resolver(), "referee.urls")


def test_every_page_is_in_the_package_of_its_reader():
    """Where things live, rule 3: the judges' pages in referee/table/, the desk's and the public's in a room."""
    wrong = []
    for module, view, pattern in url_patterns():
        if module.startswith("referee.table"):
            expected = "referee.table."
        elif module.startswith("tournaments."):
            expected = "tournaments."
        else:
            expected = ("referee.", "tournaments.")
        if not view.startswith(expected) or view.split(".")[0] in ("rules", "tools"):
            wrong.append(f"{pattern.name or pattern.pattern}: {view} (named by {module})")
    assert not wrong, "pages outside their reader's package:\n" + "\n".join(wrong)


def test_every_address_is_in_a_url_module():
    """Where things live, rule 4."""
    wrong = sorted(
        {
            m
            for m, _view, _p in url_patterns()
            if m.rsplit(".", 1)[-1] not in ("urls",) and not m.endswith("_urls")
        }
    )
    assert not wrong, f"addresses outside a URL module: {wrong}"


def test_every_decision_record_is_numbered_dated_and_listed_once():
    records = sorted((ROOT / "docs" / "decisions").glob("*.md"))
    numbers = [r.name.split("-", 1)[0] for r in records]
    assert numbers == [f"{n:04d}" for n in range(1, len(records) + 1)], "records are numbered 0001, 0002, …"
    for record in records:
        head = record.read_text(encoding="utf-8").splitlines()[:3]
        assert head[0].startswith(f"# {record.name[:4]}. ") and re.match(
            r"Date: \d{4}-\d\d-\d\d\.", head[2]
        ), f"{record.name} starts with its number and title, then its date"


def test_the_readme_lists_every_doc():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"\]\((docs/[\w.-]+(?:\.md|/))\)", readme.split("## Documents", 1)[1]))
    docs = {f"docs/{p.name}" for p in (ROOT / "docs").glob("*.md")}
    docs |= {"docs/decisions/"}
    assert not docs - listed, f"README.md's Documents table does not list {sorted(docs - listed)}"


LINK = re.compile(r"\]\(([^)]+)\)")


@pytest.mark.parametrize(
    "doc", ["README.md", *sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "docs").rglob("*.md"))]
)
def test_readme_and_docs_link_only_inside_the_repository(doc):
    text = (ROOT / doc).read_text(encoding="utf-8")
    assert "../shared" not in text and "shared/spec" not in text
    for target in LINK.findall(text):
        assert "://" not in target, f"{doc} links out: {target}"
        path = (ROOT / doc).parent / target.split("#", 1)[0]
        assert path.resolve().is_relative_to(ROOT) and path.exists(), f"{doc}: broken link {target}"


def test_setting_up_gives_the_addresses_the_site_makes_from_names():
    """The director's guide shows names and the addresses the site makes of them: each example must be what
    ``slug_base`` makes today (a Chinese name once gave ``tournament``; it now gives its pinyin)."""
    from tournaments.setup.services import slug_base

    text = (ROOT / "docs" / "setting-up.md").read_text(encoding="utf-8")
    examples = re.findall(r"`([^`]+)` → `([a-z0-9-]+)`", text)
    assert len(examples) >= 2
    for name, address in examples:
        assert slug_base(name) == address, name
