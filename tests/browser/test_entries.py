"""Entries on line on a phone (390×844, in Chinese): capacity 4, five pairs enter on the form and the fifth waits;
one withdraws from its own page and the fifth is given its place; the director closes entries at the desk and
round 1 is paired and published; each entrant's own page shows its table, its seats and its opponents, and once
the round is played (by the recording service's simulator) its result."""

from __future__ import annotations

import pytest
from django.db.models import Q
from django.utils.translation import gettext, override

from referee.table.simulation import simulate_round
from tests.browser.helpers import expect, login
from tests.desk.helpers import SHORT_RULES
from tournaments.checkin.forfeits import publish_round
from tournaments.competition.accounts import create_director
from tournaments.entries import services
from tournaments.entries.own_page import outcome_for
from tournaments.models import Entry, Match, Tournament
from tournaments.pairing.services import pair_round

pytestmark = pytest.mark.django_db(transaction=True)

PAIRS = ["东风", "西风", "南风", "北风", "红中"]


def match_of(pair) -> Match:
    return Match.objects.get(Q(pair_ns=pair) | Q(pair_ew=pair), round__number=1)


def enter(page, slug: str, name: str) -> str:
    """One pair fills the form and lands on its own page (with its QR code): that page's address."""
    page.goto_path(f"/t/{slug}/enter/")
    page.fill("#id_name", name)
    page.fill("#id_player1", f"{name}甲")
    page.fill("#id_player2", f"{name}乙")
    page.fill("#id_contact", "13800000000")
    page.get_by_test_id("entry-form").locator("button[type=submit]").click()
    expect(page.get_by_test_id("confirmation").locator("svg")).to_be_visible()
    return page.url.split("?")[0]


def test_five_pairs_enter_the_fifth_waits_is_promoted_and_every_entrant_finds_its_table_and_result(
    page, live_server, screenshot
):
    director = create_director("td", "director-pass-1")
    t = Tournament.objects.create(name="网上报名赛", slug="online", ruleset=SHORT_RULES, num_rounds=3)
    services.open_entries(t, capacity=4, fee="100元")
    page.set_viewport_size({"width": 390, "height": 844})

    own = {name: enter(page, t.slug, name) for name in PAIRS}
    expect(page.get_by_test_id("state")).to_contain_text("1")  # the fifth: number 1 on the waiting list
    screenshot(page, "waiting")

    page.goto(own["西风"])
    page.get_by_test_id("withdraw-confirm").check()
    page.get_by_test_id("withdraw").click()
    expect(page.get_by_test_id("withdraw")).to_have_count(0)
    page.goto(own["红中"])
    expect(page.get_by_test_id("promoted")).to_be_visible()

    login(page, "td", "director-pass-1")
    page.goto_path(f"/t/{t.slug}/desk/entries/")
    page.get_by_test_id("close-entries").click()
    expect(page.get_by_test_id("entries-closed")).to_be_visible()
    publish_round(pair_round(t, 1))

    playing = [n for n in PAIRS if n != "西风"]
    for name in playing:
        page.goto(own[name])
        pair = Entry.objects.get(name=name).pair
        match = match_of(pair)
        opponent = match.pair_ew if match.pair_ns_id == pair.pk else match.pair_ns
        with override("zh-hans"):
            expect(page.get_by_test_id("table")).to_have_text(gettext("Table %(t)s") % {"t": match.table})
        expect(page.get_by_test_id("opponents")).to_have_text(opponent.name)
        expect(page.get_by_test_id("seats")).to_contain_text(f"{name}甲")
    screenshot(page, "table")

    simulate_round(t, 1, director)
    for name in playing:
        page.goto(own[name])
        pair = Entry.objects.get(name=name).pair
        match = match_of(pair)
        with override("zh-hans"):
            expect(page.get_by_test_id("outcome")).to_have_text(outcome_for(match, pair))
        expect(page.get_by_test_id("rank")).to_be_visible()
    screenshot(page, "result")
