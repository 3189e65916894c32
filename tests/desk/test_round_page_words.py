"""The round page's bye points and its way back to draft, in Chinese, as the director reads them on the desk (the
same forms' English words and what they change are tests/desk/test_pages.py's)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tournaments.checkin.forfeits import publish_round
from tournaments.models import Round
from tournaments.pairing.services import pair_round

pytestmark = pytest.mark.django_db


def test_a_byes_points_and_a_round_taken_back_to_draft_are_said_in_chinese(
    client, director, tournament, make_pair
):
    for _ in range(5):
        make_pair()
    rnd = pair_round(tournament)
    publish_round(rnd)
    bye = rnd.byes.select_related("pair").get()
    client.force_login(director)
    client.cookies["django_language"] = "zh-hans"
    page = client.get(reverse("desk-round", args=[tournament.slug, 1])).content.decode()
    assert "轮空的比赛积分" in page and "退回草稿" in page
    saved = client.post(
        reverse("desk-bye-points", args=[tournament.slug, 1, bye.pk]), {"points": "1"}, follow=True
    )
    assert f"{bye.pair.name} 的轮空计 1 个比赛积分。" in saved.content.decode()
    back = client.post(
        reverse("desk-unpublish-round", args=[tournament.slug, 1]), follow=True
    ).content.decode()
    assert "第 1 轮已退回草稿：修改后再发布。" in back and "发布本轮" in back
    assert tournament.rounds.get(number=1).state == Round.State.DRAFT
