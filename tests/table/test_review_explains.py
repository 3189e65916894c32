"""The review explains the result (issue 21, item 8): every penalty and every failed throw named with its effect —
two revokes are two lines, and the failed throws keep theirs beside them — and one line when a must-play level
held a side back ("level 2 must be played"), in either language."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from referee.table.recording import deal_entry
from referee.table.screens.review import review_screen
from tests.table.helpers import as_user, play_through_service, quick_fields
from tournaments.models import Deal, Match, Round, Tournament
from tournaments.scoring import corrections

# Seed 8 of the club-competition preset (ladder 2 5 10 J Q K A, must-play 2 and A), banker North at 2, spades:
# the attackers take over with 200 points (+3), two failed throws (West, then South), no violation.
SEED = 8


@pytest.fixture
def club_match(make_pair, judge) -> Match:
    t = Tournament.objects.create(
        name="俱乐部赛", slug="club", ruleset={"preset": "club-competition"}, quick_entry_allowed=True
    )
    rnd = Round.objects.create(tournament=t, number=1, state=Round.State.PUBLISHED)
    return Match.objects.create(
        round=rnd, table=1, pair_ns=make_pair(t=t), pair_ew=make_pair(t=t), judge=judge
    )


@pytest.fixture
def played(club_match, judge) -> Deal:
    """Every trick of seed 8 entered and its kitty: the review before submitting."""
    from rules.simulate import simulate_deal

    deal = deal_entry.start_deal(club_match, judge, trump="S", declarer="N")
    record = simulate_deal("club-competition", banker="N", level="2", trump="S", seed=SEED)
    play_through_service(deal, judge, record)
    deal.refresh_from_db()
    deal_entry.set_kitty(deal, judge, record["kitty"], version=deal.version)
    deal.refresh_from_db()
    return deal


def with_two_revokes(deal: Deal, judge) -> Deal:
    for seat, trick in (("E", 2), ("W", 5)):
        deal.refresh_from_db()
        corrections.add_penalty(deal, judge, seat=seat, code="revoke", trick=trick, version=deal.version)
    deal.refresh_from_db()
    return deal


def test_a_must_play_level_that_holds_the_attackers_back_is_said_in_one_line(played, judge):
    with translation.override("en"):
        screen = review_screen(played, judge)
    assert screen["verdict"]["result"]["outcome"] == "takeover" and screen["verdict"]["result"]["levels"] == 3
    assert screen["verdict"]["result"]["levels_after"] == {"NS": "2", "EW": "2"}
    assert screen["level_stops"] == [
        "Level 2 must be played: East–West gained 3 levels but stay at 2 until they win a deal there as the "
        "banker side."
    ]
    with translation.override("zh-hans"):
        lines = review_screen(played, judge)["level_stops"]
    assert lines == ["级数 2 为必打级：东西方本局得 3 级，但须坐庄打过此级，仍停在 2。"]


def test_the_review_page_says_the_must_play_level_in_chinese_and_in_english(played, judge, english):
    page = as_user(judge).get(reverse("review", args=[played.pk])).content.decode()
    assert 'data-testid="level-stop"' in page and "级数 2 为必打级" in page
    english.force_login(judge)
    page = english.get(reverse("review", args=[played.pk])).content.decode()
    assert "Level 2 must be played: East–West gained 3 levels" in page


def test_failed_throws_are_named_with_their_effect_without_penalties(played, judge):
    with translation.override("en"):
        causes = review_screen(played, judge)["causes"]
    throws = [line for line in causes if "failed throw" in line]
    assert len(throws) == 2 and all("1 card taken back: " in line for line in throws)
    assert any(line.startswith("West") for line in throws) and any(
        line.startswith("South") for line in throws
    )


def test_two_revokes_and_the_failed_throws_are_each_named_with_their_effect(played, judge):
    deal = with_two_revokes(played, judge)
    with translation.override("en"):
        screen = review_screen(deal, judge)
    causes = screen["causes"]
    revokes = [line for line in causes if "revoke" in line]
    assert len(revokes) == 2
    assert revokes[0].startswith("East") and "in trick 3: the deal is lost" in revokes[0]
    assert revokes[1].startswith("West") and "in trick 6: the deal is lost" in revokes[1]
    throws = [line for line in causes if "failed throw" in line]
    assert len(throws) == 2 and all("points" in line for line in throws)  # still there beside the revokes
    assert "East" in screen["why"] and "West" in screen["why"]  # the deciding line names both revokes
    assert screen["verdict"]["result"]["outcome"] == "banker_holds"


def test_the_review_page_lists_every_cause_in_chinese(played, judge):
    deal = with_two_revokes(played, judge)
    page = as_user(judge).get(reverse("review", args=[deal.pk])).content.decode()
    assert 'data-testid="causes"' in page and "结果的由来" in page
    causes = page.split('data-testid="causes"')[1].split("</ul>")[0]
    assert causes.count("<li>") == 4
    assert "第3墩跟错：本局判负" in causes and "第6墩跟错：本局判负" in causes
    assert causes.count("甩牌失败，收回") == 2


def test_a_quick_deal_says_its_must_play_level_too(club_match, judge):
    from referee.table.recording.quick import quick_entry

    deal = quick_entry(
        club_match,
        judge,
        trump="S",
        points=200,
        kitty_points=0,
        last_lead="single",
        attackers_won_last=True,
        declarer="N",
        next_deal=quick_fields(club_match)["next_deal"],
    )
    with translation.override("en"):
        screen = review_screen(deal, judge)
    assert screen["verdict"]["result"]["levels_after"] == {"NS": "2", "EW": "2"}
    assert screen["level_stops"][0].startswith("Level 2 must be played: East–West gained")
