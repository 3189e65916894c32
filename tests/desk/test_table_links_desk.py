"""The desk's table links of a round: printing cards anew (QR codes and PINs, shown only in that answer),
revoking a table's link, the devices that opened it; the tokens never reach a public page."""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.table.helpers import as_user, open_link
from tournaments.models import Match, Round, TableLink
from tournaments.table_links import services

pytestmark = pytest.mark.django_db

IPAD = "Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Safari/604.1"


@pytest.fixture
def public(match, make_pair):
    """A public tournament, every public page on, with two tables in round 1."""
    t = match.round.tournament
    t.is_public = True
    for switch in ("public_standings", "public_pairings", "public_results", "public_deal_log"):
        setattr(t, switch, True)
    t.save()
    Match.objects.create(round=match.round, table=2, pair_ns=make_pair(), pair_ew=make_pair())
    cache.clear()
    return t


def links_url(action: str = "desk-table-links", *extra) -> str:
    return reverse(action, args=["spring", 1, *extra])


def print_cards(director, **fields):
    client = as_user(director)
    client.cookies["django_language"] = "en"
    return client.post(links_url("desk-issue-cards"), fields)


def tokens_in(html: str) -> list[str]:
    return re.findall(r"/k/([-\w]{43,})/", html)


def test_printing_every_tables_card_draws_a_qr_code_and_two_pins_each(public, director):
    response = print_cards(director)
    html = response.content.decode()
    assert response.status_code == 200 and "no-store" in response["Cache-Control"]
    # Each card: its table link's code, and each pair's own page's code (``entries``).
    assert html.count('<svg viewBox="0 0') == 2 * 3 and html.count('class="qr"') == 2 * 3
    assert html.count('data-testid="card-link"') == 2 and html.count('data-testid="card-own"') == 2
    assert len(set(tokens_in(html))) == 2
    assert len(re.findall(r'data-testid="pin">\d{6}<', html)) == 4
    assert TableLink.objects.filter(revoked_at__isnull=True).count() == 2


def test_the_printed_link_signs_a_device_in_for_its_table(public, director, match):
    token = tokens_in(print_cards(director, match=match.pk).content.decode())[0]
    response, _device = open_link(token)
    assert response["Location"] == reverse("match", args=[match.pk])


def test_the_tokens_never_reach_a_public_page(public, director, match):
    html = print_cards(director).content.decode()
    tokens = tokens_in(html)
    _response, device = open_link(tokens[0])
    pages = [
        reverse("home"),
        reverse("tournament", args=["spring"]),
        reverse("standings", args=["spring"]),
        reverse("round", args=["spring", 1]),
        reverse("results", args=["spring"]),
        reverse("pair", args=["spring", match.pair_ns_id]),
        reverse("deal-log", args=["spring", match.pk]),
        reverse("match", args=[match.pk]),
        links_url(),
        links_url("desk-table-cards"),
    ]
    for client in (Client(), device, as_user(director)):
        for url in pages:
            response = client.get(url)
            assert response.status_code in (200, 302, 403), url
            assert not [t for t in tokens if t in response.content.decode()], url


def test_the_links_page_lists_each_tables_devices(public, director, match):
    token = tokens_in(print_cards(director, match=match.pk).content.decode())[0]
    open_link(token, HTTP_USER_AGENT=IPAD)
    page = as_user(director).get(links_url()).content.decode()
    assert "Safari · iPad" in page
    assert page.count("Safari · iPad") == 1


def test_the_round_and_its_links_page_read_in_english(public, director, match):
    """The words the browser's table-link journey (test_table_link, in Chinese) clicks, in English: the round's
    "Table links", a table's "New card" and, once its link is live, "Revoke"."""
    print_cards(director, match=match.pk)
    client = as_user(director)
    client.cookies["django_language"] = "en"
    assert ">Table links</a>" in client.get(reverse("desk-round", args=["spring", 1])).content.decode()
    page = client.get(links_url()).content.decode()
    row = page.split('data-table="1"', 1)[1].split("</tr>", 1)[0]
    assert ">New card</button>" in row and ">Revoke</button>" in row


def test_revoking_a_link_from_the_desk_stops_its_device(public, director, match):
    token = tokens_in(print_cards(director, match=match.pk).content.decode())[0]
    _response, device = open_link(token)
    answer = as_user(director).post(links_url("desk-revoke-link", match.pk))
    assert answer.status_code == 302
    assert TableLink.objects.get(match=match).revoked_at is not None
    assert device.get(reverse("new_deal", args=[match.pk])).status_code == 403


@pytest.mark.parametrize(
    ("who", "status"), [("anonymous", 302), ("judge", 403), ("captain", 403), ("director", 200)]
)
def test_only_the_director_opens_the_links_page(public, director, judge, captain, who, status):
    client = {"anonymous": Client(), "judge": as_user(judge), "captain": as_user(captain)}.get(who)
    client = client or as_user(director)
    assert client.get(links_url()).status_code == status
    assert client.post(links_url("desk-issue-cards")).status_code == (status if status != 200 else 200)


def test_no_card_is_issued_in_a_finished_tournament_or_round(public, director, match):
    public.finished_at = timezone.now()
    public.save()
    assert print_cards(director).status_code == 409
    public.finished_at = None
    public.save()
    Round.objects.filter(pk=match.round_id).update(state=Round.State.FINISHED)
    refused = print_cards(director)
    assert refused.status_code == 302 and not TableLink.objects.exists()


def test_a_draft_rounds_links_page_is_not_found(public, director, match):
    Round.objects.filter(pk=match.round_id).update(state=Round.State.DRAFT)
    assert as_user(director).get(links_url()).status_code == 404


@pytest.mark.parametrize("posted", ["abc", "99999999999999999999999", "-1", "0"])
def test_a_posted_table_that_is_no_table_of_the_round_is_not_found(public, director, posted):
    assert print_cards(director, match=posted).status_code == 404


def test_a_new_card_makes_new_pins_and_the_old_ones_stop(public, director, match):
    first = services.issue_card(match, director)
    second = services.issue_card(match, director)
    assert services.pin_matches(match.pair_ns, second.pins[0])
    assert first.pins[0] == second.pins[0] or not services.pin_matches(match.pair_ns, first.pins[0])


def test_the_pair_list_says_which_pairs_have_a_pin_and_never_shows_it(public, director, match):
    card = services.issue_card(match, director)
    client = as_user(director)
    client.cookies["django_language"] = "en"
    page = client.get(reverse("desk-pairs", args=["spring"])).content.decode()
    assert page.count("on the table card printed at") == 2 and page.count('data-testid="pin-state"') == 4
    assert not [pin for pin in card.pins if pin in page]
