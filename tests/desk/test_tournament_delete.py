"""Deleting a tournament created by mistake: only one without a round, its name typed first; its pairs and their
players go with it, accounts stay, and its history keeps who deleted it."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import translation

from tests.desk.helpers import delete_url, en, settings_url
from tests.hostile import Form, Sweep, bodies
from tournaments.checkin.forfeits import publish_round
from tournaments.models import Pair, Player, Round, Tournament
from tournaments.pairing.services import pair_round
from tournaments.people.accounts import give_captain_account
from tournaments.setup.forms import (
    DeleteTournamentForm,
)
from tournaments.setup.services import SettingsError, delete_tournament

NEW = reverse("tournament-new")


# ---------------------------------------------------------------- deleting a tournament created by mistake


@pytest.mark.django_db
def test_a_tournament_without_rounds_is_deleted_with_its_pairs_players_and_who_deleted_it(
    director, tournament, make_pair
):
    pairs = [make_pair(), make_pair()]
    account, _password = give_captain_account(pairs[0], "cap")
    players = [pk for p in pairs for pk in (p.player1_id, p.player2_id)]
    delete_tournament(tournament, director)
    assert not Tournament.objects.filter(pk=tournament.pk).exists()
    assert not Pair.objects.filter(pk__in=[p.pk for p in pairs]).exists()
    assert not Player.objects.filter(pk__in=players).exists()
    assert (
        get_user_model().objects.filter(pk=account.pk).exists()
    )  # a captain's account serves other tournaments
    last = Tournament.history.filter(id=tournament.pk).latest("history_date")
    assert (last.history_type, last.history_user) == ("-", director)
    for pair in pairs:
        assert Pair.history.filter(id=pair.pk).latest("history_date").history_user == director


@pytest.mark.django_db
def test_a_player_of_another_tournaments_pair_survives_the_tournaments_deletion(
    director, tournament, make_pair
):
    autumn = Tournament.objects.create(name="秋季赛", slug="autumn")
    pair = make_pair()
    elsewhere = make_pair(t=autumn)
    Pair.objects.filter(pk=elsewhere.pk).update(player2=pair.player1)
    delete_tournament(tournament, director)
    assert Player.objects.filter(pk=pair.player1_id).exists()
    assert not Player.objects.filter(pk=pair.player2_id).exists()
    assert Pair.objects.filter(pk=elsewhere.pk).exists()


@pytest.mark.parametrize(
    ("state", "refusal"),
    [
        ("draft", "Round 1 is a draft: discard it first, then the tournament can be deleted."),
        ("published", "Round 1 is paired: a tournament with rounds cannot be deleted."),
        ("finished", "Round 1 is paired: a tournament with rounds cannot be deleted."),
    ],
)
@pytest.mark.django_db
def test_a_tournament_with_a_round_is_not_deleted(director, tournament, make_pair, state, refusal):
    pair = make_pair()
    Round.objects.create(tournament=tournament, number=1, state=state)
    with translation.override("en"), pytest.raises(SettingsError) as refused:
        delete_tournament(tournament, director)
    assert refused.value.message == refusal and refused.value.status == 409
    assert Tournament.objects.filter(pk=tournament.pk).exists() and Pair.objects.filter(pk=pair.pk).exists()


@pytest.mark.parametrize("typed", ["", "春季", "spring", "春季赛赛", "春季\x00赛", "x" * 300])
@pytest.mark.django_db
def test_a_wrong_typed_name_is_a_form_error_and_deletes_nothing(
    client, director, tournament, make_pair, typed
):
    pair = make_pair()
    assert DeleteTournamentForm({"confirm_name": "春季赛"}, tournament=tournament).is_valid()
    form = DeleteTournamentForm({"confirm_name": typed}, tournament=tournament)
    assert not form.is_valid() and list(form.errors) == ["confirm_name"]
    en(client).force_login(director)
    response = client.post(delete_url(tournament), {"confirm_name": typed})
    assert response.status_code == 200 and 'class="errorlist' in response.content.decode()
    assert Tournament.objects.filter(pk=tournament.pk).exists() and Pair.objects.filter(pk=pair.pk).exists()


@pytest.mark.parametrize(
    ("language", "asked", "wrong_name", "done"),
    [
        (
            "en",
            "Delete 春季赛?",
            "Type the tournament&#x27;s name exactly as it is shown above.",
            "春季赛 is deleted.",
        ),
        ("zh-hans", "删除赛事春季赛？", "请按上面显示的赛事名称原样输入。", "春季赛 已删除。"),
    ],
)
@pytest.mark.django_db
def test_the_director_deletes_a_mistaken_tournament_from_its_settings(
    client, director, tournament, make_pair, language, asked, wrong_name, done
):
    make_pair("东风队")
    make_pair("长城队")
    client.cookies["django_language"] = language
    client.force_login(director)
    assert delete_url(tournament) in client.get(settings_url(tournament)).content.decode()
    page = client.get(delete_url(tournament)).content.decode()
    assert asked in page and "东风队, 长城队" in page and 'name="confirm_name"' in page
    wrong = client.post(delete_url(tournament), {"confirm_name": "春季"}).content.decode()
    assert wrong_name in wrong and asked in wrong  # still the same page, saying why
    response = client.post(delete_url(tournament), {"confirm_name": "春季赛"})
    assert response.status_code == 302 and response["Location"] == reverse("home")
    assert done in client.get(reverse("home")).content.decode()
    assert not Tournament.objects.filter(pk=tournament.pk).exists()


@pytest.mark.parametrize(
    ("language", "refusal"),
    [
        ("en", "Round 1 is paired: a tournament with rounds cannot be deleted."),
        ("zh-hans", "第 1 轮已编排：已有轮次的赛事不能删除。"),
    ],
)
@pytest.mark.django_db
def test_a_tournament_with_rounds_says_why_it_is_not_deleted_in_the_visitors_language(
    client, director, tournament, make_pair, language, refusal
):
    for _ in range(2):
        make_pair()
    publish_round(pair_round(tournament))
    client.cookies["django_language"] = language
    client.force_login(director)
    settings_page = client.get(settings_url(tournament)).content.decode()
    assert refusal in settings_page and delete_url(tournament) not in settings_page
    page = client.get(delete_url(tournament)).content.decode()
    assert refusal in page and 'name="confirm_name"' not in page
    response = client.post(delete_url(tournament), {"confirm_name": "春季赛"})
    assert response.status_code == 409 and refusal in response.content.decode()
    assert Tournament.objects.filter(pk=tournament.pk).exists()


@pytest.mark.django_db
def test_hostile_bodies_on_the_delete_page_are_refused_and_delete_nothing(
    client, director, tournament, make_pair
):
    make_pair()
    client.force_login(director)

    def counts() -> tuple[int, int, int]:
        return Tournament.objects.count(), Pair.objects.count(), Player.objects.count()

    before = counts()
    check = Sweep(unchanged=lambda: counts() == before)
    for label, kwargs in bodies(Form(fields={"confirm_name": [""]})):
        check.request(client, "director", "post", delete_url(tournament), label, **kwargs)
    check.check()
    assert counts() == before
