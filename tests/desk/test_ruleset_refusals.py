"""The engine's ruleset refusals carry a code; the site words every code from its catalogue in both languages and
never reads the engine's English (issue 28 item 4)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.utils import translation

from rules.messages import RULESET_CODES, ruleset_message
from rules.ruleset import Ruleset, RulesetError
from tournaments.competition.refusals import REFUSALS, ruleset_problem, ruleset_refusal

ROOT = Path(__file__).resolve().parents[2]
CJK = re.compile(r"[\u4e00-\u9fff]")
RAISED = re.compile(r'RulesetError\(\s*"(\w+)"')
# every value a wording may ask for, so each template can be filled
VALUES = {
    "key": "decks",
    "max": 99_999,
    "decks": 5,
    "kitty": 7,
    "left": 101,
    "kind": "3x1",
    "n": "3",
    "level": "Z",
    "ladder": "2-3-4",
    "target": "2",
    "start": "3",
    "value": "x",
    "item": "qq",
    "line": "a",
    "field": "zz",
    "preset": "poker",
    "known": "standard",
    "type": "int",
}


def raised_codes() -> set[str]:
    """The codes the engine's source raises, read from every ``RulesetError("code", …)`` in ``rules/``."""
    return {
        code for path in (ROOT / "rules").glob("*.py") for code in RAISED.findall(path.read_text("utf-8"))
    }


def test_every_code_the_engine_raises_is_in_both_catalogues():
    raised = raised_codes()
    assert len(raised) > 30
    assert raised == set(RULESET_CODES)
    assert set(REFUSALS) == set(RULESET_CODES)


@pytest.mark.parametrize("code", RULESET_CODES)
def test_the_engines_own_wording_of_each_code_is_english_and_chinese(code):
    en, zh = ruleset_message(code, setting="decks", **VALUES)
    assert en.isascii() or "≥" in en or "→" in en
    assert CJK.search(zh) and not CJK.search(en)


@pytest.mark.parametrize("code", RULESET_CODES)
def test_the_site_words_each_code_as_one_sentence_in_english_and_chinese(code):
    error = RulesetError(code, "decks", **VALUES)
    with translation.override("en"):
        setting, en = ruleset_problem(error)
    with translation.override("zh-hans"):
        _setting, zh = ruleset_problem(error)
    assert setting == "decks"
    assert en.endswith(".") and en.count(". ") == 0 and not CJK.search(en)
    assert CJK.search(zh) and zh.endswith("。")
    if code != "not_a_ruleset":  # a ruleset that is neither a name nor settings: the general sentence fits
        assert en != "The rules engine does not accept this value."


def test_a_value_that_reads_like_another_refusal_is_worded_by_its_code():
    """The old reader matched the English: a text value saying "must be positive" read as that refusal."""
    with pytest.raises(RulesetError) as err:
        Ruleset.from_spec({"preset": "standard", "decks": "must be positive"})
    assert (err.value.code, err.value.setting) == ("not_integer", "decks")
    with translation.override("en"):
        assert ruleset_problem(err.value) == ("decks", "Enter a whole number.")


def test_the_admins_refusal_names_the_setting_in_the_active_language():
    with pytest.raises(RulesetError) as err:
        Ruleset.from_spec({"preset": "standard", "decks": 9})
    with translation.override("en"):
        assert ruleset_refusal(err.value).endswith("Play with one to four decks.")
    with translation.override("zh-hans"):
        zh = ruleset_refusal(err.value)
    assert CJK.search(zh) and not re.search(r"[A-Za-z]{3}", zh)
