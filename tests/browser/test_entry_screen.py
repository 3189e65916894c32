"""The trick-entry page on one screen: at a phone's size (held upright or sideways) and two tablets', in both
languages, the current trick, the picker and the record control are all in view after tapping a low card; a follow
is sent on its last card (and can be taken back in the moment before); each finished trick's outcome is on screen;
and a whole simulated deal recorded by tapping counts its taps (the figures go to test-output/screenshots/picker/taps.json;
its first tricks tapped, the rest through the recording service). The moment before a follow is sent is waited
out on Playwright's clock, not the wall's."""

from __future__ import annotations

import json
from datetime import datetime, timedelta

import pytest
from django.test import Client

from referee.table.recording import deal_entry
from rules.judge import judge as engine_judge
from rules.simulate import simulate_deal
from tests.browser import shots
from tests.browser.helpers import expect, wait_for_version
from tests.table.helpers import play_through_service
from tournaments.setup.demo import create_demo

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = shots.folder("picker")
# a phone, a tablet both ways, a small tablet, and phones held sideways (a large one, a small one)
SIZES = [(390, 844), (820, 1180), (1180, 820), (1024, 768), (844, 390), (667, 375)]
WORDS = {
    "zh-hans": {"record": "录入", "cancelled": "未录入", "won": "赢", "done": "所有墩已出完"},
    "en": {"record": "Record play", "cancelled": "Not sent", "won": "wins", "done": "All tricks are played"},
}
SEAT_WORDS = {"zh-hans": "北西南东", "en": ("North", "West", "South", "East")}


def plain_record(seed_from: int = 0) -> dict:
    """A simulated deal (banker N, level 2, spades) without challenged throws, whose first trick is of singles."""
    for seed in range(seed_from, seed_from + 300):
        record = simulate_deal("standard", banker="N", level="2", trump="S", seed=seed)
        tricks = record["tricks"]
        if not any("throw" in t for t in tricks) and all(len(p[1].split()) == 1 for p in tricks[0]["plays"]):
            return record
    raise AssertionError("no plain simulated deal in 300 seeds")


@pytest.fixture
def begun(db):
    """Deal 1 of judge1's table begun (N banks, spades), and the judge's account."""
    demo = create_demo()
    match = demo.tournament.rounds.get(number=1).matches.get(table=1)
    deal = deal_entry.start_deal(match, match.judge, trump="S", declarer="N")
    return deal


def open_deal(browser, live_server, deal, size, language: str, auto_send_ms: int | None = None):
    """A browser page the size of ``size``, signed in as the deal's judge, reading ``language``, on the deal."""
    client = Client()
    client.force_login(deal.match.judge)
    context = browser.new_context(
        viewport={"width": size[0], "height": size[1]}, locale="zh-CN", has_touch=True
    )
    context.set_default_timeout(10_000)
    context.add_cookies(
        [
            {"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url},
            {"name": "django_language", "value": language, "url": live_server.url},
        ]
    )
    if (
        auto_send_ms is not None
    ):  # the moment before a follow is sent, shortened (the page's constant otherwise)
        context.add_init_script(f"window.refereeAutoSendMs = {auto_send_ms};")
    page = context.new_page()
    page.goto(f"{live_server.url}/deal/{deal.pk}/")
    page.wait_for_selector("#deal-app[data-version]")
    return page


def shot(page, name: str) -> None:
    shots.save(page, SHOTS / f"{name}.png")  # the screen as the judge sees it, not the whole page


def in_view(page, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    view = page.viewport_size
    return (
        box is not None
        and box["y"] >= 0
        and box["x"] >= 0
        and box["y"] + box["height"] <= view["height"]
        and box["x"] + box["width"] <= view["width"]
    )


def above_the_bar(page, selector: str) -> bool:
    """Nothing of ``selector`` is under the record control pinned to the bottom of the screen."""
    box = page.locator(selector).bounding_box()
    bar = page.locator(".entry-bar").bounding_box()
    return box is not None and bar is not None and box["y"] + box["height"] <= bar["y"] + 1


def tap(page, codes: str) -> int:
    """Tap the picker for each card (a pair: its face twice); returns the taps."""
    for code in codes.split():
        page.locator(f"button.pick[data-code='{code}']").click()
    return len(codes.split())


def record_button(page, language: str):
    return page.get_by_role("button", name=WORDS[language]["record"], exact=True)


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_the_trick_the_picker_and_the_record_control_share_one_screen(browser, live_server, begun, language):
    """At every size of ``SIZES``, one page resized from one to the next (the layout is the style sheet's alone:
    no script measures the screen), the field emptied between them."""
    page = open_deal(browser, live_server, begun, SIZES[0], language)
    for size in SIZES:
        page.set_viewport_size({"width": size[0], "height": size[1]})
        page.locator("button.pick[data-code='D3']").click()  # a low card: the picker's last row
        expect(page.locator("#cards-input")).to_have_value("D3")
        expect(page.locator("button.pick[data-code='D3']")).to_have_class("pick suit-D selected")
        assert page.evaluate("window.scrollY") == 0, size
        for part in ("#record-button", ".picker", ".trick-now", "#cards-preview", "[data-action=undo]"):
            assert in_view(page, part), f"{part} is off the screen at {size} ({language})"
        picker_rows = page.locator(".picker-row").count()
        assert picker_rows == 5  # jokers and level cards, the trump suit, three plain suits
        expect(page.locator("button.pick[data-code='SA'] .left")).to_have_text("2")  # copies on the badge
        expect(page.locator("button.pick[data-code='D3'] .left")).to_have_text("1")  # one taken
        shot(page, f"1-screen-{size[0]}x{size[1]}-{language}")
        page.fill("#cards-input", "")  # the field emptied: nothing selected for the next size
        expect(page.locator("button.pick[data-code='D3'] .left")).to_have_text("2")
    page.context.close()


def the_moment(page) -> int:
    """The moment before a follow is sent by itself, as the page's script has it (``AUTO_SEND_MS``)."""
    return int(page.locator("#deal-app").get_attribute("data-auto-send-ms"))


def paused_clock(page) -> None:
    """Playwright's clock on the page, paused: the moment before a follow is sent passes when the test runs it
    (``page.clock.run_for``), at once and however busy the machine, never while the test is still tapping."""
    now = datetime.now()
    page.clock.install(time=now)
    page.clock.pause_at(now + timedelta(seconds=1))


def test_a_follow_is_sent_on_its_last_card_and_can_be_taken_back(browser, live_server, begun):
    record = plain_record()
    plays = [cards for _seat, cards in record["tricks"][0]["plays"]]
    page = open_deal(browser, live_server, begun, (390, 844), "zh-hans")
    paused_clock(page)
    tap(page, plays[0])
    record_button(page, "zh-hans").click()  # the lead: its size is not known before
    wait_for_version(page, 1)

    tap(page, plays[1])  # the follow's one card: the countdown starts, then the play is sent
    expect(page.locator("#record-button.counting")).to_be_visible()
    shot(page, "2-countdown-390x844-zh-hans")
    expect(page.locator("#deal-app")).to_have_attribute("data-version", "1")  # not before the moment
    page.clock.run_for(the_moment(page))
    wait_for_version(page, 2)
    expect(page.locator("#cards-input")).to_have_value("")

    tap(page, plays[2])
    page.locator("#record-button.counting").click()  # taken back within the moment
    expect(page.locator("#message")).to_contain_text(WORDS["zh-hans"]["cancelled"])
    expect(page.locator("#record-button")).not_to_have_class("counting")
    expect(page.locator("#cards-input")).to_have_value(plays[2])
    page.clock.run_for(the_moment(page) + 300)  # longer than the moment: nothing was sent
    expect(page.locator("#deal-app")).to_have_attribute("data-version", "2")
    record_button(page, "zh-hans").click()  # sent by hand after all
    wait_for_version(page, 3)
    page.context.close()


OUTCOME_SIZES = [(390, 844), (667, 375)]  # a phone held upright and sideways


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_a_finished_trick_says_who_won_its_points_the_total_and_the_next_lead_in_its_own_seat_order(
    browser, live_server, begun, language
):
    """One page a language, the finished trick's screen seen at each of ``OUTCOME_SIZES`` (the page resized: the
    layout is the style sheet's alone, no script measures the screen)."""
    record = plain_record()
    page = open_deal(browser, live_server, begun, OUTCOME_SIZES[0], language, auto_send_ms=50)
    expect(page.locator("#trick-outcome")).to_be_hidden()
    first = record["tricks"][0]
    for n, (_seat, cards) in enumerate(first["plays"]):
        tap(page, cards)
        if n == 0:
            record_button(page, language).click()
        wait_for_version(page, n + 1)
    verdict = engine_judge({**record, "tricks": [first], "partial": True})
    won = verdict.tricks[0]
    player = begun.match.seat_players()[won.winner]
    banner = page.locator("#trick-outcome")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text(player)
    expect(banner).to_contain_text(WORDS[language]["won"])
    expect(banner).to_contain_text(str(won.points))
    seat = SEAT_WORDS[language]["NWSE".index(won.winner)]
    expect(banner).to_contain_text(f"{seat} {player}")  # the seat by name, never its letter
    in_its_order = [SEAT_WORDS[language]["NWSE".index(s)] for s, _cards in first["plays"]]
    for size in OUTCOME_SIZES:
        page.set_viewport_size({"width": size[0], "height": size[1]})
        for part in ("#trick-outcome", ".picker", "#record-button"):
            assert in_view(page, part), f"{part} is off the screen at {size} ({language})"
        for part in ("#trick-outcome", ".picker"):
            assert above_the_bar(page, part), f"{part} is under the record bar at {size} ({language})"
        names = page.locator(".seat-box .seat-name").all_inner_texts()
        assert all(name.startswith(word) for name, word in zip(names, in_its_order, strict=True)), names
        leads = [name for name in names if "·" in name]  # the next lead marked, on the winner's seat
        assert len(leads) == 1 and leads[0].startswith(seat), names
        shot(page, f"3-outcome-{size[0]}x{size[1]}-{language}")
    tap(page, record["tricks"][1]["plays"][0][1])
    record_button(page, language).click()
    wait_for_version(page, 5)
    expect(banner).to_be_hidden()  # the next lead is on the table
    page.context.close()


def taps_of(trick: dict) -> int:
    """A trick's taps with the picker: a tap a card (a pair: its face twice), and the record control after the
    lead (its size is not known before); each follow goes by itself on its last card."""
    return sum(len(cards.split()) for _seat, cards in trick["plays"]) + 1


def test_a_whole_deal_recorded_by_tapping_counts_its_taps(browser, live_server, begun):
    """The tricks up to the first led by several cards are tapped (each follow sent on its last card, as counted);
    the rest go in through the recording service, as another device of the table sends them, and count as their
    cards say: tapping them would repeat those taps. Every trick of a deal tapped, on two phones and in both
    languages: test_table_last_mile.py."""
    record = plain_record()
    tricks = record["tricks"]
    several = next(n for n, trick in enumerate(tricks) if len(trick["plays"][0][1].split()) > 1)
    tapped = max(several, 2) + 1
    page = open_deal(browser, live_server, begun, (390, 844), "zh-hans", auto_send_ms=30)
    version, singles = 0, []
    for trick in tricks[:tapped]:
        trick_taps = 0
        for n, (_seat, cards) in enumerate(trick["plays"]):
            trick_taps += tap(page, cards)
            if n == 0:
                record_button(page, "zh-hans").click()
                trick_taps += 1
            version += 1
            wait_for_version(page, version)
        assert trick_taps == taps_of(trick)
        if len(trick["plays"][0][1].split()) == 1:
            singles.append(trick_taps)
    assert singles and set(singles) == {5}  # a trick of singles: lead 1 + record, three follows 1 each
    play_through_service(begun, begun.match.judge, {"tricks": tricks[tapped:]})
    page.reload()
    wait_for_version(page, 4 * len(tricks))
    expect(page.locator("[data-bind=turn]")).to_contain_text(WORDS["zh-hans"]["done"])
    shot(page, "4-whole-deal-390x844-zh-hans")
    taps = sum(taps_of(trick) for trick in tricks)
    # before: one button a copy, then the record button, every play; keys: a group token typed, then Enter
    before = sum(len(cards.split()) + 1 for trick in tricks for _seat, cards in trick["plays"])
    keys = sum(len(typed(cards)) + 1 for trick in tricks for _seat, cards in trick["plays"])
    figures = {
        "tricks": len(tricks),
        "taps_after": taps,
        "taps_before": before,
        "keys": keys,
        "taps_per_trick_of_singles": {"before": 8, "after": 5},
        "taps_per_trick_after": round(taps / len(tricks), 2),
        "taps_per_trick_before": round(before / len(tricks), 2),
        "keys_per_trick": round(keys / len(tricks), 2),
    }
    SHOTS.mkdir(parents=True, exist_ok=True)
    (SHOTS / "taps.json").write_text(json.dumps(figures, indent=2))
    assert taps < before
    page.context.close()


def typed(cards: str) -> str:
    """What a judge types for a play: each suit once, then its ranks (``SA SA SK`` → ``SAAK``), 10 as ``10``."""
    out, suit = [], None
    for code in cards.split():
        if code in ("BJ", "LJ"):
            out.append(" " + code)
            suit = None
            continue
        rank = "10" if code[1] == "T" else code[1]
        out.append(rank if code[0] == suit else " " + code[0] + rank)
        suit = code[0]
    return "".join(out).strip()


def test_full_width_cards_and_suit_words_read_in_the_preview_as_on_the_server(browser, live_server, begun):
    """In Chinese, the judges' own way of writing: the script's reading of the notation has no language of its own
    (static/js/notation.js), and the English page's preview words are test_words' (its phone in English)."""
    page = open_deal(browser, live_server, begun, (390, 844), "zh-hans")
    page.fill("#cards-input", "ＳＪ Ｈ５５ 黑桃A 方块10")
    expect(page.locator("#cards-preview")).to_contain_text("♠J ♥5 ♥5 ♠A ♦10")
    page.fill("#cards-input", "黑桃")
    expect(page.locator("#cards-preview")).to_have_class("cards-preview bad")
    page.fill("#cards-input", "黑桃Ａ")
    page.press("#cards-input", "Enter")
    wait_for_version(page, 1)
    assert begun.tricks.get().plays.get().cards == "SA"
    page.context.close()


def test_an_undo_in_the_moment_before_a_follow_is_sent_keeps_it_unsent(browser, live_server, begun):
    record = plain_record()
    plays = [cards for _seat, cards in record["tricks"][0]["plays"]]
    page = open_deal(browser, live_server, begun, (820, 1180), "en")
    paused_clock(page)
    tap(page, plays[0])
    record_button(page, "en").click()
    wait_for_version(page, 1)
    tap(page, plays[1])
    page.locator("[data-action=undo]").click()  # the lead taken back while the follow counts down
    wait_for_version(page, 2)
    expect(page.locator("#record-button")).not_to_have_class("counting")
    page.clock.run_for(the_moment(page) + 300)  # longer than the moment: nothing was sent
    expect(page.locator("#deal-app")).to_have_attribute("data-version", "2")
    assert not begun.tricks.exists()
    page.context.close()
