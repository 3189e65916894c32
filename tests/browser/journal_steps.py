"""Steps of the offline journal's browser tests: a phone, a deal with a simulated legal record, plays typed."""

from __future__ import annotations

import re

from referee.table.recording import deal_entry
from rules.judge import judge
from tests.browser import shots
from tests.browser.helpers import expect, login, sign_in
from tests.table.helpers import simulated, with_a_revoke
from tournaments.models import Deal, Play, WriteReceipt
from tournaments.setup.demo import create_demo

PHONE = {"width": 390, "height": 844}
SHOTS = shots.folder("journal")
SEAT_NAMES = {
    "zh-hans": {"N": "北", "W": "西", "S": "南", "E": "东"},
    "en": {"N": "North", "W": "West", "S": "South", "E": "East"},
}


def phone_page(browser, live_server, language: str = "zh-hans"):
    """A new phone-sized context in ``language`` and its first page; ``page.goto_path`` opens a path."""
    context = browser.new_context(viewport=PHONE, locale="zh-CN" if language == "zh-hans" else "en-GB")
    context.set_default_timeout(10_000)
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    return context, new_page(context, live_server)


def new_page(context, live_server):
    page = context.new_page()
    page.goto_path = lambda path: page.goto(live_server.url + path)
    return page


def shot(page, name: str) -> None:
    shots.save(page, SHOTS / f"{name}.png", full_page=True)


def begun_deal(seed: int = 1) -> tuple[Deal, dict]:
    """Table 1's first deal of the demo, begun (♠ trump, North the banker), with a legal record for it."""
    demo = create_demo()
    match = demo.tournament.rounds.get(number=1).matches.get(table=1)
    deal = deal_entry.start_deal(match, match.judge, trump="S", declarer="N")
    return deal, simulated(deal, seed=seed)


def revoked_deal() -> tuple[Deal, dict, int, int]:
    """A begun deal and a record for it with one revoke in an early trick, every trick's winner kept: with the
    trick of the revoke and the later trick whose play proves it (from 0)."""
    deal, _record = begun_deal()
    for seed in range(1, 300):
        plain = simulated(deal, seed=seed)
        found = with_a_revoke(plain)
        if found:
            proof = max(n for n, t in enumerate(found[0]["tricks"]) if t != plain["tricks"][n])
            if proof <= 5:
                return deal, found[0], found[2], proof
    raise AssertionError("no early revoke in 300 simulated deals")


def open_deal(page, deal: Deal) -> None:
    """The judge's deal page, kept by the service worker for offline use (the page says when)."""
    login(page, "judge1", "demo-judge1-2026")
    page.goto_path(f"/deal/{deal.pk}/")
    page.locator("#deal-app[data-offline='kept']").wait_for(state="attached")


def open_deal_signed_in(page, live_server, deal: Deal) -> None:
    """``open_deal``, the judge signed in by a session cookie rather than through the login form's pages."""
    sign_in(page, live_server.url, "judge1")
    page.goto_path(f"/deal/{deal.pk}/")
    page.locator("#deal-app[data-offline='kept']").wait_for(state="attached")


def winners(record: dict) -> list[str]:
    return [t.winner for t in judge(record).tricks]


def enter(page, cards: str) -> None:
    """Type one play and record it; the field is empty again once the entry is safe on the device."""
    page.fill("#cards-input", cards)
    page.press("#cards-input", "Enter")
    expect(page.locator("#cards-input")).to_have_value("")


def enter_trick(page, trick: dict, winner: str | None = None) -> None:
    """A trick's four plays; offline, the judge then taps its winner (``winner``)."""
    for _seat, cards in trick["plays"]:
        enter(page, cards)
    if winner:
        page.locator(f".journal-winner button[data-winner='{winner}']").click()


# Long enough for the journal's slowest retry (every 15 s once the network has been down a while), should the
# browser's "online" event come late on a busy machine.
BACK_ONLINE_MS = 25_000


def waiting(page, n: int) -> None:
    expect(page.locator(".journal-count")).to_have_attribute("data-count", str(n), timeout=BACK_ONLINE_MS)


def offline_seen(page) -> None:
    """The page has tried the network and found it down (its journal box says so). A tap made just after the
    network went is counted at once but sent a moment later: on a busy machine, a test that changes the deal and
    brings the network back before that send has its entry answered online, told at the field, not journalled."""
    expect(page.locator("#journal-box")).to_have_class(re.compile(r"\bdown\b"), timeout=BACK_ONLINE_MS)


def stored_once(deal: Deal, plays: int) -> None:
    """The deal holds ``plays`` plays, and each went in under one key of its own."""
    assert Play.objects.filter(trick__deal=deal).count() == plays
    receipts = WriteReceipt.objects.filter(target=f"deal {deal.pk} play", status=200)
    assert receipts.count() == plays


def played_elsewhere(deal: Deal, user, tricks: list[dict]) -> int:
    """The tricks' plays sent through the play service, each under a key of its own, as another device of the table
    sends them (the service and the receipt of the page's own posts): a whole-deal browser test taps the tricks
    that show something and leaves the rest, which would only repeat those taps, to this. The deal's version."""
    from referee.table.actions import play
    from tests.table.helpers import posted_plays

    for n, fields in enumerate(posted_plays({"tricks": tricks})):
        deal.refresh_from_db()
        answer = play(
            deal, user, {**fields, "version": str(deal.version)}, key=f"elsewhere-{deal.pk}-{n:03d}"
        )
        assert answer.ok, answer.outcome
    deal.refresh_from_db()
    return deal.version
