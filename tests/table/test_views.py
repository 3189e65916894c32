"""The judges' pages over HTTP: the permission matrix, JSON trick entry, stale pages, quick entry, commands."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.http import JsonResponse
from django.test import Client
from django.urls import reverse
from django.utils.translation import gettext_lazy

from referee.table.recording import deal_entry, errors, match_fold, records
from referee.table.screens import current_deal_state
from referee.table.views import json_response
from tests.table.helpers import posted_plays, quick_fields, record_play, simulated
from tournaments.models import Deal, Match

pytestmark = pytest.mark.django_db
JSON = {"HTTP_ACCEPT": "application/json"}


@pytest.fixture
def deal(match, judge):
    return deal_entry.start_deal(match, judge, trump="S", declarer="N")


@pytest.fixture
def english(client):
    client.cookies["django_language"] = "en"
    return client


def as_user(user) -> Client:
    c = Client()
    if user is not None:
        c.force_login(user)
    return c


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
        reverse("deal_action", args=[deal.pk, "play"]), {"cards": "SA", "version": deal.version}, **JSON
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
    deal_entry.reopen_deal(deal, people["director"], version=deal.version)
    deal.refresh_from_db()
    deal_entry.submit_deal(deal, judge, version=deal.version)  # the assigned judge submits
    deal.refresh_from_db()
    response = as_user(people[who]).post(
        reverse("deal_action", args=[deal.pk, "confirm"]), {"version": deal.version}, **JSON
    )
    deal.refresh_from_db()
    assert response.status_code == (200 if allowed else 403)
    assert (deal.state == Deal.State.CONFIRMED) is allowed


def test_a_captain_of_the_other_side_may_confirm(match, judge):
    captain = get_user_model().objects.create_user("captain", password="captain-pass-1")
    match.pair_ew.captain = captain
    match.pair_ew.save()
    deal = records.record_deal(match, simulated_first(match), judge_director())
    deal_entry.reopen_deal(deal, judge_director(), version=deal.version)
    deal.refresh_from_db()
    deal_entry.submit_deal(deal, judge, version=deal.version)
    deal.refresh_from_db()
    response = as_user(captain).post(
        reverse("deal_action", args=[deal.pk, "confirm"]), {"version": deal.version}, **JSON
    )
    assert response.status_code == 200


def judge_director():
    from tournaments.competition.accounts import create_director

    user = get_user_model().objects.filter(username="td-x").first()
    return user or create_director("td-x", "director-pass-9")


def simulated_first(match):
    from rules.simulate import simulate_deal

    record = simulate_deal("standard", banker="N", level="2", seed=11)
    record["ruleset"] = match.round.tournament.ruleset
    return record


def test_csrf_is_required(deal, judge):
    c = Client(enforce_csrf_checks=True)
    c.force_login(judge)
    response = c.post(reverse("deal_action", args=[deal.pk, "play"]), {"cards": "SA", "version": 0}, **JSON)
    assert response.status_code == 403
    assert not deal.tricks.exists()


# ------------------------------------------------------------------ trick entry over JSON


def test_play_answers_with_the_new_state(deal, judge):
    c = as_user(judge)
    response = c.post(
        reverse("deal_action", args=[deal.pk, "play"]), {"cards": "sa, ♠A", "version": 0}, **JSON
    )
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
    assert names["zh-hans"][0] == names["zh-hans"][1] == (["主牌", "红桃", "梅花", "方块"], ["大王", "小王"])
    assert names["en"][0] == names["en"][1] == (["Trumps", "Hearts", "Clubs", "Diamonds"], ["BJ", "LJ"])


def test_an_illegal_play_is_refused_in_chinese_and_the_state_is_unchanged(deal, judge):
    c = as_user(judge)
    c.post(reverse("deal_action", args=[deal.pk, "play"]), {"cards": "SA SA", "version": 0}, **JSON)
    response = c.post(reverse("deal_action", args=[deal.pk, "play"]), {"cards": "S3", "version": 1}, **JSON)
    assert response.status_code == 422
    data = response.json()
    assert data["error"] == "illegal"
    assert "首家出的是 2 张" in data["message"]
    assert data["state"]["deal"]["version"] == 1
    assert len(data["state"]["tricks"][0]["plays"]) == 1


def test_stale_page_gets_409_with_who_changed_it(deal, judge, director, english):
    as_user(director).post(
        reverse("deal_action", args=[deal.pk, "play"]), {"cards": "SA", "version": 0}, **JSON
    )
    english.force_login(judge)
    response = english.post(
        reverse("deal_action", args=[deal.pk, "play"]), {"cards": "SK", "version": 0}, **JSON
    )
    assert response.status_code == 409
    data = response.json()
    assert "changed by td" in data["message"]
    assert data["state"]["deal"]["version"] == 1
    assert data["state"]["tricks"][0]["plays"][0]["cards"][0]["code"] == "SA"


def test_bad_cards_name_the_token(deal, judge):
    response = as_user(judge).post(
        reverse("deal_action", args=[deal.pk, "play"]), {"cards": "SA ZZ", "version": 0}, **JSON
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
        response = c.post(
            reverse("deal_action", args=[deal.pk, "play"]), {**fields, "version": version}, **JSON
        )
        assert response.status_code == 200, response.json()
        version = response.json()["state"]["deal"]["version"]
    c.post(
        reverse("deal_action", args=[deal.pk, "kitty"]),
        {"kitty": record["kitty"], "version": version},
        **JSON,
    )
    deal.refresh_from_db()
    review = c.get(reverse("review", args=[deal.pk])).content.decode()
    assert "levels-after" in review
    response = c.post(reverse("deal_action", args=[deal.pk, "submit"]), {"version": deal.version})
    assert response.status_code == 302
    deal.refresh_from_db()
    assert deal.state == Deal.State.SUBMITTED
    other = as_user(make_judge("second"))
    other.post(reverse("deal_action", args=[deal.pk, "confirm"]), {"version": deal.version})
    deal.refresh_from_db()
    match.refresh_from_db()
    assert deal.state == Deal.State.CONFIRMED
    assert match.level_ns == deal.verdict["result"]["levels_after"]["NS"]
    page = other.get(reverse("match", args=[match.pk])).content.decode()
    assert deal.outcome_label in page


def test_the_director_sees_the_history_on_the_match_page(deal, judge, director):
    record_play(deal, judge, cards="SA", version=0)
    page = as_user(director).get(reverse("match", args=[deal.match_id])).content.decode()
    assert "history" in page and "judge" in page
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


# ------------------------------------------------------------------ commands


def test_record_deal_and_match_state_commands(tmp_path, match, director):
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(simulated_first(match)), encoding="utf-8")
    out = StringIO()
    call_command("record_deal", str(match.pk), str(path), stdout=out)
    verdict = json.loads(out.getvalue())
    assert verdict["ok"] is True and verdict["result"]["outcome"] in ("banker_holds", "takeover")
    out = StringIO()
    call_command("match_state", str(match.pk), stdout=out)
    state = json.loads(out.getvalue())
    assert set(state) == {"id", "status", "ruleset", "levels", "banker", "deals", "winner", "ended_by"}
    assert state["deals"] == 1 and state["banker"] == verdict["result"]["next_banker"]
    out = StringIO()
    call_command("export_deals", str(match.pk), stdout=out)
    (exported,) = json.loads(out.getvalue())
    assert exported["format"] == "tractor-deal/1"
    assert exported["tricks"] == simulated_first(match)["tricks"]


def test_record_deal_refuses_a_disagreeing_record_with_exit_2(tmp_path, match, director):
    record = simulated_first(match)
    record["level"] = "9"
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    with pytest.raises(CommandError) as err:
        call_command("record_deal", str(match.pk), str(path))
    assert err.value.returncode == 2
    assert "level" in str(err.value)
    assert not match.deals.exists()


def test_simulate_command_plays_the_round_to_the_end(round1, make_pair, director):
    for table in (1, 2):
        Match.objects.create(round=round1, table=table, pair_ns=make_pair(), pair_ew=make_pair())
    out = StringIO()
    call_command("simulate", round1.tournament.slug, "--round", "1", "--seed", "7", stdout=out)
    for m in round1.matches.all():
        assert m.state == Match.State.FINISHED and m.winner is not None
        assert m.deals.filter(state=Deal.State.CONFIRMED).count() == m.deals.count() > 0
    assert "table 1:" in out.getvalue()


def test_penalty_from_the_review_page_counts_tricks_from_one(deal, judge):
    c = as_user(judge)
    c.post(
        reverse("deal_action", args=[deal.pk, "penalty"]),
        {
            "seat": "W",
            "code": "signal",
            "trick": 3,
            "note": "tapped",
            "version": deal.version,
            "next": "review",
        },
    )
    penalty = deal.penalties.get()
    assert (penalty.seat, penalty.code, penalty.trick, penalty.note) == ("W", "signal", 2, "tapped")
    assert records.deal_record(deal)["penalties"] == [
        {"seat": "W", "code": "signal", "trick": 2, "note": "tapped"}
    ]


def test_a_challenged_throw_shows_the_forced_unit_and_its_penalty(match, judge):
    """Seed 002: ♠98844 thrown; a player shows ♠QQ, so 44 is played and 3 cards go back (10 per card)."""
    deal = deal_entry.start_deal(match, judge, trump="H", declarer="N")
    c = as_user(judge)
    response = c.post(
        reverse("deal_action", args=[deal.pk, "play"]),
        {
            "cards": "S4 S4",
            "version": 0,
            "throw_attempted": "S98844",
            "throw_challenger": "W",
            "throw_shown": "SQQ",
        },
        **JSON,
    )
    assert response.status_code == 200, response.json()
    throw = response.json()["state"]["tricks"][0]["throw"]
    assert [x["code"] for x in throw["forced"]] == ["S4", "S4"]
    assert throw["challenger"] == "W" and throw["penalty"] == 30


def test_a_wrong_forced_unit_is_refused(match, judge):
    deal = deal_entry.start_deal(match, judge, trump="H", declarer="N")
    response = as_user(judge).post(
        reverse("deal_action", args=[deal.pk, "play"]),
        {
            "cards": "S9",
            "version": 0,
            "throw_attempted": "S98844",
            "throw_challenger": "W",
            "throw_shown": "SQQ",
        },
        **JSON,
    )
    assert response.status_code == 422
    assert response.json()["violations"][0]["code"] == "wrong_forced_unit"


def test_the_state_after_each_play_is_the_state_read_afresh(deal, judge):
    """A play's reply is drawn from the play's own read of the deal: it must equal the deal read again."""
    c = as_user(judge)
    record = simulated(deal, seed=2)
    version = deal.version
    for fields in posted_plays(record):
        response = c.post(
            reverse("deal_action", args=[deal.pk, "play"]), {**fields, "version": version}, **JSON
        )
        assert response.status_code == 200, response.json()
        state = response.json()["state"]
        assert state == c.get(reverse("deal_state", args=[deal.pk])).json()
        version = state["deal"]["version"]
    assert state["complete"] and state["next_seat"] is None


def test_one_play_costs_a_bounded_number_of_queries(deal, judge, django_assert_max_num_queries):
    """Trick entry stays fast: one play (checks, save, history, the new screen) in a fixed number of queries."""
    c = as_user(judge)
    c.post(reverse("deal_action", args=[deal.pk, "play"]), {"cards": "SA", "version": 0}, **JSON)
    with django_assert_max_num_queries(12):
        response = c.post(
            reverse("deal_action", args=[deal.pk, "play"]), {"cards": "S2", "version": 1}, **JSON
        )
    assert response.status_code == 200


def test_time_called_after_the_limit_ends_the_match_and_survives_recompute(match, judge, director):
    import datetime as dt

    from django.utils import timezone

    tournament = match.round.tournament
    tournament.match_time_limit = 30
    tournament.save()
    deal = records.record_deal(
        match,
        simulated_first(match),
        director,
        started_at=timezone.now() - dt.timedelta(minutes=40),
        finished_at=timezone.now() - dt.timedelta(minutes=35),
    )
    match.refresh_from_db()
    match.started_at = timezone.now() - dt.timedelta(minutes=40)
    match.save()
    with pytest.raises(errors.RecordingError):
        match_fold.call_time(match, judge, now=timezone.now() - dt.timedelta(minutes=20))
    response = as_user(judge).post(reverse("match_action", args=[match.pk, "call-time"]))
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.state == Match.State.FINISHED and match.ended_by == "time"
    levels = deal.verdict["result"]["levels_after"]
    from rules.ranks import RANK_INDEX

    ns, ew = RANK_INDEX[levels["NS"]], RANK_INDEX[levels["EW"]]
    expected_winner = None if ns == ew else ("NS" if ns > ew else "EW")
    if expected_winner is None:  # equal levels: standard preset gives the banker side
        expected_winner = "NS" if deal.verdict["result"]["next_banker"] in "NS" else "EW"
    assert match.winner == match.pair_of(expected_winner)
    match_fold.recompute_match(match)
    match.refresh_from_db()
    assert match.ended_by == "time"


def test_only_the_director_records_a_forfeit(match, judge, director):
    response = as_user(judge).post(reverse("match_action", args=[match.pk, "forfeit"]), {"side": "EW"})
    assert response.status_code == 403
    match.refresh_from_db()
    assert match.state != Match.State.FINISHED
    as_user(director).post(reverse("match_action", args=[match.pk, "forfeit"]), {"side": "EW"})
    match.refresh_from_db()
    assert (match.state, match.ended_by, match.winner) == (Match.State.FINISHED, "forfeit", match.pair_ns)


def test_a_write_without_a_version_is_refused(deal, judge):
    response = as_user(judge).post(reverse("deal_action", args=[deal.pk, "play"]), {"cards": "SA"}, **JSON)
    assert response.status_code == 400
    assert not deal.tricks.exists()


def test_a_round_finishes_with_its_last_match_and_reopens_with_it(round1, make_pair, director):
    from tournaments.models import Round

    for table in (1, 2):
        Match.objects.create(round=round1, table=table, pair_ns=make_pair(), pair_ew=make_pair())
    call_command("simulate", round1.tournament.slug, "--round", "1", "--seed", "3", stdout=StringIO())
    round1.refresh_from_db()
    assert round1.state == Round.State.FINISHED
    last = Deal.objects.filter(match__round=round1).order_by("-pk").first()
    deal_entry.reopen_deal(last, director, version=last.version)
    round1.refresh_from_db()
    assert round1.state == Round.State.PUBLISHED


def test_the_state_is_encoded_as_djangos_json_response_would(deal, judge):
    """orjson on the hot path: the same document as ``JsonResponse``, lazy translations and all."""
    state = {**current_deal_state(deal, judge), "lazy": gettext_lazy("Trumps"), "when": deal.changed_at, 3: "n"}
    fast, django = json_response(state, status=409), JsonResponse(state, status=409)
    assert fast.status_code == django.status_code == 409
    assert fast["Content-Type"] == django["Content-Type"] == "application/json"
    assert json.loads(fast.content) == json.loads(django.content)
