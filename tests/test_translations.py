"""Every interface string goes through gettext with an English msgid, and the zh-hans catalogue is complete."""

from __future__ import annotations

import re
from pathlib import Path

import polib
import pytest

ROOT = Path(__file__).resolve().parent.parent
CATALOGUE = ROOT / "locale" / "zh_Hans" / "LC_MESSAGES" / "django.po"
CJK = re.compile(r"[\u4e00-\u9fff]")


def source_files():
    for folder in ("templates", "tournaments", "referee", "tools"):
        for path in sorted((ROOT / folder).rglob("*")):
            rel = path.relative_to(ROOT).as_posix()
            if path.suffix in {".html", ".py"} and "migrations" not in rel:
                yield path


def strip_python_docs(text: str) -> str:
    text = re.sub(r'"""[\s\S]*?"""', "", text)
    return "\n".join(line.split("#", 1)[0] for line in text.splitlines())


def test_no_untranslatable_chinese_in_interface_code():
    offenders = []
    for path in source_files():
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".py":
            text = strip_python_docs(text)
        for number, line in enumerate(text.splitlines(), start=1):
            if CJK.search(line):
                offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not offenders, "Chinese text outside the catalogue:\n" + "\n".join(offenders)


@pytest.fixture(scope="module")
def catalogue():
    return polib.pofile(str(CATALOGUE))


def test_catalogue_is_complete(catalogue):
    untranslated = [e.msgid for e in catalogue.untranslated_entries()]
    fuzzy = [e.msgid for e in catalogue.fuzzy_entries()]
    assert not untranslated, f"untranslated: {untranslated}"
    assert not fuzzy, f"fuzzy: {fuzzy}"
    assert len(catalogue.translated_entries()) > 50


def test_translations_keep_their_placeholders(catalogue):
    placeholder = re.compile(r"%\(\w+\)[sd]|\{\w*\}")
    for entry in catalogue.translated_entries():
        strings = [entry.msgstr] if not entry.msgid_plural else list(entry.msgstr_plural.values())
        for msgstr in strings:
            assert sorted(placeholder.findall(entry.msgid)) == sorted(placeholder.findall(msgstr)), (
                entry.msgid
            )
