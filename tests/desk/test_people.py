"""Pairs and players at the desk: the forms, who may open each page, withdrawal with its forfeits, late entries,
the public withdrawn column."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from tests.desk.helpers import en, finish
from tournaments.checkin.forfeits import publish_round
from tournaments.models import Match, Pair, Player, Tournament
from tournaments.pairing.services import pair_round
from tournaments.people.accounts import set_active
from tournaments.people.errors import PeopleError
from tournaments.people.forms import JudgeForm, PairForm, TableJudgeForm
from tournaments.people.pairs import PairEntry, late_entry_note, late_entry_round, save_pair, set_withdrawn

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
    forfeit = reverse("match-forfeit", args=[match.pk])
    assert forfeit in done and 'name="side" value="NS"' in done
    assert "Record the forfeit of" in done


@pytest.mark.django_db
def test_the_forfeit_offered_after_a_withdrawal_finishes_the_match(client, director, match):
    pair, t = match.pair_ew, match.round.tournament
    client.force_login(director)
    client.post(reverse("desk-pair-withdraw", args=[t.slug, pair.pk]))
    client.post(
        reverse("match-forfeit", args=[match.pk]),
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
        reverse("match-forfeit", args=[match.pk]),
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
