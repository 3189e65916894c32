"""The self check-in tablet's link (a kiosk): issued by the director, it opens the PIN check-in page with no
account signed in, shows no desk navigation, opens nothing else, and stops when revoked."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tournaments.checkin import kiosk
from tournaments.models import CheckIn, CheckInKiosk
from tournaments.table_links.services import make_pin

pytestmark = pytest.mark.django_db


@pytest.fixture
def link(tournament, director) -> str:
    return reverse("kiosk-check-in", args=[tournament.slug, kiosk.issue_kiosk(tournament, director)])


def test_the_director_issues_a_tablet_link_at_the_desk_and_it_is_shown_once(client, tournament, director):
    client.force_login(director)
    page = client.post(reverse("desk-kiosks", args=[tournament.slug])).content.decode()
    shown = re.search(r'data-testid="kiosk-link">[^<]*<br><a href="([^"]+)"', page).group(1)
    client.logout()
    assert client.get(shown).status_code == 200
    assert CheckInKiosk.objects.get().token_hash not in page  # only the hash is kept, never shown


def test_a_tablet_link_checks_a_pair_in_with_its_pin_without_a_directors_session(
    client, tournament, make_pair, director, link
):
    pair = make_pair()
    pin = make_pin(pair, director)
    page = client.get(link)
    assert page.status_code == 200 and pair.name in page.content.decode()
    assert client.post(link, {"pair": pair.pk, "pin": pin}).status_code == 302
    assert CheckIn.objects.get().pair == pair and CheckIn.objects.get().how == "pin"


def test_a_tablet_link_shows_no_desk_navigation_and_signs_nobody_in(client, tournament, link):
    page = client.get(link).content.decode()
    for address in (reverse("desk", args=[tournament.slug]), reverse("admin:index"), reverse("login")):
        assert f'href="{address}' not in page
    desk = client.get(reverse("desk-check-in", args=[tournament.slug]))
    assert desk.status_code == 302 and desk["Location"].startswith(reverse("login"))


def test_a_revoked_or_unknown_tablet_link_opens_nothing(client, tournament, director, link):
    client.force_login(director)
    client.post(reverse("desk-kiosk-revoke", args=[tournament.slug, CheckInKiosk.objects.get().pk]))
    client.logout()
    assert client.get(link).status_code == 404
    assert client.get(reverse("kiosk-check-in", args=[tournament.slug, "x" * 32])).status_code == 404


def test_a_tablet_link_opens_only_its_own_tournament(client, tournament, link):
    other = tournament.__class__.objects.create(name="另一赛事", slug="other")
    assert client.get(link.replace(f"/t/{tournament.slug}/", f"/t/{other.slug}/")).status_code == 404


@pytest.mark.parametrize("method", ["get", "post"])
def test_only_the_director_issues_or_revokes_tablet_links(client, tournament, judge, method):
    url = reverse("desk-kiosks", args=[tournament.slug])
    assert getattr(client, method)(url).status_code == 302
    client.force_login(judge)
    assert getattr(client, method)(url).status_code == 403
    assert not CheckInKiosk.objects.exists()
