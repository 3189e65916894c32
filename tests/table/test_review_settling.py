"""A fault settled on the review page before the deal is submitted, in Chinese, as the table's judge walks it: an
open violation keeps the submit button off, its penalty applied from two tabs showing the same page (both press
the button) is recorded once, and the review explains how the penalty changed the result. The review page is
server-drawn forms with no script, so Django's client walks it (this was a browser test on a tablet; the same
steps in English and by the service are tests/table/test_settling.py's)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from referee.table.recording import deal_entry
from tests.table.helpers import flipping_revoke, key, play_through_service
from tournaments.models import Deal, Penalty
from tournaments.setup.demo import create_demo

pytestmark = pytest.mark.django_db


def revoked_deal() -> tuple[Deal, str]:
    """Table 1's first deal played through with one revoke (proven during entry) whose penalty changes the
    result, and its kitty: ready for review."""
    match = create_demo().tournament.rounds.get(number=1).matches.get(table=1)
    record, seat, trick = flipping_revoke(match.round.tournament.ruleset, banker="N", level="2", trump="S")
    deal = deal_entry.start_deal(match, match.judge, trump="S", declarer="N")
    play_through_service(deal, match.judge, record)
    deal.refresh_from_db()
    deal_entry.set_kitty(deal, match.judge, record["kitty"], version=deal.version)
    return deal, f"{trick}:{seat}:revoke_suit"


def row_of(page: str, violation: str) -> str:
    found = re.search(rf'<li[^>]*data-violation="{re.escape(violation)}".*?</li>', page, re.S)
    assert found, f"no row for {violation}"
    return found.group(0)


def test_an_open_violation_blocks_submit_a_penalty_applied_twice_counts_once_and_the_flip_is_explained():
    deal, violation = revoked_deal()
    judge = Client()
    judge.cookies["django_language"] = "zh-hans"
    judge.force_login(User.objects.get(username="judge1"))
    review = reverse("review", args=[deal.pk])
    page = judge.get(review).content.decode()
    assert "1 项违例未处理" in page.split('data-testid="open-violations"', 1)[1].split("</", 1)[0]
    assert re.search(r'class="primary"\s+disabled>提交本局', page), "submit is off while a violation is open"
    row = row_of(page, violation)
    assert "未处理" in row and "本局判负" in row and "按本规则执行罚则" in row

    # Two tabs show this page: each sends its apply form, the same version, its own write key.
    fields = {"version": deal.version, "next": "review", "violation": violation}
    for _tab in range(2):
        answer = judge.post(reverse("deal-apply", args=[deal.pk]), fields | {"idempotency_key": key()})
        assert answer.status_code == 302 and answer["Location"].startswith(review), answer
        assert "status-penalty" in row_of(judge.get(review).content.decode(), violation)
    assert Penalty.objects.filter(deal=deal).count() == 1

    page = judge.get(review).content.decode()
    why = page.split('data-testid="why"', 1)[1].split("</p>", 1)[0]
    assert "跟错：按本规则本局判" in why
    assert "本局判负" in page.split('data-testid="penalty-effect"', 1)[1].split("</", 1)[0]
    assert 'data-testid="open-violations"' not in page
    deal.refresh_from_db()
    answer = judge.post(
        reverse("deal-submit", args=[deal.pk]), {"version": deal.version, "idempotency_key": key()}
    )
    assert answer.status_code == 302
    deal.refresh_from_db()
    assert deal.state == Deal.State.SUBMITTED
