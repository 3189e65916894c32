"""Faults shown the moment they are proven on the trick-entry page (its script draws them), on a tablet (820 px,
in Chinese) and a phone (390 px, in English): a revoke proven two tricks later and settled there, a proven fault
undone, a play out of turn recorded, and who may challenge a throw. Screenshots of each step are saved (with
SCREENSHOTS=1). The review page's part (a deal that cannot be submitted with an open violation, a penalty
applied from two tabs recorded once, the result changed by it explained) is server-drawn forms, walked by
Django's client (tests/table/test_review_settling.py, in Chinese; tests/table/test_settling.py, in English)."""

from __future__ import annotations

import pytest

from referee.table.recording import deal_entry
from tests.browser.helpers import expect, sign_in, wait_for_version
from tests.table.helpers import record_play
from tournaments.models import Deal, Penalty
from tournaments.setup.demo import create_demo

pytestmark = pytest.mark.django_db(transaction=True)
TABLET = {"width": 820, "height": 1180}
PHONE = {"width": 390, "height": 844}
# Trump hearts, N banks. Trick 1: W shows out of spades; trick 2 E leads and wins; trick 3: W plays a spade.
BEFORE_PROOF = ["S3", "C4", "S5", "S6", "DA", "D3", "D4", "D5", "S7", "S8"]
REVOKE = "0:W:revoke_suit"


def table_one():
    demo = create_demo()
    return demo.tournament.rounds.get(number=1).matches.get(table=1)  # judge1's table, no deal yet


def deal_before_the_proof(match) -> Deal:
    deal = deal_entry.start_deal(match, match.judge, trump="H", declarer="N")
    for version, cards in enumerate(BEFORE_PROOF):
        record_play(deal, match.judge, cards=cards, version=version)
    return deal


def open_entry(page, live_server, deal, size) -> None:
    page.set_viewport_size(size)
    sign_in(page, live_server.url, "judge1")
    page.goto_path(f"/deal/{deal.pk}/")
    page.wait_for_selector("#deal-app")


def test_a_revoke_proven_two_tricks_later_is_shown_at_that_moment(page, live_server, screenshot):
    match = table_one()
    deal = deal_before_the_proof(match)
    west = match.pair_ew.player2.name
    open_entry(page, live_server, deal, TABLET)
    expect(page.locator("[data-bind=violations-title]")).to_have_text("没有待处理的违例。")
    page.fill("#cards-input", "S9")
    page.press("#cards-input", "Enter")
    wait_for_version(page, len(BEFORE_PROOF) + 1)

    row = page.locator(f"#violations-box li[data-violation='{REVOKE}']")
    assert "new" in row.get_attribute("class")
    text = row.inner_text()
    assert "第 1 墩" in text and f"西 {west}" in text and "跟错" in text
    assert "本局判负：庄家方守住，升 1 级" in text
    expect(page.locator("#message")).to_contain_text("这一手证明了一项违例")
    expect(page.locator("[data-bind=violations-title]")).to_have_text("待处理的违例：1 项")
    screenshot(page, "1-proven")

    row.get_by_role("button", name="确认照实录入").click()
    wait_for_version(page, len(BEFORE_PROOF) + 2)
    assert "new" not in row.get_attribute("class")
    expect(row).to_contain_text("已确认照实录入")
    row.get_by_role("button", name="执行罚则").click()
    wait_for_version(page, len(BEFORE_PROOF) + 3)
    expect(row).to_contain_text("已执行罚则")
    expect(page.locator("[data-bind=violations-title]")).to_have_text("没有待处理的违例。")
    assert Penalty.objects.get(deal=deal).violation == REVOKE
    screenshot(page, "2-settled")


def test_on_a_phone_in_english_a_proven_fault_is_undone_and_a_play_out_of_turn_recorded(
    page, live_server, screenshot
):
    match = table_one()
    deal = deal_entry.start_deal(match, match.judge, trump="H", declarer="N")
    page.context.add_cookies([{"name": "django_language", "value": "en", "url": live_server.url}])
    open_entry(page, live_server, deal, PHONE)

    # N leads: any other player may challenge a throw (RULES §5), the two opponents first, then the partner.
    page.locator("#throw-box summary").click()
    options = page.locator("select[name=throw_challenger] option")
    assert [options.nth(i).get_attribute("value") for i in range(options.count())] == ["", "W", "E", "S"]
    page.locator("#throw-box summary").click()

    for version, cards in enumerate(BEFORE_PROOF, start=1):
        page.fill("#cards-input", cards)
        page.press("#cards-input", "Enter")
        wait_for_version(page, version)
    page.fill("#cards-input", "S9")
    page.press("#cards-input", "Enter")
    wait_for_version(page, len(BEFORE_PROOF) + 1)
    row = page.locator(f"#violations-box li[data-violation='{REVOKE}']")
    expect(row).to_contain_text("Trick 1")
    expect(row).to_contain_text("West")
    expect(row.locator(".badge")).to_have_text("open")  # the judge's language, not the server's default
    expect(row).to_contain_text("the deal is lost: the banker side holds and goes up 1 level")
    screenshot(page, "1-proven")
    row.get_by_role("button", name="Undo this play").click()
    wait_for_version(page, len(BEFORE_PROOF) + 2)
    expect(page.locator("[data-bind=violations-title]")).to_have_text("No open violations.")

    # W is due; S played before W, showing ♠K.
    page.locator("#out-of-turn-box summary").click()
    page.select_option("select[name=out_of_turn_seat]", "S")
    page.fill("input[name=out_of_turn_cards]", "SK")
    page.get_by_role("button", name="Record the play out of turn").click()
    wait_for_version(page, len(BEFORE_PROOF) + 3)
    row = page.locator("#violations-box li[data-violation='2:S:wrong_order']")
    expect(row).to_contain_text("played out of turn, showing ♠K")
    expect(row).to_contain_text("10 points to the attackers")
    penalty = Penalty.objects.get(deal=deal)
    assert (penalty.seat, penalty.code, penalty.trick) == ("S", "misplay", 2)
    screenshot(page, "2-out-of-turn")
