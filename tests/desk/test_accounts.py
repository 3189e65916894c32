"""Accounts at the desk: captains' accounts, judges' accounts (new password, deactivation ending their sessions,
the judge at a table) and another director's, and a director's own password."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.test import Client
from django.urls import reverse

from referee.table.recording import deal_entry, records
from tests.desk.helpers import en
from tests.table.helpers import JSON, simulated_first
from tournaments.competition import access
from tournaments.models import Deal, Pair, Round, Tournament
from tournaments.pairing.services import pair_round
from tournaments.people.accounts import (
    assign_judge,
    create_director_account,
    create_judge,
    give_captain_account,
    remove_captain_account,
    reset_captain_password,
    reset_password,
)
from tournaments.people.errors import PeopleError
from tournaments.people.forms import CaptainForm
from tournaments.scoring import corrections

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
    assert (
        password in html and "A captain&#x27;s log-in" in html and pair.name in html and "data-print" in html
    )
    assert captain_url("desk-pair-captain", pair) in html  # back to the pair
    account = get_user_model().objects.get(username="cap.ew")
    assert account.first_name == "乙队长" and account.check_password(password)
    assert password not in account.password  # stored hashed
    assert not access.is_judge(account) and not access.is_director(account)
    pair.refresh_from_db()
    assert pair.captain == account and pair.history.first().history_user == director
    listed = client.get(reverse("desk-pairs", args=[pair.tournament.slug])).content.decode()
    assert password not in listed and "cap.ew" in listed
    captain = Client()
    assert captain.login(username="cap.ew", password=password)  # the password shown is the one that works
    deal = records.record_deal(match, simulated_first(match), director)
    corrections.reopen_deal(deal, director, version=deal.version, reason="a correction")
    deal.refresh_from_db()
    deal_entry.submit_deal(deal, match.judge, version=deal.version)  # the judge submits, the captain confirms
    deal.refresh_from_db()
    url = reverse("deal-confirm", args=[deal.pk])
    response = captain.post(url, {"version": deal.version}, **JSON)
    deal.refresh_from_db()
    assert response.status_code == 200 and deal.state == Deal.State.CONFIRMED


@pytest.mark.django_db
def test_the_pairs_list_and_the_pairs_page_say_whether_the_captain_has_an_account(
    client, director, make_pair
):
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
    response = client.post(
        captain_url("desk-pair-captain", pair), {"username": "cap", "name": ""}, follow=True
    )
    assert "its password is unchanged" in response.content.decode()  # given back by its user name
    pair.refresh_from_db()
    assert pair.captain == account and Client().login(username="cap", password=password)


@pytest.mark.django_db
@pytest.mark.parametrize("typed", [{"username": "cap2", "name": ""}, {"username": "not a name!", "name": ""}])
def test_a_stale_captain_form_is_told_the_pair_has_an_account_whatever_it_typed(
    client, director, make_pair, typed
):
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
def test_a_new_password_from_the_desk_ends_the_accounts_sessions(
    client, director, tournament, judge, make_pair
):
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
    assert (
        account.first_name == "王主任"
        and access.is_director(account)
        and not access.is_judge_account(account)
    )
    listed = client.get(reverse("desk-directors", args=[tournament.slug])).content.decode()
    assert "王主任" in listed and "td" in listed and password not in listed
    second = Client()
    assert second.login(username="wang", password=password)
    assert second.get(reverse("desk", args=[tournament.slug])).status_code == 200


@pytest.mark.django_db
def test_a_taken_user_name_is_refused_for_a_director_whatever_its_case(client, director, tournament, judge):
    en(client).force_login(director)
    response = client.post(
        reverse("desk-director-add", args=[tournament.slug]), {"username": "JUDGE", "name": ""}
    )
    assert response.status_code == 200 and "This user name is taken." in response.content.decode()
    assert not access.is_director(get_user_model().objects.get(username="judge"))
    with pytest.raises(PeopleError) as refused:
        create_director_account("Td")
    assert refused.value.status == 409


@pytest.mark.django_db
def test_a_director_changes_their_own_password_and_stays_logged_in(client, director):
    en(client).force_login(director)
    url = reverse("password-change")
    wrong = {
        "old_password": "not-it",
        "new_password1": "spring-cup-2026!",
        "new_password2": "spring-cup-2026!",
    }
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
