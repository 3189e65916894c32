"""Issue 38's "Done when", as the director and a visitor walk it, in Chinese: the director assigns levels to a match
in progress on its adjusted results page and its table closes (no new deal offered, none started from the new
deal's page; the public match page shows the ruling and its levels), and a visitor's fixtures page shows the
match day its address asks for. The pages are server-drawn forms (this was a browser test at phone size)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from referee.table.recording import records
from tests.table.helpers import simulated_first
from tests.teams.scene import league
from tournaments.competition.accounts import create_director
from tournaments.setup.demo import create_demo

pytestmark = pytest.mark.django_db


def chinese(user=None) -> Client:
    client = Client()
    client.cookies["django_language"] = "zh-hans"
    if user is not None:
        client.force_login(user)
    return client


def test_assigned_levels_close_the_table_and_the_public_match_page_shows_the_ruling():
    demo = create_demo()
    match = demo.tournament.rounds.get(number=1).matches.get(table=1)
    records.record_deal(match, simulated_first(match), match.judge)  # a match in progress
    director = chinese(User.objects.get(username="director"))
    new_deal = reverse("new_deal", args=[match.pk])
    assert f'href="{new_deal}"' in director.get(reverse("match", args=[match.pk])).content.decode()  # before
    adjust = reverse("desk-adjust", args=[demo.tournament.slug, match.pk])
    fields = {
        "kind": "levels",
        "level_ns": "6",
        "level_ew": "5",
        "reason": "双方同意按第二局结束时的级数结束比赛",
    }
    assert director.post(adjust, fields).status_code == 302
    assert f'href="{new_deal}"' not in director.get(reverse("match", args=[match.pk])).content.decode()
    page = director.get(new_deal).content.decode()
    forms = re.findall(r'<form[^>]*method="post".*?</form>', page, re.S)
    assert not [f for f in forms if 'name="trump"' in f], "no deal can be started"

    public = chinese().get(reverse("match", args=[match.pk])).content.decode()
    box = re.search(r'<div class="result-box(?! adjusted)[^"]*".*?</div>', public, re.S)
    assert box and "裁判长调整" in box.group(0), "the public match page shows the ruling"
    assert 'data-testid="level-NS">6<' in public and 'data-testid="level-EW">5<' in public


def test_a_visitors_fixtures_page_shows_the_match_day_asked_for():
    create_director("td", "director-pass-1")
    t = league()
    page = chinese().get(reverse("team-fixtures", args=[t.slug]) + "?day=3").content.decode()
    assert "第3比赛日" in re.search(r"<h1>(.*?)</h1>", page, re.S).group(1)
    pick = re.search(r'<select[^>]*id="day-pick".*?</select>', page, re.S).group(0)
    assert re.search(r'<option value="3" selected>', pick), pick
