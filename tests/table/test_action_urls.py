"""One named address per action (issue 37): each keeps the path the pages always posted to, so the trick-entry
script and the offline journal, which put the action's name into the page's ``deal/<id>/ACTION/``, reach the view
of that action and no other."""

from __future__ import annotations

import re

import pytest
from django.urls import resolve, reverse

from tests.action_urls import DEAL_ACTIONS, MATCH_ACTIONS, deal_url, match_url
from tests.table.helpers import as_user

pytestmark = pytest.mark.django_db


def test_the_page_script_builds_each_actions_own_address(deal, judge):
    page = as_user(judge).get(reverse("deal", args=[deal.pk])).content.decode()
    template = re.search(r'data-action-url="([^"]+)"', page)[1]
    for action in DEAL_ACTIONS:
        built = template.replace("ACTION", action)
        assert built == deal_url(deal.pk, action) == f"/deal/{deal.pk}/{action}/"
        assert resolve(built).url_name == "deal-" + action.replace("_", "-")


def test_each_action_has_a_view_of_its_own():
    deal_views = {resolve(deal_url(1, action)).func for action in DEAL_ACTIONS}
    match_views = {resolve(match_url(1, action)).func for action in MATCH_ACTIONS}
    assert len(deal_views) == len(DEAL_ACTIONS) and len(match_views) == len(MATCH_ACTIONS)
    assert [match_url(3, action) for action in MATCH_ACTIONS] == ["/match/3/call-time/", "/match/3/forfeit/"]
