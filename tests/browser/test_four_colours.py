"""The four-colour deck: the footer's switch gives clubs green and diamonds blue on every card (the replay's
trick pictures, the deal log's trumps), and the device remembers it on the next page and the next visit."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.public.helpers import play_deals

pytestmark = pytest.mark.django_db(transaction=True)


def colour(page, selector: str, prop: str = "color") -> str:
    return page.eval_on_selector(selector, f"el => getComputedStyle(el).{prop}")


def test_the_four_colour_switch_colours_clubs_green_and_diamonds_blue_and_is_remembered(
    page, match, director
):
    (deal,) = play_deals(match, director, 1)
    replay = reverse("deal-replay", args=[match.round.tournament.slug, match.pk, deal.number])
    page.goto_path(replay)
    switch = page.locator("[data-deck-switch]")
    assert switch.get_attribute("aria-pressed") == "false"
    spade, club = "svg .card.suit-S", "svg .card.suit-C"
    diamond, heart = "svg .card.suit-D", "svg .card.suit-H"
    two = {s: colour(page, s, "fill") for s in (spade, club, diamond, heart)}
    assert two[club] == two[spade] and two[diamond] == two[heart]  # the usual deck: two colours
    switch.click()
    assert switch.get_attribute("aria-pressed") == "true"
    four = {s: colour(page, s, "fill") for s in (spade, club, diamond, heart)}
    assert (
        len(set(four.values())) == 4
        and four[club] == "rgb(27, 122, 46)"
        and four[diamond] == "rgb(26, 86, 196)"
    )
    log = reverse("deal-log", args=[match.round.tournament.slug, match.pk])
    page.goto_path(log)  # another page: still four colours, from the device's memory
    assert page.locator("html.four-colour").count() == 1
    trump = f"td.suit-{deal.trump}"
    expected = {"C": "rgb(27, 122, 46)", "D": "rgb(26, 86, 196)", "H": "rgb(198, 40, 40)"}.get(deal.trump)
    if expected:
        assert colour(page, trump) == expected
    page.locator("[data-deck-switch]").click()  # and back to two
    page.reload()
    assert page.locator("html.four-colour").count() == 0
