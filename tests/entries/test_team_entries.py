"""A team event's entry form takes a team (its name, captain and pairs, one a line), refuses a bad roster in one
sentence, and closing entries makes each accepted entry a team through the desk's own service, its page then
leading to each of its pairs' own pages."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tournaments.entries import services
from tournaments.entries.forms import new_key
from tournaments.entries.links import own_page_path
from tournaments.models import Entry
from tournaments.teams.services import save_team_event

pytestmark = pytest.mark.django_db


def team_data(n: int, **changes) -> dict:
    data = {
        "name": f"雄鹰{n}",
        "captain": f"队长{n}",
        "club": "",
        "contact": "13800000000",
        "pairs": f"张{n}a / 李{n}a\n王{n}b ／ 赵{n}b\n",
        "key": new_key(),
    }
    return {**data, **changes}


@pytest.fixture
def team_event(tournament):
    save_team_event(tournament, tables=2)
    services.open_entries(tournament, capacity=2)
    return tournament


def test_a_team_enters_with_its_captain_and_pairs_and_closing_makes_the_team(client, team_event):
    url = reverse("enter", args=[team_event.slug])
    assert 'data-testid="team-form"' in client.get(url).content.decode()
    answer = client.post(url, team_data(1))
    entry = Entry.objects.get()
    assert answer.status_code == 302 and entry.roster == [["张1a", "李1a"], ["王1b", "赵1b"]]
    assert entry.captain == "队长1" and entry.state == Entry.State.ACCEPTED
    [team] = services.close_entries(team_event)
    entry.refresh_from_db()
    assert entry.team == team and team.roster.count() == 2
    page = client.get(own_page_path(entry)).content.decode()
    assert 'data-testid="team-pairs"' in page and "张1a" in page


@pytest.mark.parametrize(
    "pairs",
    [
        "张三 / 李四",
        "张三 / 李四 / 王五\n赵六 / 钱七",
        "张三 / <b>李四</b>\n赵六 / 钱七",
        "张三 / 李四\n张三 / 钱七",
        "",
    ],
)
def test_a_bad_roster_is_refused_with_one_sentence_and_makes_nothing(client, team_event, pairs):
    answer = client.post(reverse("enter", args=[team_event.slug]), team_data(1, pairs=pairs))
    assert answer.status_code == 400 and not Entry.objects.exists()
    assert 'class="errorlist' in answer.content.decode()


def test_a_player_already_entered_in_another_team_is_refused(client, team_event):
    client.post(reverse("enter", args=[team_event.slug]), team_data(1))
    again = client.post(reverse("enter", args=[team_event.slug]), team_data(2, pairs="张1a / 周\n吴 / 郑"))
    assert again.status_code == 400 and "张1a" in again.content.decode() and Entry.objects.count() == 1
