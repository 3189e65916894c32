"""Issue 30 item 7, the review's words: with every trick in and only the kitty missing, the review says the kitty
is what the points wait for (not "every trick")."""

from __future__ import annotations

import pytest
from django.urls import reverse

from referee.table.recording import deal_entry
from tests.table.helpers import as_user, play_through_service, simulated

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("kitty", "says_kitty"), [(False, True), (True, False)])
def test_the_review_says_the_points_wait_for_the_kitty_when_only_the_kitty_is_missing(
    deal, judge, kitty, says_kitty
):
    record = simulated(deal)
    play_through_service(deal, judge, record)
    if kitty:
        deal.refresh_from_db()
        deal_entry.set_kitty(deal, judge, record["kitty"], version=deal.version)
    client = as_user(judge)
    client.cookies["django_language"] = "en"
    page = client.get(reverse("review", args=[deal.pk])).content.decode()
    assert ('data-testid="needs-kitty"' in page) is says_kitty
    assert ("every trick is in" in page) is says_kitty
