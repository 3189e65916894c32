"""The table's commands (record_deal, match_state, simulate) and the recording service end to end: penalties from
the review page, challenged throws, the state after each play, time called, forfeits, a round finishing.

The rounds the ``simulate`` command plays to the end are played to a target of 4 (``short_matches``): a few deals a
match instead of a climb to A, through the same simulator and the same folds; what is claimed is the round's
end, not its length."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.http import JsonResponse
from django.urls import reverse
from django.utils.translation import gettext_lazy

from referee.table.recording import deal_entry, records
from referee.table.screens.deal_state import current_deal_state
from referee.table.views import json_response
from tests.table.helpers import JSON, as_user, posted_plays, simulated, simulated_first
from tournaments.models import Deal, Match
from tournaments.scoring import corrections, errors, fold

pytestmark = pytest.mark.django_db
SHORT = {"preset": "standard", "target_level": "4"}


def short_matches(round1, make_pair) -> None:
    """Two tables in the round, its tournament played to a target of 4."""
    round1.tournament.ruleset = SHORT
    round1.tournament.save(update_fields=["ruleset"])
    for table in (1, 2):
        Match.objects.create(round=round1, table=table, pair_ns=make_pair(), pair_ew=make_pair())


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
    assert set(state) == {
        "id",
        "status",
        "ruleset",
        "levels",
        "banker",
        "deals",
        "winner",
        "ended_by",
        "overtime",
    }
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
    short_matches(round1, make_pair)
    out = StringIO()
    call_command("simulate", round1.tournament.slug, "--round", "1", "--seed", "7", stdout=out)
    for m in round1.matches.all():
        assert m.state == Match.State.FINISHED and m.winner is not None
        assert m.deals.filter(state=Deal.State.CONFIRMED).count() == m.deals.count() > 0
    assert "table 1:" in out.getvalue()


def test_penalty_from_the_review_page_counts_tricks_from_one(deal, judge):
    c = as_user(judge)
    c.post(
        reverse("deal-penalty", args=[deal.pk]),
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
        reverse("deal-play", args=[deal.pk]),
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
        reverse("deal-play", args=[deal.pk]),
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
        response = c.post(reverse("deal-play", args=[deal.pk]), {**fields, "version": version}, **JSON)
        assert response.status_code == 200, response.json()
        state = response.json()["state"]
        assert state == c.get(reverse("deal_state", args=[deal.pk])).json()
        version = state["deal"]["version"]
    assert state["complete"] and state["next_seat"] is None


def test_one_play_costs_a_bounded_number_of_queries(deal, judge, django_assert_max_num_queries):
    """Trick entry stays fast: one play (checks, save, history, the new screen) in a fixed number of queries."""
    c = as_user(judge)
    c.post(reverse("deal-play", args=[deal.pk]), {"cards": "SA", "version": 0}, **JSON)
    with django_assert_max_num_queries(12):
        response = c.post(reverse("deal-play", args=[deal.pk]), {"cards": "S2", "version": 1}, **JSON)
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
        fold.call_time(match, judge, now=timezone.now() - dt.timedelta(minutes=20))
    response = as_user(judge).post(reverse("match-call-time", args=[match.pk]))
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
    fold.recompute_match(match)
    match.refresh_from_db()
    assert match.ended_by == "time"


def test_only_the_director_records_a_forfeit(match, judge, director):
    response = as_user(judge).post(reverse("match-forfeit", args=[match.pk]), {"side": "EW"})
    assert response.status_code == 403
    match.refresh_from_db()
    assert match.state != Match.State.FINISHED
    as_user(director).post(reverse("match-forfeit", args=[match.pk]), {"side": "EW"})
    match.refresh_from_db()
    assert (match.state, match.ended_by, match.winner) == (Match.State.FINISHED, "forfeit", match.pair_ns)


def test_a_write_without_a_version_is_refused(deal, judge):
    response = as_user(judge).post(reverse("deal-play", args=[deal.pk]), {"cards": "SA"}, **JSON)
    assert response.status_code == 400
    assert not deal.tricks.exists()


def test_a_round_finishes_with_its_last_match_and_reopens_with_it(round1, make_pair, director):
    from tournaments.models import Round

    short_matches(round1, make_pair)
    call_command("simulate", round1.tournament.slug, "--round", "1", "--seed", "3", stdout=StringIO())
    round1.refresh_from_db()
    assert round1.state == Round.State.FINISHED
    last = Deal.objects.filter(match__round=round1).order_by("-pk").first()
    corrections.reopen_deal(last, director, version=last.version, reason="a correction")
    round1.refresh_from_db()
    assert round1.state == Round.State.PUBLISHED


def test_the_state_is_encoded_as_djangos_json_response_would(deal, judge):
    """orjson on the hot path: the same document as ``JsonResponse``, lazy translations and all."""
    state = {
        **current_deal_state(deal, judge),
        "lazy": gettext_lazy("Trumps"),
        "when": deal.changed_at,
        3: "n",
    }
    fast, django = json_response(state, status=409), JsonResponse(state, status=409)
    assert fast.status_code == django.status_code == 409
    assert fast["Content-Type"] == django["Content-Type"] == "application/json"
    assert json.loads(fast.content) == json.loads(django.content)
