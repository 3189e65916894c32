"""Entries on line as five pairs and the director walk them, in Chinese (capacity 4): five pairs enter on the form
and the fifth waits; one withdraws from its own page and the fifth is given its place; the director closes
entries at the desk and round 1 is paired and published; each entrant's own page shows its table, its seats and
its opponents, and once the round is played (by the recording service's simulator) its result. The pages are
server-drawn forms and text, so Django's client walks them as a phone's browser would (this was a browser test;
the own page's pieces are tests/entries/test_own_page.py's, the waiting list's tests/entries/test_entries.py's)."""

from __future__ import annotations

import re

import pytest
from django.db.models import Q
from django.test import Client
from django.urls import reverse
from django.utils.translation import gettext, override

from referee.table.simulation import simulate_round
from tests.desk.helpers import SHORT_RULES
from tests.entries.helpers import form_data
from tournaments.checkin.forfeits import publish_round
from tournaments.competition.accounts import create_director
from tournaments.entries import services
from tournaments.entries.own_page import outcome_for
from tournaments.models import Entry, Match, Tournament
from tournaments.pairing.services import pair_round

pytestmark = pytest.mark.django_db

PAIRS = ["东风", "西风", "南风", "北风", "红中"]


def match_of(pair) -> Match:
    return Match.objects.get(Q(pair_ns=pair) | Q(pair_ew=pair), round__number=1)


def shown(html: str, testid: str) -> str:
    """The text of the element marked ``data-testid=testid`` (its tags taken out), as a reader sees it."""
    found = re.search(rf'<(\w+)[^>]*data-testid="{testid}"[^>]*>(.*?)</\1>', html, re.S)
    assert found, f"no {testid} on the page"
    return re.sub(r"<[^>]+>", "", found.group(2)).strip()


def enter(phone: Client, slug: str, name: str) -> str:
    """One pair fills the form and lands on its own page (with its QR code): that page's address."""
    fields = form_data(0, name=name, player1=f"{name}甲", player2=f"{name}乙", contact="13800000000", club="")
    answer = phone.post(reverse("enter", args=[slug]), fields)
    assert answer.status_code == 302, answer
    page = phone.get(answer["Location"]).content.decode()
    assert "<svg" in page.split('data-testid="confirmation"', 1)[1], f"{name}: no QR code on its own page"
    return answer["Location"].split("?")[0]


def test_five_pairs_enter_the_fifth_waits_is_promoted_and_every_entrant_finds_its_table_and_result():
    director = create_director("td", "director-pass-1")
    t = Tournament.objects.create(name="网上报名赛", slug="online", ruleset=SHORT_RULES, num_rounds=3)
    services.open_entries(t, capacity=4, fee="100元")
    phone = Client()
    phone.cookies["django_language"] = "zh-hans"

    own = {name: enter(phone, t.slug, name) for name in PAIRS}
    assert "1" in shown(phone.get(own["红中"]).content.decode(), "state"), "the fifth: number 1 waiting"

    withdrawn = phone.post(own["西风"], {"action": "withdraw", "confirm": "yes"})
    assert withdrawn.status_code == 302
    assert 'data-testid="withdraw"' not in phone.get(own["西风"]).content.decode()
    assert 'data-testid="promoted"' in phone.get(own["红中"]).content.decode()

    desk = Client()
    desk.cookies["django_language"] = "zh-hans"
    desk.force_login(director)
    entries = reverse("desk-entries", args=[t.slug])
    assert 'data-testid="close-entries"' in desk.get(entries).content.decode()
    assert desk.post(entries, {"action": "close"}).status_code == 302
    assert 'data-testid="entries-closed"' in desk.get(entries).content.decode()
    publish_round(pair_round(t, 1))

    playing = [n for n in PAIRS if n != "西风"]
    for name in playing:
        page = phone.get(own[name]).content.decode()
        pair = Entry.objects.get(name=name).pair
        match = match_of(pair)
        opponent = match.pair_ew if match.pair_ns_id == pair.pk else match.pair_ns
        with override("zh-hans"):
            assert shown(page, "table") == gettext("Table %(t)s") % {"t": match.table}, name
        assert shown(page, "opponents") == opponent.name, name
        assert f"{name}甲" in shown(page, "seats"), name

    simulate_round(t, 1, director)
    for name in playing:
        page = phone.get(own[name]).content.decode()
        pair = Entry.objects.get(name=name).pair
        with override("zh-hans"):
            assert shown(page, "outcome") == outcome_for(match_of(pair), pair), name
        assert shown(page, "rank"), name
