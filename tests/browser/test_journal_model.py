"""The journal's one piece of table knowledge (``RefereeJournal.model`` in static/js/journal.js): who plays next
while offline — round the table in the trick's order, a finished trick's lead from its winner (the server's, or
the one the judge tapped), else a winner to tap. Checked against the engine's simulated deals, both directions."""

from __future__ import annotations

import json
import random

import pytest

from rules.judge import judge
from rules.seats import play_order
from rules.simulate import simulate_deal
from tests.browser.journal_steps import begun_deal, open_deal, phone_page

pytestmark = pytest.mark.django_db(transaction=True)

DEALS = 60  # per direction
CASES = 8  # per deal: where the server's record ends, and how many entries the device holds after it


def server_state(record: dict, winners: list[str], clockwise: bool, stored: int) -> dict:
    """What the page's state says of a deal whose first ``stored`` plays the server holds (as ``deal_state``)."""
    tricks, n = [], 0
    for number, trick in enumerate(record["tricks"]):
        plays = trick["plays"][: max(stored - n, 0)]
        n += len(trick["plays"])
        if not plays:
            break
        tricks.append(
            {
                "plays": [{"seat": s} for s, _c in plays],
                "winner": winners[number] if len(plays) == 4 else None,
            }
        )
    current = tricks[-1] if tricks and len(tricks[-1]["plays"]) < 4 else None
    leader = (
        current["plays"][0]["seat"] if current else (winners[len(tricks) - 1] if tricks else record["banker"])
    )
    return {
        "deal": {"banker": record["banker"]},
        "order": list(play_order(leader, clockwise)),
        "tricks": tricks,
    }


def device_entries(record: dict, winners: list[str], stored: int) -> list[tuple[dict, dict]]:
    """Every entry after the server's ``stored`` plays, as the judge makes them offline (each play, and each
    finished trick's winner tapped), each with what the page must say next after it."""
    plays = [(number, seat) for number, t in enumerate(record["tricks"]) for seat, _c in t["plays"]]
    out = []
    for i in range(stored, len(plays)):
        number, seat = plays[i]
        done = i + 1 == len(plays) or plays[i + 1][0] != number
        after = {"need": number} if done else {"seat": plays[i + 1][1]}
        out.append(({"action": "play", "fields": {"seat": seat}}, after))
        if done and i + 1 < len(plays):
            claim = {"action": "winner", "fields": {"trick": number, "seat": winners[number]}}
            out.append((claim, {"seat": plays[i + 1][1]}))
    return out


def cases(clockwise: bool) -> list[dict]:
    rng = random.Random(f"journal-{clockwise}")
    out = []
    for seed in range(DEALS):
        record = simulate_deal(
            {"preset": "standard", "clockwise": clockwise}, banker=rng.choice("NWSE"), seed=seed
        )
        winners = [t.winner for t in judge(record).tricks]
        total = sum(len(t["plays"]) for t in record["tricks"])
        for _ in range(CASES):
            stored = rng.randrange(total)
            state = server_state(record, winners, clockwise, stored)
            entries = device_entries(record, winners, stored)
            held = rng.randrange(len(entries) + 1)
            expected = entries[held - 1][1] if held else None
            out.append({"state": state, "entries": [e for e, _a in entries[:held]], "expect": expected})
    return out


def test_the_page_knows_who_plays_next_offline_as_the_engine_does_on_many_random_deals(browser, live_server):
    deal, _record = begun_deal()
    context, page = phone_page(browser, live_server)
    try:
        open_deal(page, deal)
        for clockwise in (False, True):
            checked = cases(clockwise)
            said = page.evaluate(  # as one JSON text: Playwright's own encoding of a large argument takes seconds
                """text => JSON.parse(text).map(c => {
                    const m = window.RefereeJournal.model(c.state, c.entries);
                    return m.need !== undefined ? {need: m.need} : {seat: m.seat};
                })""",
                json.dumps(checked),
            )
            wrong = [
                (c["expect"], s)
                for c, s in zip(checked, said, strict=True)
                if c["expect"] and c["expect"] != s
            ]
            assert not wrong, json.dumps(wrong[:5])
            assert sum(1 for c in checked if c["expect"]) > DEALS * CASES // 2
    finally:
        context.close()
