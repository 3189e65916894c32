"""An adjusted result in the words a director and a visitor read: the withdraw button says 撤销 (not the pair's
退赛), the standings mark an adjusted pair with a badge, never its HTML as text."""

from __future__ import annotations

import io

import openpyxl
import pytest
from django.urls import reverse

from tests.table.helpers import confirmed_deal
from tournaments.adjusted import awarding as adjusting
from tournaments.models import Adjustment, Match

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


def test_a_voided_deal_is_marked_on_the_round_and_results_pages_and_in_the_deals_sheet(
    client, match, director
):
    deal = confirmed_deal(match, director)
    adjusting.award(match, director, kind="void_deal", reason="发错牌", deal_number=deal.number)
    Match.objects.filter(pk=match.pk).update(state=Match.State.FINISHED)
    t = match.round.tournament
    mark = f"第 {deal.number} 副作废"
    assert mark in client.get(reverse("round", args=[t.slug, match.round.number])).content.decode()
    assert mark in client.get(reverse("results", args=[t.slug])).content.decode()
    client.force_login(director)
    book = openpyxl.load_workbook(io.BytesIO(client.get(reverse("desk-export", args=[t.slug])).content))
    deals = next(ws for ws in book.worksheets if ws.title == "牌局")
    results = [row[11] for row in deals.iter_rows(min_row=2, values_only=True)]
    assert results and all("作废" in r for r in results)
