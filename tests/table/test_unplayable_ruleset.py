"""A stored ruleset the engine refuses (issue 20: decks = 8 saved before the engine checked it) gives every page and
judge's action of the tournament one sentence and a 409, not a 500; the director can still open the settings."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from referee.table.recording import deal_entry
from tests.action_urls import deal_url
from tournaments.models import Tournament

JSON = {"HTTP_ACCEPT": "application/json"}
UNPLAYABLE = [
    ({"preset": "standard", "decks": 8}, "decks"),
    ({"preset": "standard", "kitty_cards": 112}, "kitty"),
    ({"preset": "standard", "time_limit_minutes": 10**30}, "time"),
    ({"preset": "no-such-preset"}, "preset"),
    ("no-such-preset", "preset"),
]


def as_user(user) -> Client:
    client = Client()
    client.force_login(user)
    client.cookies["django_language"] = "en"
    return client


def break_ruleset(match, spec) -> None:
    """Write the ruleset straight to the database, as a ruleset stored before the engine checked it."""
    Tournament.objects.filter(pk=match.round.tournament_id).update(ruleset=spec)


@pytest.fixture
def deal(match, judge):
    return deal_entry.start_deal(match, judge, trump="S", declarer="N")


def one_sentence(text: str) -> bool:
    return text.count(". ") == 0 and text.rstrip().endswith(".")


@pytest.mark.django_db
@pytest.mark.parametrize(("spec", "named"), UNPLAYABLE)
def test_the_deal_page_meeting_an_unplayable_ruleset_says_so_in_one_sentence(deal, judge, spec, named):
    break_ruleset(deal.match, spec)
    response = as_user(judge).get(reverse("deal", args=[deal.pk]))
    assert response.status_code == 409
    text = response.content.decode()
    assert "ruleset cannot be played" in text and named in text.lower()


@pytest.mark.django_db
@pytest.mark.parametrize(("spec", "named"), UNPLAYABLE[:2])
@pytest.mark.parametrize(
    ("action", "fields"),
    [
        (None, {}),
        ("play", {"cards": "SA", "version": 0}),
        ("kitty", {"cards": "S2 S3 S4 S5 S6 S7 S8 S9", "version": 0}),
        ("submit", {"version": 0}),
    ],
)
def test_the_judges_json_endpoints_meeting_an_unplayable_ruleset_answer_409_with_the_sentence(
    deal, judge, spec, named, action, fields
):
    break_ruleset(deal.match, spec)
    client = as_user(judge)
    if action is None:
        response = client.get(reverse("deal_state", args=[deal.pk]), **JSON)
    else:
        response = client.post(deal_url(deal.pk, action), fields, **JSON)
    assert response.status_code == 409
    body = response.json()
    assert body["ok"] is False and body["error"] == "ruleset"
    assert one_sentence(body["message"]) and named in body["message"].lower()


@pytest.mark.django_db
def test_the_director_still_opens_and_corrects_an_unplayable_ruleset(deal, director):
    from tests.desk.helpers import settings_data

    break_ruleset(deal.match, {"preset": "standard", "decks": 8})
    tournament = Tournament.objects.get(pk=deal.match.round.tournament_id)
    client = as_user(director)
    url = reverse("desk-settings", args=[tournament.slug])
    page = client.get(url)
    assert page.status_code == 200
    refused = client.post(url, settings_data(tournament, **{"rules-decks": "8"}))
    assert refused.status_code == 400
    assert "Play with one to four decks." in refused.context["rules"].errors["decks"]
    corrected = client.post(url, settings_data(tournament, confirm_rescore="1", **{"rules-decks": "2"}))
    assert corrected.status_code == 302, corrected.context["rules"].errors if corrected.context else ""
    tournament.refresh_from_db()
    assert tournament.ruleset == "standard"
