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


# The repository's copy of the rules may end with the readings settled after the specification (§13.6's list
# goes on): bullets only, so every word of the specification stays as it is.
SETTLED = re.compile(r"(?:- [^\n]+\n(?:  [^\n]+\n)*)*")


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
    assert text[: len(expected)] == expected, f"copy {original} into docs/{copy}"
    assert SETTLED.fullmatch(text[len(expected) :]), f"docs/{copy} adds only settled points after {original}"


MODULE_ROW = re.compile(r"`((?:rules|tournaments|referee|tools)/[\w/]+\.py)`")
PACKAGES = ("rules", "tournaments", "referee", "tools")


def mapped_modules() -> set[str]:
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    return set(MODULE_ROW.findall(text.split("## Module map", 1)[1].split("\n## ", 1)[0]))


def tree_modules() -> set[str]:
    """Every module with a job of its own: not package markers, app configs, migrations, commands or tags."""
    skip = ("__init__.py", "apps.py")
    return {
        str(path.relative_to(ROOT))
        for package in PACKAGES
        for path in (ROOT / package).rglob("*.py")
        if path.name not in skip and not {"migrations", "management", "templatetags"} & set(path.parts)
    }


def test_the_module_map_in_architecture_md_matches_the_tree():
    mapped, tree = mapped_modules(), tree_modules()
    assert not tree - mapped, f"modules missing from docs/architecture.md: {sorted(tree - mapped)}"
    assert not mapped - tree, f"docs/architecture.md names modules that are gone: {sorted(mapped - tree)}"


def test_the_module_map_names_each_module_once():
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = text.split("## Module map", 1)[1].split("\n## ", 1)[0]
    named = [m for line in section.splitlines() if line.startswith("| `") for m in MODULE_ROW.findall(line)]
    repeated = sorted({m for m in named if named.count(m) > 1})
    assert not repeated, f"docs/architecture.md's module map names these more than once: {repeated}"


def test_the_readme_lists_every_doc():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"\]\((docs/[\w.-]+\.md)\)", readme.split("## Documents", 1)[1]))
    docs = {f"docs/{p.name}" for p in (ROOT / "docs").glob("*.md")}
    assert not docs - listed, f"README.md's Documents table does not list {sorted(docs - listed)}"


LINK = re.compile(r"\]\(([^)]+)\)")


@pytest.mark.parametrize(
    "doc", ["README.md", *sorted(f"docs/{p.name}" for p in (ROOT / "docs").glob("*.md"))]
)
def test_readme_and_docs_link_only_inside_the_repository(doc):
    text = (ROOT / doc).read_text(encoding="utf-8")
    assert "../shared" not in text and "shared/spec" not in text
    for target in LINK.findall(text):
        assert "://" not in target, f"{doc} links out: {target}"
        path = (ROOT / doc).parent / target.split("#", 1)[0]
        assert path.resolve().is_relative_to(ROOT) and path.exists(), f"{doc}: broken link {target}"
