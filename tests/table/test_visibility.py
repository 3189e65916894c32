"""Who sees a match: the permission matrix of the match page and the tournament page.

Rows: anonymous, a logged-in spectator, the table's judge, another judge, a captain, the director; columns: a
public or hidden tournament, the public switches all on or all off, a published or draft round. The expected
answers are written out, not derived from ``tournaments.competition.access``; docs/decisions/0012-who-sees-a-match.md states them.

The people and the played match are built once for the module (``scene``, rolled back at its end) and read
again for each test inside its own savepoint, so what one test configures or confirms is undone before the next.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from referee.table.recording import deal_entry, records
from rules.simulate import simulate_deal
from tests.table.helpers import module_transaction, one_match, table_judge
from tournaments.competition.accounts import create_director
from tournaments.models import Deal, Match, Round
from tournaments.scoring import corrections

pytestmark = pytest.mark.django_db
SWITCHES = ("public_standings", "public_pairings", "public_results", "public_deal_log")
PEOPLE = ("anonymous", "spectator", "table judge", "other judge", "captain", "director")


def build_scene() -> dict:
    """The conftest's match (its tournament, round, pairs and judge) with the other people and one confirmed
    deal: the ids of each."""
    User = get_user_model()
    director = create_director("td", "director-pass-1")
    match = one_match("spring", table_judge("judge"))
    captain = User.objects.create_user("captain", password="captain-pass-1")
    match.pair_ew.captain = captain
    match.pair_ew.save()
    record = simulate_deal("standard", banker="N", level="2", seed=11)
    record["ruleset"] = match.round.tournament.ruleset
    deal = records.record_deal(match, record, director)
    people = {
        "anonymous": None,
        "spectator": User.objects.create_user("fan", password="fan-pass-123"),
        "table judge": match.judge,
        "other judge": table_judge("other"),
        "captain": captain,
        "director": director,
    }
    return {
        "people": {who: (user.pk if user else None) for who, user in people.items()},
        "match": match.pk,
        "deal": deal.pk,
    }


@pytest.fixture(scope="module")
def scene(django_db_setup, django_db_blocker) -> Iterator[dict]:
    """Built once per module (``module_transaction``): each test runs in its own savepoint."""
    with module_transaction(django_db_blocker):
        yield build_scene()


@pytest.fixture
def people(scene):
    users = get_user_model().objects.in_bulk([pk for pk in scene["people"].values() if pk])
    return {who: (users[pk] if pk else None) for who, pk in scene["people"].items()}


@pytest.fixture
def played(scene):
    """The match with one confirmed deal and levels a page would show (read again: a test's writes are its own)."""
    return Match.objects.get(pk=scene["match"]), Deal.objects.get(pk=scene["deal"])


def as_user(user) -> Client:
    c = Client()
    c.cookies["django_language"] = "en"
    if user is not None:
        c.force_login(user)
    return c


def configure(match, *, public: bool, switches: bool, draft: bool) -> None:
    t = match.round.tournament
    t.is_public = public
    for switch in SWITCHES:
        setattr(t, switch, switches)
    t.save()
    Round.objects.filter(pk=match.round_id).update(
        state=Round.State.DRAFT if draft else Round.State.PUBLISHED
    )


INSIDERS = ("table judge", "other judge", "captain", "director")

# (who, public tournament, switches on, draft round) -> what the match page shows: None (404) or the parts shown.
FULL = {"results": True, "deals": True}
NOTHING = None


def expected_match_page(who: str, public: bool, switches: bool, draft: bool):
    table = {
        # published round
        ("anonymous", True, True, False): FULL,
        ("anonymous", True, False, False): NOTHING,
        ("anonymous", False, True, False): NOTHING,
        ("anonymous", False, False, False): NOTHING,
        ("spectator", True, True, False): FULL,
        ("spectator", True, False, False): NOTHING,
        ("spectator", False, True, False): NOTHING,
        ("spectator", False, False, False): NOTHING,
    }
    if draft:
        return FULL if who == "director" else NOTHING
    if who in INSIDERS:
        return FULL
    return table[(who, public, switches, draft)]


MATRIX = [
    (who, public, switches, draft)
    for who in PEOPLE
    for public in (True, False)
    for switches in (True, False)
    for draft in (False, True)
]


@pytest.mark.parametrize(("who", "public", "switches", "draft"), MATRIX)
def test_the_match_page_matrix(people, played, who, public, switches, draft):
    match, deal = played
    configure(match, public=public, switches=switches, draft=draft)
    response = as_user(people[who]).get(reverse("match", args=[match.pk]))
    expected = expected_match_page(who, public, switches, draft)
    if expected is None:
        assert response.status_code == 404
        return
    assert response.status_code == 200
    html = response.content.decode()
    assert match.pair_ns.name in html
    assert ('data-testid="level-NS"' in html) is expected["results"]
    assert ('class="result-box"' in html or "Next banker" in html) is expected["results"]
    assert (f'data-deal="{deal.number}"' in html) is expected["deals"]


@pytest.mark.parametrize(("who", "public", "switches", "draft"), MATRIX)
def test_the_deal_pages_follow_the_match_page(people, played, who, public, switches, draft):
    match, deal = played
    configure(match, public=public, switches=switches, draft=draft)
    expected = expected_match_page(who, public, switches, draft)
    response = as_user(people[who]).get(reverse("review", args=[deal.pk]))
    if who == "anonymous":  # readable when the deal log is public (issue 20 item 10), else sent to log in
        assert response.status_code == (200 if expected and expected["deals"] else 302)
    else:
        assert response.status_code == (200 if expected and expected["deals"] else 404)


@pytest.mark.parametrize(
    ("on", "results", "deals"),
    [
        ({"public_pairings"}, False, False),
        ({"public_pairings", "public_results"}, True, False),
        ({"public_pairings", "public_deal_log"}, False, True),
        ({"public_results", "public_deal_log", "public_standings"}, None, None),  # no pairing: no match page
    ],
)
def test_each_switch_opens_its_part_of_the_match_page_to_the_public(people, played, on, results, deals):
    match, deal = played
    configure(match, public=True, switches=False, draft=False)
    t = match.round.tournament
    for switch in on:
        setattr(t, switch, True)
    t.save()
    response = as_user(None).get(reverse("match", args=[match.pk]))
    if results is None:
        assert response.status_code == 404
        return
    html = response.content.decode()
    assert match.pair_ns.name in html and match.pair_ew.name in html
    assert ('data-testid="level-NS"' in html) is results
    assert (f'data-deal="{deal.number}"' in html) is deals
    assert as_user(people["spectator"]).get(reverse("deal_state", args=[deal.pk])).status_code == (
        200 if deals else 404
    )


@pytest.mark.parametrize(
    ("on", "matches", "levels"),
    [
        (set(SWITCHES), True, True),
        (set(), False, False),
        ({"public_pairings"}, True, False),
        ({"public_results"}, False, False),
    ],
)
def test_the_tournament_page_lists_matches_and_levels_by_switch(people, played, on, matches, levels):
    match, _deal = played
    match.level_ns, match.level_ew = "9", "J"
    match.save()
    configure(match, public=True, switches=False, draft=False)
    t = match.round.tournament
    for switch in on:
        setattr(t, switch, True)
    t.save()
    html = as_user(None).get(t.get_absolute_url()).content.decode()
    assert (f'href="{match.get_absolute_url()}"' in html) is matches
    assert ("9 : J" in html) is levels
    director_view = as_user(people["director"]).get(t.get_absolute_url()).content.decode()
    assert f'href="{match.get_absolute_url()}"' in director_view and "9 : J" in director_view


# ------------------------------------------------------------------ the second person in a hidden tournament


@pytest.mark.parametrize(
    ("who", "status", "confirmed"),
    [
        ("captain", 200, True),
        ("other judge", 200, True),
        ("director", 200, True),
        ("table judge", 403, False),  # the submitter: another person must confirm
        ("spectator", 404, False),
    ],
)
def test_a_hidden_tournament_lets_the_second_person_open_and_confirm(people, played, who, status, confirmed):
    match, deal = played
    configure(match, public=False, switches=True, draft=False)
    corrections.reopen_deal(deal, people["director"], version=deal.version, reason="a correction")
    deal.refresh_from_db()
    deal_entry.submit_deal(deal, people["table judge"], version=deal.version)
    deal.refresh_from_db()
    c = as_user(people[who])
    assert c.get(reverse("match", args=[match.pk])).status_code == (404 if status == 404 else 200)
    response = c.post(
        reverse("deal-confirm", args=[deal.pk]),
        {"version": deal.version},
        HTTP_ACCEPT="application/json",
    )
    assert response.status_code == status
    deal.refresh_from_db()
    assert (deal.state == Deal.State.CONFIRMED) is confirmed
