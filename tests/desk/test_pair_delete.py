"""Deleting a pair entered by mistake: only one never placed in a round, with its players no other pair uses; its
captain's account stays and its history keeps who deleted it."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.desk.helpers import en
from tournaments.models import Bye, Match, Pair, Player, Round, Tournament
from tournaments.pairing.services import pair_round
from tournaments.people.accounts import give_captain_account
from tournaments.people.errors import PeopleError
from tournaments.people.pairs import delete_pair, sharing_pairs

# --- deleting a pair entered by mistake ---------------------------------------------------------------------


def pair_url(name: str, pair) -> str:
    return reverse(name, args=[pair.tournament.slug, pair.pk])


def place(pair: Pair, other: Pair, where: str) -> None:
    """Put ``pair`` in round 1 (``draft``, ``published`` or ``finished``) at a table (NS or EW) or on a bye."""
    state, _sep, seat = where.partition(" ")
    rnd = Round.objects.create(tournament=pair.tournament, number=1, state=state)
    if seat == "bye":
        Bye.objects.create(round=rnd, pair=pair)
    else:
        ns, ew = (pair, other) if seat == "NS" else (other, pair)
        Match.objects.create(round=rnd, table=1, pair_ns=ns, pair_ew=ew)


@pytest.mark.django_db
def test_a_pair_never_placed_in_a_round_is_deleted_with_its_players(director, make_pair):
    pair, kept = make_pair(), make_pair()
    players = [pair.player1_id, pair.player2_id]
    delete_pair(pair, by=director)
    assert not Pair.objects.filter(pk=pair.pk).exists()
    assert not Player.objects.filter(pk__in=players).exists()
    assert Pair.objects.filter(pk=kept.pk).exists()
    assert Player.objects.filter(pk__in=[kept.player1_id, kept.player2_id]).count() == 2


PLACES = {
    "draft NS": "is placed in the draft of round 1: edit or discard the draft first.",
    "draft EW": "is placed in the draft of round 1: edit or discard the draft first.",
    "draft bye": "is placed in the draft of round 1: edit or discard the draft first.",
    "published NS": "is paired in round 1: a pair that has been paired is not deleted; withdraw it instead.",
    "published EW": "is paired in round 1: a pair that has been paired is not deleted; withdraw it instead.",
    "published bye": "is paired in round 1: a pair that has been paired is not deleted; withdraw it instead.",
    "finished NS": "is paired in round 1: a pair that has been paired is not deleted; withdraw it instead.",
}


@pytest.mark.parametrize("where", list(PLACES))
@pytest.mark.django_db
def test_a_pair_placed_in_a_round_is_not_deleted_and_the_refusal_says_what_to_do(director, make_pair, where):
    pair, other = make_pair("错队"), make_pair()
    place(pair, other, where)
    with translation.override("en"), pytest.raises(PeopleError) as refused:
        delete_pair(pair, by=director)
    assert refused.value.status == 409
    assert refused.value.message == f"错队 {PLACES[where]}"
    assert Pair.objects.filter(pk=pair.pk).exists()
    assert Player.objects.filter(pk__in=[pair.player1_id, pair.player2_id]).count() == 2


@pytest.mark.django_db
def test_a_published_round_is_named_before_a_draft_one(make_pair):
    pair, other = make_pair("错队"), make_pair()
    place(pair, other, "published NS")
    draft = Round.objects.create(tournament=pair.tournament, number=2, state=Round.State.DRAFT)
    Bye.objects.create(round=draft, pair=pair)
    with translation.override("en"), pytest.raises(PeopleError) as refused:
        delete_pair(pair)
    assert "is paired in round 1" in refused.value.message and "withdraw it instead" in refused.value.message


@pytest.mark.django_db
def test_a_player_another_pair_uses_survives_the_pairs_deletion(make_pair):
    autumn = Tournament.objects.create(name="秋季赛", slug="autumn")
    pair = make_pair()
    elsewhere = Pair.objects.create(
        tournament=autumn, name="老友队", player1=pair.player1, player2=Player.objects.create(name="新人")
    )
    assert sharing_pairs(pair) == [(pair.player1, [elsewhere]), (pair.player2, [])]
    delete_pair(pair)
    assert Player.objects.filter(pk=pair.player1_id).exists()
    assert not Player.objects.filter(pk=pair.player2_id).exists()
    elsewhere.refresh_from_db()
    assert elsewhere.player1_id == pair.player1_id


@pytest.mark.django_db
def test_the_captains_account_survives_its_pairs_deletion(director, make_pair):
    pair = make_pair()
    account, password = give_captain_account(pair, "cap")
    delete_pair(pair, by=director)
    account.refresh_from_db()
    assert account.is_active and not account.captained_pairs.exists()
    assert Client().login(username="cap", password=password)


@pytest.mark.django_db
def test_the_pairs_history_keeps_who_deleted_it_and_when(director, make_pair):
    pair = make_pair("错队")
    delete_pair(pair, by=director)
    last = Pair.history.filter(id=pair.pk).latest("history_date")
    assert (last.history_type, last.name, last.history_user) == ("-", "错队", director)


@pytest.mark.django_db
def test_a_pair_deleted_twice_is_refused_in_words(make_pair):
    pair = make_pair()
    delete_pair(pair)
    with translation.override("en"), pytest.raises(PeopleError) as refused:
        delete_pair(pair)
    assert refused.value.status == 404 and refused.value.message == f"{pair.name} is already deleted."


@pytest.mark.parametrize(
    ("language", "asked", "done"),
    [("en", "Delete 错队?", "错队 is deleted."), ("zh-hans", "删除错队？", "错队 已删除。")],
)
@pytest.mark.django_db
def test_the_director_deletes_a_mistaken_pair_from_its_page(
    client, director, make_pair, language, asked, done
):
    pair = make_pair("错队")
    give_captain_account(pair, "cap")
    client.cookies["django_language"] = language
    client.force_login(director)
    edit = client.get(pair_url("desk-pair-edit", pair)).content.decode()
    assert pair_url("desk-pair-delete", pair) in edit
    page = client.get(pair_url("desk-pair-delete", pair)).content.decode()
    assert asked in page and pair.player1.name in page and pair.player2.name in page and "cap" in page
    assert Pair.objects.filter(pk=pair.pk).exists()  # asking is not deleting
    response = client.post(pair_url("desk-pair-delete", pair))
    assert response.status_code == 302
    assert response["Location"] == reverse("desk-pairs", args=[pair.tournament.slug])
    assert done in client.get(response["Location"]).content.decode()
    assert not Pair.objects.filter(pk=pair.pk).exists()
    assert Pair.history.filter(id=pair.pk).latest("history_date").history_user == director


@pytest.mark.parametrize(
    ("language", "refusal"),
    [
        ("en", "错队 is paired in round 1: a pair that has been paired is not deleted; withdraw it instead."),
        ("zh-hans", "错队 已编入第 1 轮：编排过的搭档不能删除，请改为让其退赛。"),
    ],
)
@pytest.mark.django_db
def test_a_paired_pairs_page_says_why_it_is_not_deleted_in_the_visitors_language(
    client, director, make_pair, language, refusal
):
    pair = make_pair("错队")
    place(pair, make_pair(), "published EW")
    client.cookies["django_language"] = language
    client.force_login(director)
    edit = client.get(pair_url("desk-pair-edit", pair)).content.decode()
    assert refusal in edit and pair_url("desk-pair-delete", pair) not in edit
    page = client.get(pair_url("desk-pair-delete", pair))
    assert page.status_code == 200 and refusal in page.content.decode()
    assert '<form method="post" class="actions">' not in page.content.decode()
    response = client.post(pair_url("desk-pair-delete", pair))
    assert response.status_code == 409 and refusal in response.content.decode()
    assert Pair.objects.filter(pk=pair.pk).exists()


@pytest.mark.django_db
def test_a_pair_paired_after_its_delete_page_was_opened_is_not_deleted(
    client, director, tournament, make_pair
):
    pairs = [make_pair() for _ in range(4)]
    en(client).force_login(director)
    page = client.get(pair_url("desk-pair-delete", pairs[0])).content.decode()
    assert "Delete the pair" in page
    pair_round(tournament)  # the draft is made while the page is open
    response = client.post(pair_url("desk-pair-delete", pairs[0]))
    assert response.status_code == 409
    refused = response.content.decode()
    assert "is placed in the draft of round 1: edit or discard the draft first." in refused
    assert reverse("desk-round", args=[tournament.slug, 1]) in refused  # the draft, to edit or discard
    assert Pair.objects.filter(pk=pairs[0].pk).exists()


@pytest.mark.django_db
def test_the_delete_page_names_the_players_kept_and_their_other_pairs(client, director, make_pair):
    autumn = Tournament.objects.create(name="秋季赛", slug="autumn")
    pair = make_pair()
    Pair.objects.create(
        tournament=autumn, name="老友队", player1=Player.objects.create(name="新人"), player2=pair.player2
    )
    en(client).force_login(director)
    html = client.get(pair_url("desk-pair-delete", pair)).content.decode()
    first, second = html.split(pair.player1.name, 1)[1].split(pair.player2.name, 1)
    assert "deleted" in first and "kept" not in first
    assert "kept" in second and "老友队 (秋季赛)" in second


def test_a_team_roster_pair_that_never_played_is_refused_in_words_naming_the_team(client, director):
    from tests.teams.scene import league

    t = league()
    team = t.teams.order_by("pk").first()
    pair = team.roster.order_by("pk").first().pair
    with translation.override("en"), pytest.raises(PeopleError) as refused:
        delete_pair(pair, director)
    assert team.name in str(refused.value) and Pair.objects.filter(pk=pair.pk).exists()
    en(client).force_login(director)
    response = client.post(pair_url("desk-pair-delete", pair))
    assert response.status_code in (302, 409) and Pair.objects.filter(pk=pair.pk).exists()
