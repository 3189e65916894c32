"""A pair's own page: its table, seats and opponents once the round is published (never from a draft), the start
of its match and the call to check in, its results with its rank, its own table's confirmed deals only, its calls
and adjustments; in the page's language, light enough for a hall's Wi-Fi, and opened from the pair's card too."""

from __future__ import annotations

import pytest
from django.db.models import Q
from django.test import Client
from django.urls import reverse
from django.utils.translation import gettext, override

from referee.table.simulation import simulate_match
from tests.desk.helpers import SHORT_RULES
from tournaments.checkin.forfeits import publish_round
from tournaments.entries import services
from tournaments.entries.links import own_page_path
from tournaments.entries.own_page import outcome_for
from tournaments.models import Adjustment, CheckIn, Entry, Match, TableCall, Tournament
from tournaments.pairing.services import pair_round

pytestmark = pytest.mark.django_db

LIGHT = 30_000  # bytes: the whole page, its style included


@pytest.fixture
def entered(db):
    """Four pairs entered on line, entries closed, round 1 paired as a draft."""
    t = Tournament.objects.create(name="春季赛", slug="spring-entries", ruleset=SHORT_RULES, num_rounds=3)
    services.open_entries(t, capacity=4)
    for n in range(1, 5):
        services.submit_entry(t, services.EntryForm(f"红队{n}", f"张{n}", f"李{n}", "", "1"), f"{n:032x}")
    services.close_entries(t)
    return t, pair_round(t)


def match_of(rnd, entry: Entry) -> Match:
    return rnd.matches.get(Q(pair_ns=entry.pair) | Q(pair_ew=entry.pair))


def page_of(entry: Entry, language: str = "zh-hans") -> str:
    client = Client()
    client.cookies["django_language"] = language
    response = client.get(own_page_path(entry))
    assert response.status_code == 200
    assert len(response.content) < LIGHT, len(response.content)
    return response.content.decode()


def test_the_table_and_opponents_appear_once_the_round_is_published_not_from_the_draft(entered):
    t, rnd = entered
    entry = Entry.objects.get(name="红队1")
    assert 'data-testid="table"' not in page_of(entry)
    publish_round(rnd)
    match = match_of(rnd, entry)
    opponent = match.pair_ew if match.pair_ns == entry.pair else match.pair_ns
    text = page_of(entry)
    with override("zh-hans"):
        assert gettext("Table %(t)s") % {"t": match.table} in text
    assert opponent.name in text and opponent.player1.name in text and "北" in text
    english = page_of(entry, "en")
    assert f"Table {match.table}" in english and "North" in english


def test_the_page_notes_the_match_started_and_the_call_to_check_in(entered):
    t, rnd = entered
    publish_round(rnd)
    entry = Entry.objects.get(name="红队1")
    match = match_of(rnd, entry)
    match.state = Match.State.IN_PROGRESS
    match.save()
    other = Entry.objects.exclude(pk=entry.pk).first()
    CheckIn.objects.create(pair=other.pair, round_number=2)
    text = page_of(entry)
    assert 'data-testid="started"' in text and 'data-testid="check-in-call"' in text
    CheckIn.objects.create(pair=entry.pair, round_number=2)
    assert 'data-testid="check-in-call"' not in page_of(entry)


def test_after_the_round_the_page_shows_the_result_rank_and_its_own_tables_deals_only(entered, director):
    t, rnd = entered
    publish_round(rnd)
    first, second = rnd.matches.order_by("table")
    simulate_match(first, director, max_deals=3)
    entry = Entry.objects.get(pair=first.pair_ns)
    before = page_of(entry)
    assert before.count("<tr><td>") >= 1  # its own confirmed deals, as the round is played
    simulate_match(second, director, max_deals=2)  # the other table: deals that must never show here
    simulate_match(first, director, max_deals=60)
    first.refresh_from_db()
    text = page_of(entry)
    assert (
        'data-testid="rank"' in text
        and first.get_state_display() not in text.split('data-testid="results"')[1][:0]
    )
    with override("zh-hans"):
        outcome = outcome_for(first, entry.pair)
    assert outcome in text.split('data-testid="results"')[1]
    deals_shown = text.count("<tr><td>")
    assert deals_shown == first.deals.filter(state="confirmed").count()  # never the other table's


def test_the_pairs_calls_and_adjustments_are_listed(entered, director):
    t, rnd = entered
    publish_round(rnd)
    match = rnd.matches.first()
    TableCall.objects.create(match=match, reason=TableCall.Reason.MISDEAL, ruling="重新发牌")
    Adjustment.objects.create(match=match, kind=Adjustment.Kind.FORFEIT, side="NS", reason="迟到")
    text = page_of(Entry.objects.get(pair=match.pair_ns))
    assert "重新发牌" in text and "迟到" in text
    assert "重新发牌" not in page_of(Entry.objects.exclude(pair__in=(match.pair_ns, match.pair_ew)).first())


def test_a_pairs_card_carries_its_own_pages_code_and_a_pair_without_an_entry_has_one_too(
    entered, director, make_pair
):
    t, rnd = entered
    publish_round(rnd)
    desk = Client()
    desk.force_login(director)
    cards = desk.get(reverse("desk-table-cards", args=[t.slug, 1])).content.decode()
    assert cards.count('class="card-qr"') == 4
    walk_in = make_pair("散客", t=t)
    response = Client().get(own_page_path(walk_in))
    assert response.status_code == 200 and "散客" in response.content.decode()
