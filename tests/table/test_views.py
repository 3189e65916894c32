"""The judges' pages over HTTP: the permission matrix, JSON trick entry, stale pages, quick entry."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import translation

from referee.table.recording import deal_entry, records
from tests.table.helpers import (
    JSON,
    as_user,
    posted_plays,
    quick_fields,
    record_play,
    simulated,
    simulated_first,
)
from tournaments.competition.display import card_faces
from tournaments.models import Deal
from tournaments.scoring import corrections

pytestmark = pytest.mark.django_db


# ------------------------------------------------------------------ the permission matrix


@pytest.fixture
def people(judge, make_judge, director):
    spectator = get_user_model().objects.create_user("fan", password="fan-pass-123")
    return {
        "anonymous": None,
        "spectator": spectator,
        "other judge": make_judge("other"),
        "assigned judge": judge,
        "director": director,
    }


WRITE = {
    "anonymous": False,
    "spectator": False,
    "other judge": False,
    "assigned judge": True,
    "director": True,
}


@pytest.mark.parametrize("who", list(WRITE))
def test_who_may_record_a_play(people, deal, who):
    response = as_user(people[who]).post(
        reverse("deal-play", args=[deal.pk]), {"cards": "SA", "version": deal.version}, **JSON
    )
    if who == "anonymous":
        assert response.status_code == 302 and "/login/" in response["Location"]
    else:
        assert response.status_code == (200 if WRITE[who] else 403)
    assert deal.tricks.exists() is WRITE[who]


@pytest.mark.parametrize("who", list(WRITE))
def test_who_may_start_a_deal(people, match, who):
    response = as_user(people[who]).post(
        reverse("new_deal", args=[match.pk]), {"trump": "H", "declarer": "E", "next_deal": 1}
    )
    if who == "anonymous":
        assert response.status_code == 302 and "/login/" in response["Location"]
    else:
        assert response.status_code == (302 if WRITE[who] else 403)
    assert match.deals.exists() is WRITE[who]


def test_the_new_deal_form_is_not_offered_while_a_deal_is_open(deal, judge):
    client = as_user(judge)
    page = client.get(reverse("new_deal", args=[deal.match_id]))
    text = page.content.decode()
    assert page.status_code == 200
    assert 'name="trump"' not in text and 'data-testid="deal-open"' in text
    assert reverse("deal", args=[deal.pk]) in text  # the deal to continue instead
    posted = client.post(reverse("new_deal", args=[deal.match_id]), {"trump": "H", "next_deal": 2})
    assert posted.status_code == 200 and 'name="trump"' not in posted.content.decode()
    assert deal.match.deals.count() == 1


def test_the_new_deal_form_is_offered_once_the_open_deal_is_submitted(match, judge):
    deal = records.record_deal(match, simulated_first(match), judge)  # recorded whole: no deal open
    assert deal.state != Deal.State.RECORDING
    text = as_user(judge).get(reverse("new_deal", args=[match.pk])).content.decode()
    assert 'name="trump"' in text and "deal-open" not in text


@pytest.mark.parametrize("who", ["anonymous", "spectator", "assigned judge"])
def test_anyone_reads_the_public_match_page(people, match, who):
    assert as_user(people[who]).get(reverse("match", args=[match.pk])).status_code == 200


def test_a_hidden_tournament_hides_its_matches(people, match):
    match.round.tournament.is_public = False
    match.round.tournament.save()
    assert as_user(people["spectator"]).get(reverse("match", args=[match.pk])).status_code == 404
    assert as_user(people["director"]).get(reverse("match", args=[match.pk])).status_code == 200


@pytest.mark.parametrize(
    ("who", "allowed"),
    [("spectator", False), ("other judge", True), ("director", True), ("assigned judge", False)],
)
def test_who_may_confirm(people, match, judge, who, allowed):
    deal = records.record_deal(match, simulated_first(match), people["director"])
    corrections.reopen_deal(deal, people["director"], version=deal.version, reason="a correction")
    deal.refresh_from_db()
    deal_entry.submit_deal(deal, judge, version=deal.version)  # the assigned judge submits
    deal.refresh_from_db()
    response = as_user(people[who]).post(
        reverse("deal-confirm", args=[deal.pk]), {"version": deal.version}, **JSON
    )
    deal.refresh_from_db()
    assert response.status_code == (200 if allowed else 403)
    assert (deal.state == Deal.State.CONFIRMED) is allowed


def test_a_captain_of_the_other_side_may_confirm(match, judge):
    captain = get_user_model().objects.create_user("captain", password="captain-pass-1")
    match.pair_ew.captain = captain
    match.pair_ew.save()
    deal = records.record_deal(match, simulated_first(match), judge_director())
    corrections.reopen_deal(deal, judge_director(), version=deal.version, reason="a correction")
    deal.refresh_from_db()
    deal_entry.submit_deal(deal, judge, version=deal.version)
    deal.refresh_from_db()
    response = as_user(captain).post(
        reverse("deal-confirm", args=[deal.pk]), {"version": deal.version}, **JSON
    )
    assert response.status_code == 200


def judge_director():
    from tournaments.competition.accounts import create_director

    user = get_user_model().objects.filter(username="td-x").first()
    return user or create_director("td-x", "director-pass-9")


def test_csrf_is_required(deal, judge):
    c = Client(enforce_csrf_checks=True)
    c.force_login(judge)
    response = c.post(reverse("deal-play", args=[deal.pk]), {"cards": "SA", "version": 0}, **JSON)
    assert response.status_code == 403
    assert not deal.tricks.exists()


# ------------------------------------------------------------------ trick entry over JSON


def test_play_answers_with_the_new_state(deal, judge):
    c = as_user(judge)
    response = c.post(reverse("deal-play", args=[deal.pk]), {"cards": "sa, ♠A", "version": 0}, **JSON)
    data = response.json()
    assert data["ok"] is True
    state = data["state"]
    assert state["deal"]["version"] == 1
    assert state["next_seat"] == "W"
    assert [c["code"] for c in state["tricks"][0]["plays"][0]["cards"]] == ["SA", "SA"]
    spade_ace = next(c for row in state["picker"] for c in row["cards"] if c["code"] == "SA")
    assert spade_ace["left"] == 0


def test_the_picker_and_card_names_follow_the_language_each_time(deal, judge):
    """The picker's groups and the jokers' names are worked out once per language: asking in one language never
    answers another in it."""
    c = as_user(judge)
    url = reverse("deal_state", args=[deal.pk])
    names = {}
    for language in ("zh-hans", "en", "zh-hans", "en"):
        c.cookies[settings.LANGUAGE_COOKIE_NAME] = language
        state = c.get(url, **JSON).json()
        jokers = [card["short"] for row in state["picker"] for card in row["cards"] if card["suit"] == "J"]
        names.setdefault(language, []).append(([row["name"] for row in state["picker"]], jokers))
    # the trump group in two rows: its jokers and level cards, then the trump suit's own cards (spades)
    assert (
        names["zh-hans"][0]
        == names["zh-hans"][1]
        == (["主牌", "黑桃", "红桃", "梅花", "方块"], ["大王", "小王"])
    )
    assert (
        names["en"][0]
        == names["en"][1]
        == (["Trumps", "Spades", "Hearts", "Clubs", "Diamonds"], ["BJ", "LJ"])
    )


def test_an_illegal_play_is_refused_in_chinese_and_the_state_is_unchanged(deal, judge):
    c = as_user(judge)
    c.post(reverse("deal-play", args=[deal.pk]), {"cards": "SA SA", "version": 0}, **JSON)
    response = c.post(reverse("deal-play", args=[deal.pk]), {"cards": "S3", "version": 1}, **JSON)
    assert response.status_code == 422
    data = response.json()
    assert data["error"] == "illegal"
    assert "首家出的是 2 张" in data["message"]
    assert data["state"]["deal"]["version"] == 1
    assert len(data["state"]["tricks"][0]["plays"]) == 1


def test_stale_page_gets_409_with_who_changed_it(deal, judge, director, english):
    as_user(director).post(reverse("deal-play", args=[deal.pk]), {"cards": "SA", "version": 0}, **JSON)
    english.force_login(judge)
    response = english.post(reverse("deal-play", args=[deal.pk]), {"cards": "SK", "version": 0}, **JSON)
    assert response.status_code == 409
    data = response.json()
    assert "changed by td" in data["message"]
    assert data["state"]["deal"]["version"] == 1
    assert data["state"]["tricks"][0]["plays"][0]["cards"][0]["code"] == "SA"


def test_bad_cards_name_the_token(deal, judge):
    response = as_user(judge).post(
        reverse("deal-play", args=[deal.pk]), {"cards": "SA ZZ", "version": 0}, **JSON
    )
    assert response.status_code == 400
    assert "ZZ" in response.json()["message"]


def test_pages_render(deal, judge, match):
    c = as_user(judge)
    for name, args in (
        ("match", [match.pk]),
        ("deal", [deal.pk]),
        ("review", [deal.pk]),
        ("deal_state", [deal.pk]),
    ):
        assert c.get(reverse(name, args=args)).status_code == 200


def test_whole_deal_through_the_pages_then_submit_and_confirm(match, judge, make_judge):
    c = as_user(judge)
    c.post(reverse("new_deal", args=[match.pk]), {"trump": "D", "declarer": "W", "next_deal": 1})
    deal = match.deals.get()
    record = simulated(deal, seed=4)
    version = 0
    for fields in posted_plays(record):
        response = c.post(reverse("deal-play", args=[deal.pk]), {**fields, "version": version}, **JSON)
        assert response.status_code == 200, response.json()
        version = response.json()["state"]["deal"]["version"]
    c.post(
        reverse("deal-kitty", args=[deal.pk]),
        {"kitty": record["kitty"], "version": version},
        **JSON,
    )
    deal.refresh_from_db()
    review = c.get(reverse("review", args=[deal.pk])).content.decode()
    assert "levels-after" in review
    response = c.post(reverse("deal-submit", args=[deal.pk]), {"version": deal.version})
    assert response.status_code == 302
    deal.refresh_from_db()
    assert deal.state == Deal.State.SUBMITTED
    other = as_user(make_judge("second"))
    other.post(reverse("deal-confirm", args=[deal.pk]), {"version": deal.version})
    deal.refresh_from_db()
    match.refresh_from_db()
    assert deal.state == Deal.State.CONFIRMED
    assert match.level_ns == deal.verdict["result"]["levels_after"]["NS"]
    page = other.get(reverse("match", args=[match.pk])).content.decode()
    assert deal.outcome_label in page


def test_the_director_sees_the_history_on_the_match_page(deal, judge, director):
    record_play(deal, judge, cards="SA", version=0)
    page = as_user(director).get(reverse("match", args=[deal.match_id])).content.decode()
    history = page.split('<details class="history">', 1)[1].split("</details>", 1)[0]
    rows = history.split("<tr>")[2:]  # after the heading's row
    with translation.override("zh-hans"):
        played = card_faces("SA")
    assert any(f"<td>{judge.username}</td>" in row and played in row for row in rows), (
        history
    )  # who played what
    assert "history" not in as_user(judge).get(reverse("match", args=[deal.match_id])).content.decode()


# ------------------------------------------------------------------ quick entry


@pytest.fixture
def quick(match):
    t = match.round.tournament
    t.quick_entry_allowed = True
    t.save()
    return match


def post_quick(client, match, **fields):
    return client.post(reverse("quick_entry", args=[match.pk]), quick_fields(match, **fields))


def test_quick_entry_scores_through_the_same_function(quick, judge, english):
    english.force_login(judge)
    assert post_quick(english, quick).status_code == 302
    deal = quick.deals.get()
    assert deal.mode == Deal.Mode.QUICK and deal.state == Deal.State.SUBMITTED
    assert deal.verdict["attackers_points"] == {
        "tricks": 85,
        "kitty": 10,
        "multiplier": 4,
        "kitty_bonus": 40,
        "penalties": 0,
        "total": 125,
    }
    assert deal.verdict["result"]["outcome"] == "takeover" and deal.verdict["result"]["levels"] == 1


@pytest.mark.parametrize(
    ("fields", "problem"),
    [
        ({"points": 83}, "fives"),
        ({"kitty_points": 205}, "Kitty points"),
        ({"points": 195, "kitty_points": 10}, "between 0 and 190"),
    ],
)
def test_quick_entry_bounds(quick, judge, english, fields, problem):
    english.force_login(judge)
    response = post_quick(english, quick, **fields)
    assert response.status_code == 200
    assert problem in response.content.decode()
    assert not quick.deals.exists()


def test_quick_entry_needs_the_tournament_setting(match, judge):
    assert post_quick(as_user(judge), match).status_code == 403


def test_the_picker_puts_the_jokers_and_level_cards_above_the_trump_suit_and_the_plain_suits(deal, judge):
    state = as_user(judge).get(reverse("deal_state", args=[deal.pk]), **JSON).json()  # level 2, spades trump
    rows = [(row["suit"], row["trump"], [c["code"] for c in row["cards"]]) for row in state["picker"]]
    assert rows[0] == ("T", True, ["BJ", "LJ", "S2", "H2", "C2", "D2"])
    assert rows[1] == ("S", True, ["SA", "SK", "SQ", "SJ", "ST", "S9", "S8", "S7", "S6", "S5", "S4", "S3"])
    assert [(suit, trump, len(codes)) for suit, trump, codes in rows[2:]] == [
        ("H", False, 12),
        ("C", False, 12),
        ("D", False, 12),
    ]
