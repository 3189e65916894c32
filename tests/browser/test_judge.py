"""A judge records a whole deal — the first lead by the picker, the rest of two tricks by keyboard, the other
tricks through the recording service (as another device of the table would send them; the page, reloaded, shows
them all) — is refused an illegal follow in Chinese, fills in the kitty, submits; a second account confirms; the
match page shows the new levels. Screenshots of each page are saved (SCREENSHOTS=1)."""

from __future__ import annotations

import pytest

from rules.judge import judge as engine_judge
from rules.simulate import simulate_deal
from tests.browser.helpers import (
    confirm_as_second_judge,
    expect,
    login,
    submit_then_open_the_match,
    wait_for_version,
)
from tests.table.helpers import play_through_service
from tournaments.setup.demo import create_demo

pytestmark = pytest.mark.django_db(transaction=True)


def plain_record():
    """A simulated first deal (banker N, level 2, spades) without challenged throws, whose first lead is one card."""
    for seed in range(200):
        record = simulate_deal("standard", banker="N", level="2", trump="S", seed=seed)
        tricks = record["tricks"]
        if not any("throw" in t for t in tricks) and len(tricks[0]["plays"][0][1].split()) == 1:
            return record
    raise AssertionError("no plain simulated deal in 200 seeds")


def test_judge_records_a_whole_deal_and_another_confirms(page, screenshot):
    demo = create_demo()
    match = demo.tournament.rounds.get(number=1).matches.get(table=1)  # judge1's table, no deal yet
    record = plain_record()

    login(page, "judge1", "demo-judge1-2026")
    page.goto_path(f"/match/{match.pk}/")
    screenshot(page, "1-match")
    page.get_by_role("link", name="新的一局").click()
    page.locator("input[name=declarer][value=N]").check()
    page.locator("label.trump-S").click()
    screenshot(page, "2-new-deal")
    page.get_by_role("button", name="开始本局").click()
    page.wait_for_selector("#deal-app")

    version = 0
    # The lead of trick 1 by tapping the picker.
    lead_cards = record["tricks"][0]["plays"][0][1].split()
    for code in lead_cards:
        page.locator(f"button.pick[data-code='{code}']:not(.selected)").first.click()
    expect(page.locator("#cards-input")).to_have_value(" ".join(lead_cards))
    screenshot(page, "3-picker")
    page.get_by_role("button", name="录入").click()
    version += 1
    wait_for_version(page, version)

    # An illegal follow: two cards to a one-card lead is refused with the Chinese reason; the typing stays.
    follower_cards = record["tricks"][0]["plays"][1][1]
    wrong = f"{follower_cards} {follower_cards}"
    page.fill("#cards-input", wrong)
    page.press("#cards-input", "Enter")
    message = page.locator("#message")
    message.wait_for(state="visible")
    expect(message).to_contain_text("首家出的是 1 张")
    expect(page.locator("#cards-input")).to_have_value(wrong)
    screenshot(page, "4-refused")

    # The rest of two tricks by keyboard, then the other tricks through the service.
    typed = 2
    first = True
    for trick in record["tricks"][:typed]:
        for _seat, cards in trick["plays"]:
            if first:
                first = False
                continue
            page.fill("#cards-input", cards)
            page.press("#cards-input", "Enter")
            version += 1
            wait_for_version(page, version)
    deal = match.deals.get(number=1)
    play_through_service(deal, match.judge, {"tricks": record["tricks"][typed:]})
    page.reload()
    version = sum(len(trick["plays"]) for trick in record["tricks"])
    wait_for_version(page, version)
    expect(page.locator("[data-bind=turn]")).to_contain_text("所有墩已出完")
    page.fill("#kitty-form input[name=kitty]", record["kitty"])
    page.click("#kitty-form button[type=submit]")
    version += 1
    wait_for_version(page, version)
    screenshot(page, "5-all-tricks")

    page.locator("#review-link").click()
    expected = engine_judge({**record, "levels": {"NS": "2", "EW": "2"}}).as_dict()
    expect(page.get_by_test_id("total")).to_have_text(str(expected["attackers_points"]["total"]))
    screenshot(page, "6-review")
    submit_then_open_the_match(page, "提交本局", deal.pk, match.pk)
    expect(page.locator("tr[data-deal='1'] .badge")).to_have_text("已提交")
    screenshot(page, "7-submitted")

    # A second account confirms.
    confirm_as_second_judge(page, match.pk, expected["result"]["levels_after"])
    screenshot(page, "8-confirmed")
