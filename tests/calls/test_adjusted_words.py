"""An adjusted result in the words a director and a visitor read: the withdraw button says 撤销 (not the pair's
退赛), the standings mark an adjusted pair with a badge, never its HTML as text."""

from __future__ import annotations

import pytest
from django.urls import reverse

from referee.table import adjusting
from tournaments.models import Adjustment

pytestmark = pytest.mark.django_db


def test_the_adjustments_withdraw_reads_revoke_not_withdraw_from_the_tournament(client, match, director):
    adjusting.award(match, director, kind="both_lose", reason="双方缺席")
    client.force_login(director)
    url = reverse("desk-adjust", args=[match.round.tournament.slug, match.pk])
    page = client.get(url).content.decode()
    assert ">撤销</button>" in page and "退赛" not in page
    client.post(
        reverse("desk-adjustment-withdraw", args=[match.round.tournament.slug, Adjustment.objects.get().pk])
    )
    page = client.get(url).content.decode()
    assert "已撤销" in page and "退赛" not in page


def test_the_public_standings_mark_an_adjusted_pair_with_a_badge_not_its_html(client, match, director):
    adjusting.award(match, director, kind="both_lose", reason="双方缺席")
    page = client.get(reverse("standings", args=[match.round.tournament.slug])).content.decode()
    assert '<span class="badge warn">调整结果</span>' in page and "&lt;span" not in page
