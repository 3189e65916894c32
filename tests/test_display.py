"""One wording of results: a deal's outcome, a match's result, the kitty bonus (pages, screens, workbook)."""

from __future__ import annotations

import pytest
from django.template import Context, Template
from django.utils import translation

from tournaments.competition.display import deal_outcome, kitty_bonus, match_result, match_status
from tournaments.models import Deal, Match


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.mark.parametrize(
    "result, words",
    [
        ({"outcome": "banker_holds", "levels": 2, "next_banker": "S"}, "banker holds +2"),
        ({"outcome": "banker_holds", "levels": 0, "next_banker": "S"}, "banker holds"),
        ({"outcome": "takeover", "levels": 1, "next_banker": "E"}, "takeover +1"),
        ({"outcome": "takeover", "levels": 0, "next_banker": "E"}, "takeover"),
        ({"outcome": "match_won", "levels": 1, "next_banker": None}, "match won"),
        ({"outcome": "banker_holds", "levels": 0, "next_banker": None}, "void deal: the bank is contested"),
        (None, ""),
    ],
)
def test_deal_outcome(result, words):
    assert deal_outcome(result) == words
    assert Deal(verdict={"result": result} if result else None).outcome_label == words


def test_deal_outcome_in_chinese():
    with translation.override("zh-hans"):
        assert deal_outcome({"outcome": "takeover", "levels": 2, "next_banker": "E"}) != "takeover +2"


def test_match_result_and_status(match):
    assert match_result("东风队") == "东风队 won"
    assert match_result(None) == "draw"
    assert match_status(match) == "not started"
    match.state, match.winner = Match.State.FINISHED, match.pair_ew
    assert match_status(match) == f"{match.pair_ew.name} won"
    match.winner = None
    assert match_status(match) == "draw"


def test_kitty_bonus_is_worded_as_its_sum():
    assert kitty_bonus({"kitty": 15, "multiplier": 2, "kitty_bonus": 30}) == "15 × 2 = 30"
    assert kitty_bonus({"kitty": 15, "multiplier": 0, "kitty_bonus": 0}) == "0"
    assert kitty_bonus(None) == ""


def test_template_filters_say_the_same():
    html = Template(
        "{% load wording %}{{ r|deal_outcome }}|{{ ap|kitty_bonus }}|{{ w|match_result }}"
    ).render(
        Context(
            {
                "r": {"outcome": "takeover", "levels": 1, "next_banker": "E"},
                "ap": {"kitty": 5, "multiplier": 4, "kitty_bonus": 20},
                "w": None,
            }
        )
    )
    assert html == "takeover +1|5 × 4 = 20|draw"
