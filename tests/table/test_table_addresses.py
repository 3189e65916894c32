"""Issue 30 item 1: the QR codes carry the hall's address (``PUBLIC_URL``), not the one the desk was opened on, and
the desk warns when it is opened on this machine's own address with no hall address set."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tournaments.table_links.addresses import loopback

pytestmark = pytest.mark.django_db


def links_page(director, match, host: str) -> str:
    client = Client(HTTP_HOST=host)
    client.force_login(director)
    client.cookies["django_language"] = "en"
    slug = match.round.tournament.slug
    return client.get(reverse("desk-table-links", args=[slug, match.round.number])).content.decode()


def issued_cards(director, match, host: str) -> str:
    client = Client(HTTP_HOST=host)
    client.force_login(director)
    client.cookies["django_language"] = "en"
    slug = match.round.tournament.slug
    url = reverse("desk-issue-cards", args=[slug, match.round.number])
    return client.post(url, {"match": match.pk}).content.decode()


@pytest.mark.parametrize(
    ("host", "public_url", "warned"),
    [
        ("127.0.0.1:8000", "", True),
        ("localhost:8000", "", True),
        ("[::1]:8000", "", True),
        ("192.168.1.20:8000", "", False),
        ("127.0.0.1:8000", "http://192.168.1.20:8000", False),
    ],
)
def test_the_desk_warns_when_opened_on_this_machines_own_address_without_a_hall_address(
    settings, director, match, host, public_url, warned
):
    settings.ALLOWED_HOSTS = ["127.0.0.1", "localhost", "[::1]", "192.168.1.20"]
    settings.PUBLIC_URL = public_url
    assert ('data-testid="loopback-warning"' in links_page(director, match, host)) is warned


@pytest.mark.parametrize(
    ("public_url", "carried"),
    [("http://192.168.1.20:8000", "http://192.168.1.20:8000/k/"), ("", "http://127.0.0.1:8000/k/")],
)
def test_a_printed_card_carries_the_halls_address_when_one_is_set(
    settings, director, match, public_url, carried
):
    settings.ALLOWED_HOSTS = ["127.0.0.1"]
    settings.PUBLIC_URL = public_url
    page = issued_cards(director, match, "127.0.0.1:8000")
    assert carried in page
    assert ('data-testid="loopback-warning"' in page) is (not public_url)


def test_the_projectors_qr_code_carries_the_halls_address(settings, client, match):
    settings.ALLOWED_HOSTS = ["127.0.0.1"]
    settings.PUBLIC_URL = "https://scores.example.org"
    tournament = match.round.tournament
    page = Client(HTTP_HOST="127.0.0.1").get(reverse("screen", args=[tournament.slug])).content.decode()
    assert f"https://scores.example.org{tournament.get_absolute_url()}" in page


@pytest.mark.parametrize(
    ("host", "expected"),
    [("127.0.0.1", True), ("127.1.2.3", True), ("localhost", True), ("[::1]", True), ("hall.test", False)],
)
def test_loopback_names_this_machine_only(host, expected):
    assert loopback(host) is expected
