"""Pairs and players, judges at the desk: the forms, who may open each page, withdrawal with its forfeits, late
entries, deleting a pair entered by mistake, captains' and judges' accounts and passwords, a table's judge changed after publishing, the public
withdrawn column."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.desk.helpers import en, finish
from tournaments.competition import access
from tournaments.models import Bye, Match, Pair, Player, Round, Tournament
from tournaments.pairing.services import pair_round, publish_round
from tournaments.people.forms import CaptainForm, JudgeForm, PairForm, TableJudgeForm
from tournaments.people.services import (
    PairEntry,
    PeopleError,
    assign_judge,
    create_director_account,
    create_judge,
    delete_pair,
    give_captain_account,
    late_entry_note,
    late_entry_round,
    remove_captain_account,
    reset_captain_password,
    reset_password,
    save_pair,
    set_active,
    set_withdrawn,
    sharing_pairs,
)

PAIR = {"name": "新队", "player1": "王一", "player2": "李二", "club": "朝阳", "seed": "9"}


# --- the forms ---------------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_pair_form_takes_a_new_pair(tournament, make_pair):
    make_pair()
    form = PairForm(PAIR, tournament=tournament)
    assert form.is_valid(), form.errors
    assert form.entry() == PairEntry(name="新队", player1="王一", player2="李二", club="朝阳", seed=9)


@pytest.mark.django_db
def test_the_pair_form_keeps_an_edited_pairs_own_name_and_seed(tournament, make_pair):
    pair = make_pair("老队")
    form = PairForm({**PAIR, "name": "老队", "seed": str(pair.seed)}, tournament=tournament, pair=pair)
    assert form.is_valid(), form.errors


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("name", ""),
        ("name", "队" * 101),
        ("name", "队1"),  # another pair's name
        ("name", "a\x00b"),
        ("player1", ""),
        ("player1", "王" * 101),
        ("player2", ""),
        ("player2", "王一"),  # the same as player 1
        ("club", "会" * 101),
        ("seed", "0"),
        ("seed", "-3"),
        ("seed", "40000"),
        ("seed", "first"),
        ("seed", "1"),  # another pair's seed
    ],
)
@pytest.mark.django_db
def test_the_pair_form_refuses_each_bad_field(tournament, make_pair, field, value):
    make_pair()  # 队1, seed 1
    form = PairForm({**PAIR, field: value}, tournament=tournament)
    assert not form.is_valid()
    assert list(form.errors) == [field]


@pytest.mark.django_db
def test_the_judge_form_takes_a_new_account(db):
    form = JudgeForm({"username": "zhang.wei", "name": "张伟"})
    assert form.is_valid(), form.errors


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("username", ""),
        ("username", "has space"),
        ("username", "x" * 151),
        ("username", "JUDGE"),  # taken, whatever the case
        ("name", "名" * 151),
    ],
)
@pytest.mark.django_db
def test_the_judge_form_refuses_each_bad_field(judge, field, value):
    form = JudgeForm({"username": "new-judge", "name": "新裁判", field: value})
    assert not form.is_valid()
    assert list(form.errors) == [field]


@pytest.mark.django_db
def test_the_table_judge_form_offers_active_judges_only(judge, make_judge, director):
    retired = make_judge("retired")
    set_active(retired, False)
    assert TableJudgeForm({"judge": judge.pk}).is_valid()
    assert TableJudgeForm({"judge": ""}).is_valid()  # no judge
    for bad in (retired.pk, director.pk, "x", "99999"):
        form = TableJudgeForm({"judge": bad})
        assert not form.is_valid() and list(form.errors) == ["judge"]


# --- who may open each page --------------------------------------------------------------------------------

# Directors are site-wide (a superuser in the director group): there is no director of another tournament.
PAGES = [
    ("get", "desk-pairs", lambda t, p, m, j: []),
    ("get", "desk-pair-add", lambda t, p, m, j: []),
    ("post", "desk-pair-add", lambda t, p, m, j: []),
    ("get", "desk-pair-edit", lambda t, p, m, j: [p.pk]),
    ("get", "desk-pair-withdraw", lambda t, p, m, j: [p.pk]),
    ("post", "desk-pair-withdraw", lambda t, p, m, j: [p.pk]),
    ("post", "desk-pair-reinstate", lambda t, p, m, j: [p.pk]),
    ("get", "desk-pair-delete", lambda t, p, m, j: [p.pk]),
    ("get", "desk-pair-delete", lambda t, p, m, j: [unpaired(t).pk]),
    ("post", "desk-pair-delete", lambda t, p, m, j: [unpaired(t).pk]),
    ("get", "desk-pair-captain", lambda t, p, m, j: [p.pk]),
    ("post", "desk-pair-captain", lambda t, p, m, j: [p.pk]),
    ("post", "desk-pair-captain-password", lambda t, p, m, j: [p.pk]),
    ("post", "desk-pair-captain-remove", lambda t, p, m, j: [p.pk]),
    ("get", "desk-judges", lambda t, p, m, j: []),
    ("get", "desk-judge-add", lambda t, p, m, j: []),
    ("get", "desk-judge-password", lambda t, p, m, j: [j.pk]),
    ("post", "desk-judge-password", lambda t, p, m, j: [j.pk]),
    ("post", "desk-judge-active", lambda t, p, m, j: [j.pk]),
    ("get", "desk-round-judges", lambda t, p, m, j: [1]),
    ("post", "desk-table-judge", lambda t, p, m, j: [m.pk]),
    ("get", "desk-directors", lambda t, p, m, j: []),
    ("get", "desk-director-add", lambda t, p, m, j: []),
    ("post", "desk-director-add", lambda t, p, m, j: []),
]


def unpaired(t: Tournament) -> Pair:
    """A pair never placed in a round (one the director may delete)."""
    return Pair.objects.create(
        tournament=t,
        name="未编排队",
        player1=Player.objects.create(name="丙"),
        player2=Player.objects.create(name="丁"),
    )


@pytest.fixture
def captain(match):
    user = get_user_model().objects.create_user(username="captain", password="captain-pass-1")
    Pair.objects.filter(pk=match.pair_ns_id).update(captain=user)
    return user


@pytest.mark.parametrize(
    ("method", "name", "args"), PAGES, ids=[f"{m} {n} {i}" for i, (m, n, _a) in enumerate(PAGES)]
)
@pytest.mark.parametrize("who", ["anonymous", "judge", "captain", "director"])
@pytest.mark.django_db
def test_only_the_director_opens_the_people_pages(
    client, match, judge, captain, director, make_judge, method, name, args, who
):
    other_judge = make_judge("other")
    t = match.round.tournament
    url = reverse(name, args=[t.slug, *args(t, match.pair_ns, match, other_judge)])
    users = {"anonymous": None, "judge": judge, "captain": captain, "director": director}
    if users[who]:
        client.force_login(users[who])
    response = getattr(client, method)(url)
    if who == "anonymous":
        assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    elif who == "director":
        assert response.status_code in (200, 302)
    else:
        assert response.status_code == 403


@pytest.mark.django_db
def test_the_desk_links_the_people_pages(client, director, tournament):
    client.force_login(director)
    html = client.get(reverse("desk", args=[tournament.slug])).content.decode()
    assert reverse("desk-pairs", args=[tournament.slug]) in html
    assert reverse("desk-judges", args=[tournament.slug]) in html


# --- pairs -------------------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_director_adds_and_edits_a_pair(client, director, tournament):
    client.force_login(director)
    response = client.post(reverse("desk-pair-add", args=[tournament.slug]), PAIR)
    assert response.status_code == 302
    pair = tournament.pairs.get(name="新队")
    assert (pair.player1.name, pair.player2.name, pair.club, pair.seed) == ("王一", "李二", "朝阳", 9)
    edit = {**PAIR, "name": "更名队", "player2": "赵三", "seed": ""}
    client.post(reverse("desk-pair-edit", args=[tournament.slug, pair.pk]), edit)
    pair = Pair.objects.select_related("player2").get(pk=pair.pk)
    assert (pair.name, pair.player2.name, pair.seed) == ("更名队", "赵三", None)


@pytest.mark.django_db
def test_a_bad_pair_is_shown_again_with_the_error_next_to_its_field(client, director, tournament, make_pair):
    make_pair()
    en(client).force_login(director)
    response = client.post(reverse("desk-pair-add", args=[tournament.slug]), {**PAIR, "seed": "1"})
    assert response.status_code == 200
    assert "Another pair has this seed." in response.content.decode()
    assert not tournament.pairs.filter(name="新队").exists()


@pytest.mark.django_db
def test_the_service_checks_a_clash_again(tournament, make_pair):
    make_pair("队1")
    with pytest.raises(PeopleError):
        save_pair(tournament, PairEntry(name="队1", player1="甲", player2="乙"))
    with pytest.raises(PeopleError):
        save_pair(tournament, PairEntry(name="新", player1="甲", player2="甲"))


@pytest.mark.django_db
def test_a_pair_of_another_tournament_is_not_found(client, director, make_pair):
    other = Tournament.objects.create(name="秋季赛", slug="autumn")
    pair = make_pair(t=other)
    client.force_login(director)
    assert client.get(reverse("desk-pair-edit", args=["spring", pair.pk])).status_code == 404


@pytest.mark.django_db
def test_a_late_entry_plays_the_next_swiss_round(tournament, make_pair):
    for _ in range(4):
        make_pair()
    assert late_entry_round(tournament) is None and late_entry_note(tournament) == ""
    r1 = pair_round(tournament)
    assert late_entry_round(tournament) == 1  # the draft: the TD places it, else round 2
    publish_round(r1)
    for m in r1.matches.all():
        finish(m, m.pair_ns)
    late = save_pair(tournament, PairEntry(name="迟到队", player1="迟一", player2="迟二"))
    assert late_entry_round(tournament) == 2
    r2 = pair_round(tournament)
    placed = {p for m in r2.matches.all() for p in (m.pair_ns_id, m.pair_ew_id)}
    assert late.pk in placed | set(r2.byes.values_list("pair_id", flat=True))


@pytest.mark.django_db
def test_the_add_page_says_when_a_late_entry_plays(client, director, tournament, make_pair):
    for _ in range(4):
        make_pair()
    publish_round(pair_round(tournament))
    en(client).force_login(director)
    html = client.get(reverse("desk-pair-add", args=[tournament.slug])).content.decode()
    assert "this pair enters the pairing of round 2" in html


@pytest.mark.django_db
def test_a_round_robin_says_a_late_entry_is_not_scheduled(make_pair):
    t = Tournament.objects.create(name="RR", slug="rr", format=Tournament.Format.ROUND_ROBIN, num_rounds=3)
    for _ in range(4):
        make_pair(t=t)
    pair_round(t)
    with translation.override("en"):  # not whatever language the worker's last request left active
        assert late_entry_round(t) == 0 and "not scheduled" in str(late_entry_note(t))


@pytest.mark.django_db
def test_withdrawing_asks_first_then_offers_the_forfeit_of_each_open_match(client, director, match):
    pair, t = match.pair_ns, match.round.tournament
    en(client).force_login(director)
    url = reverse("desk-pair-withdraw", args=[t.slug, pair.pk])
    asked = client.get(url).content.decode()
    assert "Withdraw the pair" in asked and "1 published match not finished" in asked
    pair.refresh_from_db()
    assert not pair.withdrawn
    done = client.post(url, follow=True).content.decode()
    pair.refresh_from_db()
    assert pair.withdrawn
    forfeit = reverse("match_action", args=[match.pk, "forfeit"])
    assert forfeit in done and 'name="side" value="NS"' in done
    assert "Record the forfeit of" in done


@pytest.mark.django_db
def test_the_forfeit_offered_after_a_withdrawal_finishes_the_match(client, director, match):
    pair, t = match.pair_ew, match.round.tournament
    client.force_login(director)
    client.post(reverse("desk-pair-withdraw", args=[t.slug, pair.pk]))
    client.post(
        reverse("match_action", args=[match.pk, "forfeit"]),
        {"side": "EW", "idempotency_key": "withdraw-forfeit-1"},
    )
    match.refresh_from_db()
    assert (match.state, match.forfeited_by, match.winner_id) == (
        Match.State.FINISHED,
        "EW",
        match.pair_ns_id,
    )
    en(client)
    html = client.get(reverse("desk-pair-withdraw", args=[t.slug, pair.pk])).content.decode()
    assert "no published match left to play" in html


WITHDRAW_NEXT = [
    ("withdraw page", True),
    ("https://evil.example/t/spring/", False),
    ("//evil.example/", False),
    ("javascript:alert(1)", False),
]


@pytest.mark.parametrize(("target", "kept"), WITHDRAW_NEXT, ids=[t for t, _k in WITHDRAW_NEXT])
@pytest.mark.django_db
def test_after_the_forfeit_the_director_lands_back_on_the_withdraw_page_and_nowhere_off_site(
    client, director, match, target, kept
):
    pair, t = match.pair_ns, match.round.tournament
    en(client).force_login(director)
    back = reverse("desk-pair-withdraw", args=[t.slug, pair.pk])
    page = client.post(back, follow=True).content.decode()
    assert f'name="next" value="{back}"' in page
    response = client.post(
        reverse("match_action", args=[match.pk, "forfeit"]),
        {"side": "NS", "idempotency_key": f"forfeit-{kept}", "next": back if kept else target},
    )
    assert response.status_code == 302
    assert response.url == (back if kept else reverse("match", args=[match.pk]))
    match.refresh_from_db()
    assert match.forfeited_by == "NS"
    landed = client.get(response.url).content.decode()
    assert f"Forfeit recorded: {match.pair_ew.name} wins the match." in landed


@pytest.mark.django_db
def test_withdrawing_and_reinstating_a_pair_are_kept_in_its_history_with_who_and_when(
    client, director, match
):
    pair, t = match.pair_ns, match.round.tournament
    client.force_login(director)
    client.post(reverse("desk-pair-withdraw", args=[t.slug, pair.pk]))
    client.post(reverse("desk-pair-reinstate", args=[t.slug, pair.pk]))
    changes = list(pair.history.order_by("history_date").values_list("withdrawn", "history_user__username"))
    assert changes[-2:] == [(True, "td"), (False, "td")]
    assert all(h.history_date for h in pair.history.all())


@pytest.mark.django_db
def test_a_draft_round_is_not_offered_for_forfeit_but_named(client, director, tournament, make_pair):
    pairs = [make_pair() for _ in range(4)]
    pair_round(tournament)
    set_withdrawn(pairs[0], True)
    en(client).force_login(director)
    html = client.get(reverse("desk-pair-withdraw", args=[tournament.slug, pairs[0].pk])).content.decode()
    assert "It is still placed in the draft of round" in html
    assert reverse("desk-round", args=[tournament.slug, 1]) in html
    assert "/forfeit/" not in html  # a draft's table is no match to forfeit


@pytest.mark.django_db
def test_withdrawing_twice_is_refused_in_words(client, director, match):
    t, pair = match.round.tournament, match.pair_ns
    set_withdrawn(pair, True)
    en(client).force_login(director)
    response = client.post(reverse("desk-pair-withdraw", args=[t.slug, pair.pk]), follow=True)
    assert "has already withdrawn" in response.content.decode()


@pytest.mark.django_db
def test_a_reinstated_pair_is_paired_again(tournament, make_pair):
    pairs = [make_pair() for _ in range(4)]
    set_withdrawn(pairs[0], True)
    set_withdrawn(pairs[0], False)
    rnd = pair_round(tournament)
    assert rnd.matches.filter(pair_ns=pairs[0]).exists() or rnd.matches.filter(pair_ew=pairs[0]).exists()
    with pytest.raises(PeopleError):
        set_withdrawn(pairs[0], False)


@pytest.mark.django_db
def test_the_public_withdrawn_column_marks_withdrawn_pairs_only(client, tournament, make_pair):
    active, quitter = make_pair("在赛队"), make_pair("退赛队")
    set_withdrawn(quitter, True)
    html = en(client).get(reverse("tournament", args=[tournament.slug])).content.decode()
    assert "✘" not in html and "✔" not in html
    rows = {name: html.split(name, 1)[1].split("</tr>", 1)[0] for name in (active.name, quitter.name)}
    assert "withdrawn" not in rows[active.name]
    assert "withdrawn" in rows[quitter.name]


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


# --- captains' accounts ------------------------------------------------------------------------------------


def captain_url(name: str, pair) -> str:
    return reverse(name, args=[pair.tournament.slug, pair.pk])


@pytest.mark.django_db
def test_the_captain_form_takes_a_new_account_named_after_the_first_player(make_pair):
    pair = make_pair()
    assert CaptainForm(pair=pair).initial == {"name": pair.player1.name}
    assert CaptainForm({"username": "wang.yi", "name": "王一"}, pair=pair).is_valid()


@pytest.mark.parametrize("owner", ["judge", "director", "staff", "captain of another pair"])
@pytest.mark.django_db
def test_the_captain_form_refuses_an_account_the_pairs_pages_do_not_manage(make_pair, judge, director, owner):
    pair, other = make_pair(), make_pair()
    User = get_user_model()
    if owner == "staff":
        User.objects.create_user("staff", password="x-pass-1", is_staff=True)
    if owner == "captain of another pair":
        give_captain_account(other, "cap")
    username = {"judge": "Judge", "director": "td", "staff": "staff", "captain of another pair": "cap"}[owner]
    form = CaptainForm({"username": username, "name": ""}, pair=pair)
    assert not form.is_valid() and list(form.errors) == ["username"]
    with pytest.raises(PeopleError):
        give_captain_account(pair, username)
    pair.refresh_from_db()
    assert pair.captain is None


@pytest.mark.django_db
def test_a_captains_account_of_another_tournament_is_linked_by_its_user_name(make_pair):
    autumn = Tournament.objects.create(name="秋季赛", slug="autumn")
    earlier = make_pair(t=autumn)
    account, password = give_captain_account(earlier, "cap", "甲")
    pair = make_pair()
    assert CaptainForm({"username": "CAP", "name": ""}, pair=pair).is_valid()
    linked, none = give_captain_account(pair, "CAP")
    assert (linked, none) == (account, None)
    pair.refresh_from_db()
    assert pair.captain == account and account.check_password(password)  # its password unchanged


@pytest.mark.django_db
def test_the_director_gives_the_captain_an_account_whose_password_is_shown_once_and_confirms(
    client, director, match
):
    pair = match.pair_ew
    en(client).force_login(director)
    asked = client.get(captain_url("desk-pair-captain", pair)).content.decode()
    assert "The captain has no account." in asked and f'value="{pair.player1.name}"' in asked
    response = client.post(captain_url("desk-pair-captain", pair), {"username": "cap.ew", "name": "乙队长"})
    assert response.status_code == 200 and "no-store" in response["Cache-Control"]
    password = response.context["password"]
    html = response.content.decode()
    assert password in html and "A captain&#x27;s log-in" in html and pair.name in html and "data-print" in html
    assert captain_url("desk-pair-captain", pair) in html  # back to the pair
    account = get_user_model().objects.get(username="cap.ew")
    assert account.first_name == "乙队长" and account.check_password(password)
    assert password not in account.password  # stored hashed
    assert not access.is_judge(account) and not access.is_director(account)
    pair.refresh_from_db()
    assert pair.captain == account and pair.history.first().history_user == director
    listed = client.get(reverse("desk-pairs", args=[pair.tournament.slug])).content.decode()
    assert password not in listed and "cap.ew" in listed
    assert Client().login(username="cap.ew", password=password)
    assert access.is_official(account, match) and access.can_read_match(account, match)


@pytest.mark.django_db
def test_the_pairs_list_and_the_pairs_page_say_whether_the_captain_has_an_account(client, director, make_pair):
    with_account, without = make_pair("有号队"), make_pair("无号队")
    give_captain_account(with_account, "cap1")
    en(client).force_login(director)
    html = client.get(reverse("desk-pairs", args=[with_account.tournament.slug])).content.decode()
    rows = {name: html.split(name, 1)[1].split("</tr>", 1)[0] for name in ("有号队", "无号队")}
    assert "cap1" in rows["有号队"] and "none: give one" not in rows["有号队"]
    assert "none: give one" in rows["无号队"]
    assert captain_url("desk-pair-captain", without) in rows["无号队"]
    edit = client.get(captain_url("desk-pair-edit", with_account)).content.decode()
    assert "The captain logs in as cap1." in edit and "Manage the captain's account" in edit
    edit = client.get(captain_url("desk-pair-edit", without)).content.decode()
    assert "The captain has no account." in edit and "Give the captain an account" in edit


@pytest.mark.django_db
def test_a_captains_new_password_replaces_the_old_one(client, director, make_pair):
    pair = make_pair()
    account, old = give_captain_account(pair, "cap")
    client.force_login(director)
    page = client.get(captain_url("desk-pair-captain", pair))
    assert captain_url("desk-pair-captain-password", pair) in page.content.decode()
    account.refresh_from_db()
    assert account.check_password(old)  # showing the page is not resetting
    response = client.post(captain_url("desk-pair-captain-password", pair))
    assert response.status_code == 200 and "no-store" in response["Cache-Control"]
    password = response.context["password"]
    account.refresh_from_db()
    assert account.check_password(password) and not account.check_password(old)


@pytest.mark.django_db
def test_removing_the_captains_account_stops_its_confirming_and_keeps_the_account(client, director, match):
    pair = match.pair_ns
    account, password = give_captain_account(pair, "cap")
    en(client).force_login(director)
    response = client.post(captain_url("desk-pair-captain-remove", pair), follow=True)
    assert "cap is no longer the captain&#x27;s account of" in response.content.decode()
    pair.refresh_from_db()
    match.refresh_from_db()
    assert pair.captain is None and not access.is_official(account, match)
    assert get_user_model().objects.filter(pk=account.pk).exists()
    assert [h.captain_id for h in pair.history.order_by("-history_date")[:2]] == [None, account.pk]
    assert pair.history.first().history_user == director
    response = client.post(captain_url("desk-pair-captain", pair), {"username": "cap", "name": ""}, follow=True)
    assert "its password is unchanged" in response.content.decode()  # given back by its user name
    pair.refresh_from_db()
    assert pair.captain == account and Client().login(username="cap", password=password)


@pytest.mark.django_db
@pytest.mark.parametrize("typed", [{"username": "cap2", "name": ""}, {"username": "not a name!", "name": ""}])
def test_a_stale_captain_form_is_told_the_pair_has_an_account_whatever_it_typed(client, director, make_pair, typed):
    pair = make_pair()
    give_captain_account(pair, "cap")
    en(client).force_login(director)
    response = client.post(captain_url("desk-pair-captain", pair), typed, follow=True)
    assert "already has an account: remove it first." in response.content.decode()
    pair.refresh_from_db()
    assert pair.captain.username == "cap" and not get_user_model().objects.filter(username="cap2").exists()


@pytest.mark.django_db
def test_the_service_refuses_a_second_account_and_one_that_is_not_there(make_pair, make_judge):
    pair = make_pair()
    with pytest.raises(PeopleError) as refused:
        reset_captain_password(pair)
    assert refused.value.status == 409
    with pytest.raises(PeopleError):
        remove_captain_account(pair)
    give_captain_account(pair, "cap")
    with pytest.raises(PeopleError) as refused:
        give_captain_account(pair, "cap2")
    assert refused.value.status == 409 and not get_user_model().objects.filter(username="cap2").exists()
    Pair.objects.filter(pk=pair.pk).update(captain=make_judge("linked-in-admin"))
    pair.refresh_from_db()
    with pytest.raises(PeopleError) as refused:  # a judge made captain in the admin keeps their password
        reset_captain_password(pair)
    assert refused.value.status == 403


@pytest.mark.django_db
def test_a_refused_captain_write_is_said_in_words_on_the_page(client, director, make_pair):
    pair = make_pair()
    en(client).force_login(director)
    response = client.post(captain_url("desk-pair-captain-password", pair), follow=True)
    assert "has no account." in response.content.decode()
    response = client.post(captain_url("desk-pair-captain", pair), {"username": "has space", "name": ""})
    assert response.status_code == 200 and 'class="errorlist' in response.content.decode()
    assert get_user_model().objects.filter(username="has space").count() == 0


# --- judges ------------------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_new_judges_password_is_shown_once_and_logs_in(client, director, tournament):
    client.force_login(director)
    response = client.post(
        reverse("desk-judge-add", args=[tournament.slug]), {"username": "li", "name": "李裁判"}
    )
    assert response.status_code == 200 and "no-store" in response["Cache-Control"]
    password = response.context["password"]
    html = response.content.decode()
    assert password in html and "data-print" in html
    account = get_user_model().objects.get(username="li")
    assert account.first_name == "李裁判" and account.check_password(password)
    assert password not in account.password  # stored hashed
    assert password not in client.get(reverse("desk-judges", args=[tournament.slug])).content.decode()
    assert Client().login(username="li", password=password)


@pytest.mark.django_db
def test_a_reset_password_replaces_the_old_one(client, director, tournament, judge):
    client.force_login(director)
    assert client.get(reverse("desk-judge-password", args=[tournament.slug, judge.pk])).status_code == 200
    judge.refresh_from_db()
    assert judge.check_password("judge-pass-1")  # asking is not resetting
    response = client.post(reverse("desk-judge-password", args=[tournament.slug, judge.pk]))
    password = response.context["password"]
    judge.refresh_from_db()
    assert judge.check_password(password) and not judge.check_password("judge-pass-1")


@pytest.mark.django_db
def test_a_deactivated_judge_cannot_log_in_until_reactivated(client, director, tournament, judge):
    client.force_login(director)
    url = reverse("desk-judge-active", args=[tournament.slug, judge.pk])
    client.post(url, {"active": "0"})
    assert not Client().login(username="judge", password="judge-pass-1")
    client.post(url, {"active": "1"})
    assert Client().login(username="judge", password="judge-pass-1")


def signed_in_as(client: Client):
    """Who the client's cookie signs in on its next request (the home page), or None."""
    user = client.get(reverse("home")).wsgi_request.user
    return user.get_username() if user.is_authenticated else None


@pytest.mark.django_db
def test_deactivating_a_judge_ends_their_sessions_for_good(client, director, tournament, judge, make_judge):
    """The old cookie was refused while the account was off, and worked again once it was back on."""
    tablet, phone, other = Client(), Client(), Client()
    for device in (tablet, phone):
        assert device.login(username="judge", password="judge-pass-1")
    make_judge("second")
    assert other.login(username="second", password="judge-pass-1")
    client.force_login(director)
    url = reverse("desk-judge-active", args=[tournament.slug, judge.pk])
    client.post(url, {"active": "0"})
    client.post(url, {"active": "1"})
    assert signed_in_as(tablet) is None and signed_in_as(phone) is None
    assert signed_in_as(other) == "second" and signed_in_as(client) == "td"  # no one else's
    assert tablet.login(username="judge", password="judge-pass-1")  # back on: a fresh log-in works


@pytest.mark.django_db
def test_a_new_password_from_the_desk_ends_the_accounts_sessions(client, director, tournament, judge, make_pair):
    tablet = Client()
    assert tablet.login(username="judge", password="judge-pass-1")
    pair = make_pair()
    account, password = give_captain_account(pair, "cap")
    phone = Client()
    assert phone.login(username="cap", password=password)
    keys = [tablet.session.session_key, phone.session.session_key]
    client.force_login(director)
    client.post(reverse("desk-judge-password", args=[tournament.slug, judge.pk]))
    client.post(captain_url("desk-pair-captain-password", pair))
    assert not Session.objects.filter(session_key__in=keys).exists()
    assert signed_in_as(tablet) is None and signed_in_as(phone) is None and signed_in_as(client) == "td"


@pytest.mark.django_db
def test_a_directors_account_is_not_managed_from_the_judges_page(client, director, tournament, make_judge):
    from tournaments.competition.access import JUDGE_GROUP, add_to_group

    add_to_group(director, JUDGE_GROUP)
    client.force_login(director)
    assert client.post(reverse("desk-judge-password", args=[tournament.slug, director.pk])).status_code == 404
    assert client.post(reverse("desk-judge-active", args=[tournament.slug, director.pk])).status_code == 404
    with pytest.raises(PeopleError):
        reset_password(director)


@pytest.mark.django_db
def test_the_service_refuses_a_taken_user_name(judge):
    with pytest.raises(PeopleError):
        create_judge("Judge")


@pytest.mark.django_db
def test_a_judge_change_after_publishing_is_kept_in_the_history(client, director, match, make_judge):
    assert match.round.state == Round.State.PUBLISHED
    second = make_judge("second")
    client.force_login(director)
    url = reverse("desk-table-judge", args=[match.round.tournament.slug, match.pk])
    client.post(url, {f"m{match.pk}-judge": second.pk})
    match.refresh_from_db()
    assert match.judge == second
    latest = match.history.first()
    assert latest.judge_id == second.pk and latest.history_user == director
    assert match.history.filter(judge_id=second.pk).count() == 1


@pytest.mark.django_db
def test_a_judge_is_assigned_to_a_draft_table_and_can_be_removed(director, tournament, make_pair, judge):
    for _ in range(2):
        make_pair()
    match = pair_round(tournament).matches.get()
    assign_judge(match, judge, director)
    match.refresh_from_db()
    assert match.judge == judge
    assign_judge(match, None, director)
    match.refresh_from_db()
    assert match.judge is None


@pytest.mark.django_db
def test_a_bad_judge_choice_is_refused_in_words_not_a_500(client, director, match):
    en(client).force_login(director)
    url = reverse("desk-table-judge", args=[match.round.tournament.slug, match.pk])
    response = client.post(url, {f"m{match.pk}-judge": "nobody\x00"}, follow=True)
    assert response.status_code == 200 and "Choose an active judge." in response.content.decode()


@pytest.mark.django_db
def test_a_judge_is_named_by_display_name_on_the_tables_pairing_and_match_pages(
    client, director, match, judge
):
    judge.first_name = "王裁判"
    judge.save()
    client.force_login(director)
    html = client.get(reverse("desk-round-judges", args=[match.round.tournament.slug, 1])).content.decode()
    assert "王裁判" in html and match.pair_ns.name in html
    assert ">NS<" not in html and ">EW<" not in html
    for public in (
        reverse("round", args=[match.round.tournament.slug, 1]),
        reverse("match", args=[match.pk]),
    ):
        assert "王裁判" in client.get(public).content.decode(), public


# --- directors ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("who", ["anonymous", "judge", "captain", "director"])
@pytest.mark.parametrize("method", ["get", "post"])
@pytest.mark.django_db
def test_only_a_director_opens_the_password_change_page(client, judge, captain, director, method, who):
    users = {"anonymous": None, "judge": judge, "captain": captain, "director": director}
    if users[who]:
        client.force_login(users[who])
    response = getattr(client, method)(reverse("password-change"))
    if who == "anonymous":
        assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    else:
        assert response.status_code == (200 if who == "director" else 403)


@pytest.mark.django_db
def test_a_second_directors_password_is_shown_once_and_opens_the_desk(client, director, tournament):
    en(client).force_login(director)
    response = client.post(
        reverse("desk-director-add", args=[tournament.slug]), {"username": "wang", "name": "王主任"}
    )
    assert response.status_code == 200 and "no-store" in response["Cache-Control"]
    password = response.context["password"]
    html = response.content.decode()
    assert password in html and "A new director&#x27;s log-in" in html
    assert reverse("desk-directors", args=[tournament.slug]) in html  # back to the directors
    account = get_user_model().objects.get(username="wang")
    assert account.first_name == "王主任" and access.is_director(account) and not access.is_judge_account(account)
    listed = client.get(reverse("desk-directors", args=[tournament.slug])).content.decode()
    assert "王主任" in listed and "td" in listed and password not in listed
    second = Client()
    assert second.login(username="wang", password=password)
    assert second.get(reverse("desk", args=[tournament.slug])).status_code == 200


@pytest.mark.django_db
def test_a_taken_user_name_is_refused_for_a_director_whatever_its_case(client, director, tournament, judge):
    en(client).force_login(director)
    response = client.post(reverse("desk-director-add", args=[tournament.slug]), {"username": "JUDGE", "name": ""})
    assert response.status_code == 200 and "This user name is taken." in response.content.decode()
    assert not access.is_director(get_user_model().objects.get(username="judge"))
    with pytest.raises(PeopleError) as refused:
        create_director_account("Td")
    assert refused.value.status == 409


@pytest.mark.django_db
def test_a_director_changes_their_own_password_and_stays_logged_in(client, director):
    en(client).force_login(director)
    url = reverse("password-change")
    wrong = {"old_password": "not-it", "new_password1": "spring-cup-2026!", "new_password2": "spring-cup-2026!"}
    assert "errorlist" in client.post(url, wrong).content.decode()
    right = {**wrong, "old_password": "director-pass-1"}
    response = client.post(url, right, follow=True)
    assert "Your password is changed." in response.content.decode()
    assert client.get(reverse("password-change")).status_code == 200  # this session stays
    director.refresh_from_db()
    assert director.check_password("spring-cup-2026!") and not director.check_password("director-pass-1")


@pytest.mark.django_db
def test_the_desk_and_the_header_link_the_directors_and_the_password(client, director, tournament):
    client.force_login(director)
    html = client.get(reverse("desk", args=[tournament.slug])).content.decode()
    assert reverse("desk-directors", args=[tournament.slug]) in html and reverse("password-change") in html
