"""The demo command: 演示赛 with 8 pairs, round 1 paired, a TD and two judges; idempotent."""

from __future__ import annotations

import re
from io import StringIO

import pytest
from django.contrib.auth import authenticate, get_user_model
from django.core.management import call_command
from django.db import transaction
from django.test import Client

from tournaments.competition.access import is_director, is_judge
from tournaments.models import Match, Pair, Player, Round, Tournament


def counts() -> tuple[int, ...]:
    models = (Tournament, Pair, Player, Round, Match, get_user_model())
    return tuple(m.objects.count() for m in models)


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker):
    """The demo command run once for this module (it plays round 1's deals: seconds), inside a transaction each
    test's own nests in and that is rolled back after the last; what it printed."""
    with django_db_blocker.unblock(), transaction.atomic():
        out = StringIO()
        call_command("demo", stdout=out)
        yield out.getvalue()
        transaction.set_rollback(True)


@pytest.mark.django_db
def test_demo_creates_the_tournament_and_prints_passwords(demo):
    tournament = Tournament.objects.get(slug="demo")
    assert tournament.name == "演示赛"
    assert tournament.pairs.count() == 8
    round1 = tournament.rounds.get(number=1)
    paired = [p for m in round1.matches.all() for p in (m.pair_ns_id, m.pair_ew_id)]
    assert sorted(paired) == sorted(tournament.pairs.values_list("pk", flat=True))  # each pair once
    text = demo
    for username in ("director", "judge1", "judge2"):
        assert username in text
    password = re.search(r"^\s*judge\s+judge1\s+(\S+)$", text, re.M).group(1)
    user = authenticate(username="judge1", password=password)
    assert user is not None and is_judge(user)
    assert is_director(get_user_model().objects.get(username="director"))


@pytest.mark.django_db
def test_demo_twice_changes_nothing(demo):
    before = counts()
    call_command("demo", stdout=StringIO())
    assert counts() == before


@pytest.mark.django_db
def test_the_demos_judges_are_named_as_people_on_the_public_matches(demo):
    page = Client().get("/t/demo/").content.decode()
    assert "刘明" in page and "孙丽华" in page
    assert "judge1" not in page and "judge2" not in page


@pytest.mark.django_db
def test_the_overview_links_each_pair_to_its_page_only_while_results_are_public(demo):
    tournament = Tournament.objects.get(slug="demo")
    pair = tournament.pairs.get(name="东风队")
    link = f'href="/t/demo/pairs/{pair.pk}/"'
    page = Client().get("/t/demo/").content.decode()
    assert link in page
    assert "第1轮（已发布）" in page  # the round's state in Chinese brackets, not in English ones
    assert f"{tournament.start_date:%Y-%m-%d}" in page  # dates written as everywhere else on the site
    assert "退赛" not in page  # no empty withdrawn column while no pair has withdrawn
    tournament.public_results = False
    tournament.save()
    assert link not in Client().get("/t/demo/").content.decode()
