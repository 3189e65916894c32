"""Issue 21, item 7, as the two judges walk it, in Chinese and in English: a submitted deal is frozen, the table's
judge reopens it with a reason, adds a penalty and submits it again, the match page marks the deal, and the second
judge sees what changed before confirming. The review page is server-drawn forms with no script of its own, so
Django's client walks it as a browser would (it was a browser test at phone size; the review page on a phone is
walked in the browser by test_table_last_mile and test_table_done)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from referee.table.recording import deal_entry
from rules.simulate import simulate_deal
from tests.table.helpers import as_user, key, play_through_service
from tournaments.models import Deal
from tournaments.setup.demo import create_demo

pytestmark = pytest.mark.django_db

WORDS = {
    "zh-hans": {
        "reopen": "重新打开以修改",
        "add": "添加罚则",
        "frozen": "本局已提交并冻结",
        "result": "结果：换庄（抓分方",
        "after": "→ 庄家守住 +1",
        "added": "新增罚则：东",
        "mark": "重新打开后再次提交",
        "reason": "东家第3墩跟错",
    },
    "en": {
        "reopen": "Reopen to change it",
        "add": "Add penalty",
        "frozen": "The deal is submitted and frozen",
        "result": "Result: takeover (attackers",
        "after": "→ banker holds +1",
        "added": "Penalty added: East",
        "mark": "reopened and submitted again",
        "reason": "East revoked in trick 3",
    },
}


def submitted_deal() -> Deal:
    """Deal 1 of the demo's table 1 (judge1's; standard seed 11: the attackers take over, +0), every trick and the
    kitty entered, and submitted."""
    match = create_demo().tournament.rounds.get(number=1).matches.get(table=1)
    deal = deal_entry.start_deal(match, match.judge, trump="D", declarer="N")
    record = simulate_deal("standard", banker="N", level="2", seed=11)
    play_through_service(deal, match.judge, record)
    deal.refresh_from_db()
    deal_entry.set_kitty(deal, match.judge, record["kitty"], version=deal.version)
    deal.refresh_from_db()
    deal_entry.submit_deal(deal, match.judge, version=deal.version)
    deal.refresh_from_db()
    return deal


def judge_in(username: str, language: str):
    client = as_user(User.objects.get(username=username))
    client.cookies["django_language"] = language
    return client


def post(client, name: str, deal: Deal, **fields):
    """A form of the review page sent as its button sends it: the deal's version and a fresh write key."""
    deal.refresh_from_db()
    return client.post(
        reverse(name, args=[deal.pk]), {"version": deal.version, "idempotency_key": key(), **fields}
    )


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_a_change_after_submit_reopens_the_deal_and_the_confirmer_sees_the_difference(language):
    words = WORDS[language]
    deal = submitted_deal()
    review = reverse("review", args=[deal.pk])
    judge = judge_in("judge1", language)

    page = judge.get(review).content.decode()
    form = page.split('class="entry-row reopen-form"', 1)[1].split("</form>", 1)[0]
    assert words["frozen"] in form and words["reopen"] in form, (
        "the frozen deal offers a reopen with a reason"
    )
    assert "penalty-form" not in page, "no change offered on a frozen deal"

    answer = post(judge, "deal-reopen", deal, next="review", reason=words["reason"])
    assert answer.status_code == 302 and answer["Location"].startswith(review), answer
    page = judge.get(review).content.decode()
    assert "penalty-form" in page and words["add"] in page, "the reopened deal takes a penalty"

    answer = post(judge, "deal-penalty", deal, next="review", seat="E", code="revoke", trick="3")
    assert answer.status_code == 302, answer
    page = judge.get(review).content.decode()
    assert page.count('data-testid="penalty-effect"') == 1, "the penalty is on the review"
    changes = page.split('data-testid="changes"', 1)[1]
    assert words["added"] in changes, "the judge sees the change too"

    answer = post(judge, "deal-submit", deal)
    assert answer.status_code == 302 and answer["Location"].endswith(f"{review}#pin"), answer
    match = judge.get(reverse("match", args=[deal.match_id])).content.decode()
    row = match.split('data-deal="1"', 1)[1].split("</tr>", 1)[0]
    mark = row.split('data-testid="reopened"', 1)[1].split("</", 1)[0]
    assert words["mark"] in mark, "the match page marks the deal reopened and submitted again"

    confirmer = judge_in("judge2", language)
    changes = confirmer.get(review).content.decode().split('data-testid="changes"', 1)[1]
    for said in ("result", "after", "added", "reason"):
        assert words[said] in changes, f"the confirmer reads the {said}"
    answer = post(confirmer, "deal-confirm", deal)
    assert answer.status_code == 302 and answer["Location"] == reverse("match", args=[deal.match_id])
    deal.refresh_from_db()
    assert deal.state == Deal.State.CONFIRMED and deal.verdict["result"]["outcome"] == "banker_holds"
