"""Entries on line: the form refuses bad names in one sentence, a form's posts make one entry, places are given
in order with a waiting list promoted by withdrawals, the posts are throttled, closing entries makes the pairs
through the import's checks, and only the director of the tournament's own organisation runs the desk page."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import override

from tests.entries.helpers import enter, form_data
from tournaments.competition.throttle import ENTRY_ADDRESSES, Throttle
from tournaments.entries import services, views
from tournaments.entries.links import own_page_path, token_for
from tournaments.entries.names import name_problem
from tournaments.models import Entry, Membership, Organisation, Pair, Player, Role, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def opened(tournament):
    services.open_entries(tournament, capacity=2, fee="100元")
    return tournament


def test_an_entry_made_on_the_form_gets_a_place_and_a_private_page_with_its_qr_code(client, opened):
    response = enter(client, opened.slug, 1)
    entry = Entry.objects.get()
    assert response.status_code == 302 and response["Location"] == own_page_path(entry) + "?new=1"
    assert entry.state == Entry.State.ACCEPTED and entry.player1 == "张1" and entry.contact == "13800000001"
    page = client.get(response["Location"])
    text = page.content.decode()
    assert page.status_code == 200 and "<svg" in text and "红队1" in text and "100元" in text
    assert page["X-Robots-Tag"].startswith("noindex") and page["Referrer-Policy"] == "same-origin"
    assert "no-store" in page["Cache-Control"] or "max-age=0" in page["Cache-Control"]


HOSTILE = {
    "empty": ("name", "   "),
    "over-long": ("player1", "长" * 101),
    "script": ("name", "<script>alert(1)</script>"),
    "link": ("player2", "javascript://x"),
    "bidi override": ("player1", "张\u202e三"),
    "zero width": ("player2", "李\u200b四"),
    "no letter": ("name", "12345"),
    "NUL": ("club", "朝阳\x00"),
}


@pytest.mark.parametrize("case", list(HOSTILE))
def test_the_form_refuses_a_hostile_name_with_one_chinese_sentence_and_makes_nothing(client, opened, case):
    field, value = HOSTILE[case]
    response = enter(client, opened.slug, 1, **{field: value})
    assert response.status_code == 400 and not Entry.objects.exists()
    with override("zh-hans"):
        expected = name_problem(value, 100) if case != "NUL" else None
    text = response.content.decode()
    if expected:
        assert expected in text
    assert "<script>alert" not in text


def test_a_duplicate_pair_name_or_player_is_refused_in_one_sentence(client, opened):
    enter(client, opened.slug, 1)
    again = enter(client, opened.slug, 2, name="红队1")
    twice = enter(client, opened.slug, 3, player2="张1")
    same = enter(client, opened.slug, 4, player2="张4")
    assert [r.status_code for r in (again, twice, same)] == [400, 400, 400]
    assert "红队1" in again.content.decode() and "张1" in twice.content.decode()
    assert Entry.objects.count() == 1


def test_a_form_with_a_forged_key_or_hostile_fields_is_refused_without_a_500(client, opened):
    url = reverse("enter", args=[opened.slug])
    for data in (
        form_data(1, key="x"),
        form_data(1, key="'; DROP TABLE"),
        {"name": ["a", "b"], "key": ["1" * 32, "2" * 32]},
        {},
    ):
        assert client.post(url, data).status_code == 400
    assert not Entry.objects.exists()


def test_the_same_form_posted_twice_makes_one_entry_and_answers_both_with_its_page(client, opened):
    data = form_data(1)
    first = client.post(reverse("enter", args=[opened.slug]), data)
    second = client.post(reverse("enter", args=[opened.slug]), data)
    assert first["Location"] == second["Location"] and Entry.objects.count() == 1


def test_past_capacity_entries_wait_in_order_and_a_withdrawal_promotes_the_first(client, opened):
    locations = [enter(client, opened.slug, n)["Location"] for n in range(1, 5)]
    states = list(Entry.objects.order_by("pk").values_list("state", flat=True))
    assert states == ["accepted", "accepted", "waiting", "waiting"]
    assert "2" in client.get(locations[3]).content.decode()  # number 2 on the waiting list
    unticked = client.post(locations[0].split("?")[0], {"action": "withdraw"})
    assert unticked.status_code == 400 and Entry.objects.filter(state="withdrawn").count() == 0
    withdrawn = client.post(locations[0].split("?")[0], {"action": "withdraw", "confirm": "yes"})
    assert withdrawn.status_code == 302
    states = list(Entry.objects.order_by("pk").values_list("state", flat=True))
    assert states == ["withdrawn", "accepted", "accepted", "waiting"]
    third = client.get(locations[2].split("?")[0])
    assert 'data-testid="promoted"' in third.content.decode()


def test_entries_past_the_closing_time_are_refused(client, tournament):
    services.open_entries(tournament, capacity=4, closes_at=timezone.now() - timezone.timedelta(minutes=1))
    response = enter(client, tournament.slug, 1)
    assert response.status_code == 200 and 'data-testid="closed"' in response.content.decode()
    assert not Entry.objects.exists()


def test_an_entry_needing_approval_waits_for_the_director_who_accepts_or_refuses_it(opened):
    services.open_entries(opened, capacity=2, approval=True)
    first, _made = services.submit_entry(opened, services.EntryForm("甲队", "甲", "乙", "", "1"), "a" * 32)
    second, _made = services.submit_entry(opened, services.EntryForm("乙队", "丙", "丁", "", "2"), "b" * 32)
    assert first.state == second.state == Entry.State.PENDING
    assert "await" in services.why_not_close(opened) or services.why_not_close(opened)
    assert services.decide_entry(first, True).state == Entry.State.ACCEPTED
    assert services.decide_entry(second, False).state == Entry.State.REFUSED


def test_closing_entries_makes_the_accepted_entries_pairs_in_order_and_leaves_the_waiting_list(
    client, opened
):
    for n in range(1, 4):
        enter(client, opened.slug, n)
    pairs = services.close_entries(opened)
    assert [p.name for p in pairs] == ["红队1", "红队2"] and [p.seed for p in pairs] == [1, 2]
    assert Pair.objects.get(name="红队1").entry.state == Entry.State.ACCEPTED
    assert Entry.objects.get(name="红队3").pair is None
    assert enter(client, opened.slug, 9).status_code == 200 and Entry.objects.count() == 3  # closed


def test_closing_refuses_an_entry_whose_player_already_plays_in_a_pair_of_the_tournament(client, opened):
    enter(client, opened.slug, 1)
    Pair.objects.create(
        tournament=opened,
        name="老队",
        player1=Player.objects.create(name="张1"),
        player2=Player.objects.create(name="王"),
    )
    with pytest.raises(services.EntryError) as refused:
        services.close_entries(opened)
    assert "红队1" in refused.value.message and "老队" in refused.value.message
    assert not Pair.objects.filter(name="红队1").exists()


def test_posts_are_throttled_per_address(client, opened):
    services.open_entries(opened, capacity=50)
    answers = [enter(client, opened.slug, n).status_code for n in range(1, ENTRY_ADDRESSES.limit + 2)]
    assert answers[:-1] == [302] * ENTRY_ADDRESSES.limit and answers[-1] == 429
    assert Entry.objects.count() == ENTRY_ADDRESSES.limit
    other = Client(REMOTE_ADDR="10.0.0.9")
    assert enter(other, opened.slug, 99).status_code == 302


def test_posts_are_throttled_per_tournament_from_any_address(opened, monkeypatch):
    services.open_entries(opened, capacity=50)
    monkeypatch.setattr(views, "ENTRY_TOURNAMENTS", Throttle("entry-tournament", limit=2, seconds=600))
    answers = [enter(Client(REMOTE_ADDR=f"10.0.0.{n}"), opened.slug, n).status_code for n in range(1, 4)]
    assert answers == [302, 302, 429] and Entry.objects.count() == 2


# --- links: another entry's, a wrong one and a guessed one show nothing of the pair ---------------------------


def test_a_wrong_guessed_or_foreign_link_shows_nothing_of_the_pair(client, opened, make_pair):
    enter(client, opened.slug, 1, name="秘密队")
    enter(client, opened.slug, 2)
    mine, other = Entry.objects.order_by("pk")
    token = token_for(mine)
    elsewhere = Tournament.objects.create(name="别处", slug="elsewhere")
    probes = [
        reverse("own-page", args=[opened.slug, token[:-1] + ("0" if token[-1] != "0" else "1")]),
        reverse("own-page", args=[opened.slug, f"e{mine.pk}-" + "0" * 32]),
        reverse("own-page", args=[opened.slug, f"p{mine.pk}-{token.split('-')[1]}"]),
        reverse("own-page", args=[elsewhere.slug, token]),
    ]
    for url in probes:
        response = client.get(url)
        assert response.status_code == 404 and "秘密队" not in response.content.decode(), url
    others = client.get(own_page_path(other)).content.decode()
    assert "秘密队" not in others and "红队2" in others


def test_wrong_links_from_one_address_are_throttled(client, opened):
    url = reverse("own-page", args=[opened.slug, "e1-" + "0" * 32])
    answers = [client.get(url).status_code for _n in range(21)]
    assert answers[:20] == [404] * 20 and answers[20] == 429


# --- the desk ----------------------------------------------------------------------------------------------


@pytest.fixture
def organised(tournament, make_judge):
    own, other = (Organisation.objects.create(name=n, slug=n) for n in ("own", "other"))
    tournament.organisation = own
    tournament.save()
    users = {}
    for name, organisation, role in (
        ("director", own, Role.DIRECTOR),
        ("outsider", other, Role.DIRECTOR),
        ("scorer", own, Role.SCORER),
    ):
        users[name] = get_user_model().objects.create_user(name, password="x-pass-1")
        Membership.objects.create(organisation=organisation, user=users[name], role=role)
    users["judge"] = make_judge()
    return users


@pytest.mark.parametrize(
    ("who", "status"),
    [(None, 302), ("judge", 403), ("scorer", 403), ("outsider", 403), ("director", 200)],
)
def test_who_opens_the_desks_entries_page(tournament, organised, who, status):
    client = Client()
    if who:
        client.force_login(organised[who])
    url = reverse("desk-entries", args=[tournament.slug])
    assert client.get(url).status_code == status
    posted = client.post(url, {"action": "settings", "capacity": 8})
    assert posted.status_code == (302 if who == "director" else status)
    assert (services.window_of(tournament) is not None) == (who == "director")


def test_the_director_opens_entries_marks_a_fee_paid_withdraws_and_closes_at_the_desk(
    client, tournament, organised
):
    desk = Client()
    desk.force_login(organised["director"])
    url = reverse("desk-entries", args=[tournament.slug])
    assert desk.post(url, {"action": "settings", "capacity": 2, "fee": "50元"}).status_code == 302
    for n in range(1, 4):
        enter(client, tournament.slug, n)
    first, second, third = Entry.objects.order_by("pk")
    assert desk.post(url, {"action": "paid", "entry": first.pk}).status_code == 302
    assert desk.post(url, {"action": "withdraw", "entry": second.pk}).status_code == 302
    assert desk.post(url, {"action": "withdraw", "entry": "x"}).status_code == 404
    assert desk.post(url, {"action": "close"}).status_code == 302
    first.refresh_from_db(), third.refresh_from_db()
    assert first.paid_at and third.state == Entry.State.ACCEPTED and third.promoted_at
    assert sorted(tournament.pairs.values_list("name", flat=True)) == ["红队1", "红队3"]
    assert 'data-testid="entries-closed"' in desk.get(url).content.decode()


def test_the_command_opens_entries_and_refuses_too_few_places(tournament):
    call_command(
        "open_entries",
        tournament.slug,
        "--capacity",
        "6",
        "--closes",
        "2099-05-01 18:00",
        "--approval",
        "--fee",
        "80元",
    )
    window = services.window_of(tournament)
    assert window.capacity == 6 and window.approval and window.fee == "80元" and window.closes_at.year == 2099
    with pytest.raises(CommandError):
        call_command("open_entries", tournament.slug, "--capacity", "1")
    with pytest.raises(CommandError):
        call_command("open_entries", tournament.slug, "--capacity", "4", "--closes", "tomorrow")


def test_a_fee_is_marked_paid_at_check_in_and_the_desk_stays_there(client, tournament, organised):
    services.open_entries(tournament, capacity=4, fee="50元")
    enter(client, tournament.slug, 1)
    enter(client, tournament.slug, 2)
    services.close_entries(tournament)
    desk = Client()
    desk.force_login(organised["director"])
    page = desk.get(reverse("desk-check-in", args=[tournament.slug])).content.decode()
    assert page.count('data-testid="fee"') == 2
    entry = Entry.objects.order_by("pk").first()
    answer = desk.post(
        reverse("desk-entries", args=[tournament.slug]),
        {"action": "paid", "entry": entry.pk, "back": "check-in"},
    )
    assert answer.status_code == 302 and answer["Location"] == reverse(
        "desk-check-in", args=[tournament.slug]
    )
    entry.refresh_from_db()
    assert entry.paid_at is not None
