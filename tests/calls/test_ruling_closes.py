"""Issue 38 item 1: a ruling that ends a match (assigned levels, both sides losing, a forfeit) closes its table: no
deal starts or is recorded after it, and the match page, ``match_state`` and the match's stored result all tell
the ruling, not the played fold."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from referee.table.recording import deal_entry, records
from tests.table.helpers import confirmed_deal, record_play, simulated, simulated_first
from tournaments.adjusted import awarding as adjusting
from tournaments.models import Deal, Match
from tournaments.scoring.errors import RecordingError
from tournaments.scoring.fold import forfeit_match, match_summary

pytestmark = pytest.mark.django_db


def rule(match, director, kind: str, **extra) -> Match:
    adjusting.award(match, director, kind=kind, reason="裁判长判定", **extra)
    return Match.objects.get(pk=match.pk)


def test_after_assigned_levels_no_new_deal_starts_and_the_match_state_is_the_ruling(match, director, judge):
    confirmed_deal(match, director)  # in progress, at the played levels
    m = rule(match, director, "levels", level_ns="6", level_ew="5")
    with pytest.raises(RecordingError):
        deal_entry.start_deal(m, judge, trump="S")
    assert not Deal.objects.filter(match=match, number=2).exists()
    summary = match_summary(m)
    assert (summary["levels"], summary["winner"], summary["ended_by"]) == (
        {"NS": "6", "EW": "5"},
        "NS",
        "adjusted",
    )
    assert (summary["levels"]["NS"], summary["levels"]["EW"]) == (m.level_ns, m.level_ew)


def test_after_a_ruling_a_whole_deal_is_not_recorded(match, director):
    rule(match, director, "both_lose")
    with pytest.raises(RecordingError):
        records.record_deal(match, simulated_first(match), director)
    assert not match.deals.exists()


def test_a_deal_open_when_the_director_assigns_levels_takes_no_more_plays(match, director, judge):
    deal = deal_entry.start_deal(match, judge, trump="S", declarer="N")
    seat, cards = simulated(deal)["tricks"][0]["plays"][0]
    rule(match, director, "levels", level_ns="3", level_ew="2")
    deal = Deal.objects.get(pk=deal.pk)
    with pytest.raises(RecordingError):
        record_play(deal, judge, cards=cards, seat=seat, version=deal.version)
    assert not Deal.objects.get(pk=deal.pk).tricks.exists()


@pytest.mark.parametrize("how", ["awarded", "recorded at the table"])
def test_a_deal_open_when_a_forfeit_comes_takes_no_more_plays_until_the_forfeit_is_withdrawn(
    match, director, judge, how
):
    deal = deal_entry.start_deal(match, judge, trump="S", declarer="N")
    seat, cards = simulated(deal)["tricks"][0]["plays"][0]
    if how == "awarded":
        forfeit = adjusting.award(match, director, kind="forfeit", side="NS", reason="东西方未到")
    else:
        forfeit_match(Match.objects.get(pk=match.pk), director, side="EW")
    deal = Deal.objects.get(pk=deal.pk)
    with pytest.raises(RecordingError):
        record_play(deal, judge, cards=cards, seat=seat, version=deal.version)
    assert not Deal.objects.get(pk=deal.pk).tricks.exists()
    if how == "awarded":
        adjusting.withdraw(forfeit, director)
        deal = Deal.objects.get(pk=deal.pk)
        record_play(deal, judge, cards=cards, seat=seat, version=deal.version)
        assert Deal.objects.get(pk=deal.pk).tricks.exists()


def test_the_public_match_page_shows_the_ruling_and_offers_no_new_deal(match, director, judge):
    confirmed_deal(match, director)
    m = rule(match, director, "levels", level_ns="6", level_ew="5")
    m.round.tournament.public_results = True
    m.round.tournament.save()
    visitor = Client()
    visitor.cookies["django_language"] = "en"
    page = visitor.get(reverse("match", args=[m.pk])).content.decode()
    assert "adjusted by the director" in page and 'data-testid="level-NS">6<' in page
    judge_client = Client()
    judge_client.force_login(judge)
    judge_page = judge_client.get(reverse("match", args=[m.pk])).content.decode()
    assert reverse("new_deal", args=[m.pk]) not in judge_page
