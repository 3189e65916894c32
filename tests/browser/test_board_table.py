"""A duplicate board at the table on a phone (390×844, Chinese): the judge opens the table's current board, ticks
the check, starts it, taps the banker's buried cards, leads a single by one tap, sees a card the seat does not
hold refused (typed: the picker offers only the seat's own cards) naming the card and the seat, and sees a revoke
flagged at the play that commits it; the other tricks are recorded through the service, and the page ends with
every trick in."""

from __future__ import annotations

import pytest

from rules.boards import deal_board
from rules.cards import CARD_TEXT, parse_cards
from rules.messages import SEAT_ZH, show
from rules.simulate import simulate_from_hands
from tests.browser import shots
from tests.browser.helpers import expect, login, wait_for_version
from tests.browser.journal_steps import new_page
from tests.table.board_scene import PASSWORD, SEED, build_board_scene
from tests.table.helpers import record_play, with_a_revoke
from tournaments.models import Deal

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 390, "height": 844}
SHOTS = shots.folder("boardtable")


def revoking_record(banker: str, level: str, trump: str) -> tuple[dict, str, int]:
    """A legal play of board 1 with one follower's revoke at a trick led by a single (after the first)."""
    board = deal_board(SEED, 1)
    for seed in range(60):
        record = simulate_from_hands(
            "standard", board.hands, board.kitty, banker=banker, level=level, trump=trump, seed=seed
        )
        found = with_a_revoke(record)
        if found and found[2] >= 1 and len(found[0]["tricks"][found[2]]["plays"][0][1].split()) == 1:
            return found
    raise AssertionError("no revoke after a single lead in 60 plays of board 1")


def play_through(deal: Deal, user, plays) -> None:
    for seat, cards in plays:
        deal.refresh_from_db()
        record_play(deal, user, cards=cards, seat=seat, version=deal.version)


def test_a_judge_plays_a_board_with_a_one_tap_single_a_card_not_held_refused_and_a_revoke_flagged(
    browser, live_server
):
    scene = build_board_scene()
    match, judge = scene.match, scene.judge
    context = browser.new_context(viewport=PHONE, locale="zh-CN", has_touch=True)
    context.set_default_timeout(10_000)
    context.add_cookies([{"name": "django_language", "value": "zh-hans", "url": live_server.url}])
    context.add_init_script("window.refereeAutoSendMs = 30;")
    page = new_page(context, live_server)
    login(page, judge.username, PASSWORD)

    page.goto_path(f"/match/{match.pk}/")
    page.get_by_test_id("play-board").click()
    expect(page.get_by_test_id("board-title")).to_contain_text("1")
    page.get_by_test_id("start-board").click()  # not ticked: refused, in one sentence
    expect(page.get_by_test_id("board-error")).to_be_visible()
    page.get_by_test_id("board-checked").check()
    shots.save(page, SHOTS / "check.png", full_page=True)
    page.get_by_test_id("start-board").click()
    page.wait_for_url("**/deal/*/")
    deal = Deal.objects.get(match=match)
    record, seat, trick = revoking_record(deal.banker, deal.level, deal.trump)

    expect(page.get_by_test_id("bury-hint")).to_be_visible()
    shots.save(page, SHOTS / "bury.png")
    for code in record["kitty"].split():
        page.locator(f"button.pick[data-code='{code}']").first.click()
    page.locator("#kitty-form button[type=submit]").click()
    wait_for_version(page, deal.version + 1)

    play_through(deal, judge, [p for t in record["tricks"][:trick] for p in t["plays"]])  # fast, server side
    deal.refresh_from_db()
    page.reload()
    wait_for_version(page, deal.version)
    plays = record["tricks"][trick]["plays"]
    lead_seat, lead = plays[0]
    still = {
        c for t in record["tricks"][trick:] for s, cs in t["plays"] if s == lead_seat for c in cs.split()
    }
    offered = page.eval_on_selector_all("button.pick", "bs => bs.map(b => b.dataset.code)")
    assert set(offered) == still and len(offered) == len(
        still
    )  # only the leader's own cards, a button a face
    page.locator(f"button.pick[data-code='{lead}']").click()  # one tap: a single goes by itself
    wait_for_version(page, deal.version + 1)

    second_seat = plays[1][0]
    held = set(
        parse_cards(" ".join(c for t in record["tricks"][trick:] for s, c in t["plays"] if s == second_seat))
    )
    foreign = next(c for c in range(52) if c not in held and CARD_TEXT[c] != lead)
    page.fill("#cards-input", CARD_TEXT[foreign])
    page.locator("#record-button").click()
    message = page.locator("#message")
    expect(message).to_contain_text(SEAT_ZH[second_seat])
    expect(message).to_contain_text(show((foreign,)))
    page.locator("#clear-button").click()

    for n, (s, cards) in enumerate(plays[1:], start=2):
        page.locator(f"button.pick[data-code='{cards}']").click()
        wait_for_version(page, deal.version + n)
        if s == seat:
            break
    flagged = page.locator("li.violation.new")
    expect(flagged).to_have_count(1)
    expect(flagged).to_contain_text(f"第 {trick + 1}")
    expect(flagged).to_contain_text(SEAT_ZH[seat][0])
    shots.save(page, SHOTS / "revoke-flagged.png")

    rest = plays[[s for s, _c in plays].index(seat) + 1 :]
    play_through(deal, judge, rest + [p for t in record["tricks"][trick + 1 :] for p in t["plays"]])
    page.reload()
    expect(page.locator(".done-box")).to_be_visible()
    context.close()
