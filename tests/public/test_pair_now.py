"""A pair's page answers first where the pair sits now (round, table, side, opponents) and how it is doing."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.desk.helpers import play
from tournaments.models import Bye, Match, Round


def top(t, pair) -> str:
    html = Client().get(reverse("pair", args=[t.slug, pair.pk])).content.decode()
    section = re.search(r'<section class="pair-now".*?</section>', html, re.S)
    assert section, "the pair's page begins with where it sits"
    return re.sub(r"\s+", " ", section.group(0))


@pytest.fixture
def second_round(tournament, make_pair):
    """Round 1 finished (A beat B, C beat D); round 2 published: table 3, D (N–S) against A (E–W); B has a bye."""
    a, b, c, d = (make_pair(x) for x in "ABCD")
    r1 = Round.objects.create(tournament=tournament, number=1, state=Round.State.FINISHED)
    play(r1, 1, a, b, a)
    play(r1, 2, c, d, c)
    r2 = Round.objects.create(tournament=tournament, number=2, state=Round.State.PUBLISHED)
    Match.objects.create(round=r2, table=3, pair_ns=d, pair_ew=a)
    Bye.objects.create(round=r2, pair=b)
    return tournament, (a, b, c, d)


@pytest.mark.django_db
def test_a_pairs_page_says_first_its_table_side_opponents_and_record(second_round):
    t, (a, _b, _c, d) = second_round
    text = top(t, a)
    assert "第2轮" in text and "第3桌" in text and "东西方" in text and "对手 D" in text
    assert "第 1 名" in text and "1 胜 0 平 0 负" in text
    assert "南北方" in top(t, d) and "对手 A" in top(t, d)


@pytest.mark.django_db
def test_a_pair_with_a_bye_is_told_so_and_before_any_round_the_page_says_none_is_published(
    second_round, tournament, make_pair
):
    t, (_a, b, _c, _d) = second_round
    assert "本轮轮空" in top(t, b)
    late = make_pair("E")
    assert "没有安排座位" in top(t, late)
    t.rounds.all().delete()
    assert "还没有发布任何一轮" in top(t, late)


@pytest.mark.django_db
def test_a_draft_round_is_not_where_a_pair_sits_yet(second_round):
    t, (a, _b, c, _d) = second_round
    r3 = Round.objects.create(tournament=t, number=3, state=Round.State.DRAFT)
    Match.objects.create(round=r3, table=1, pair_ns=a, pair_ew=c)
    assert "第2轮" in top(t, a) and "第3轮" not in top(t, a)
