"""A finished tournament takes no entry at the table: every write of the recording service is refused (409, one
sentence) with nothing saved, and works again once the director reopens the tournament; the judges' pages say
so and offer nothing that would be refused.

The finished day (``Day``) is built once for the module (``finished_day``, rolled back at its end) and read again
by each test inside its own savepoint, so a test's reopening and writes are undone before the next."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from referee.table.recording import deal_entry, quick, records, settling
from rules.simulate import simulate_deal
from tests.table.helpers import (
    module_transaction,
    one_match,
    play_through_service,
    record_play,
    simulated,
    table_judge,
)
from tournaments.adjusted import awarding as adjusting
from tournaments.competition.accounts import create_director, seat_table
from tournaments.competition.finishing import finish_tournament, reopen_tournament
from tournaments.models import (
    Adjustment,
    Deal,
    Match,
    Pair,
    Penalty,
    Play,
    Player,
    Round,
    Ruling,
    Tournament,
)
from tournaments.scoring import corrections
from tournaments.scoring.errors import Finished
from tournaments.scoring.fold import call_time, forfeit_match

pytestmark = pytest.mark.django_db
JSON = {"HTTP_ACCEPT": "application/json"}

# W shows out of spades in trick 1 and plays a spade in trick 3 (trump hearts, N banks): a revoke, proven.
PLAYS = ["S3", "C4", "S5", "S6", "DA", "D3", "D4", "D5", "S7", "S8", "S9"]
REVOKE = "0:W:revoke_suit"
KITTY = "C2 C2 C3 C3 D6 D6 D7 D7"


@dataclass
class Day:
    """A finished tournament's round 1: table 1 forfeited by E–W in the middle of deal 2 (awarded by the
    director, left open with a proven revoke and a penalty the judge called), table 2 forfeited after a confirmed deal. ``fresh`` is a table
    of a round 2 made after reopening, for the writes that need a match still to play."""

    tournament: Tournament
    judge: object
    director: object
    open: Deal
    penalty: Penalty
    played: Match
    confirmed: Deal
    fresh: Match | None = None
    ready: Deal | None = None  # a deal a ``ready`` step made for the write (to submit, to confirm)


def build_day() -> dict[str, int]:
    """The day (see ``Day``) built in the conftest's match, with its judge and a director: the ids of each."""
    judge = table_judge("judge")
    director = create_director("td", "director-pass-1")
    match = one_match("spring", judge)
    t = match.round.tournament
    t.quick_entry_allowed, t.match_time_limit = True, 60
    t.save()
    first = deal_entry.start_deal(match, judge, trump="H", declarer="N")
    for cards in PLAYS:
        first.refresh_from_db()
        record_play(first, judge, cards=cards, version=first.version)
    first.refresh_from_db()
    penalty = corrections.add_penalty(first, judge, seat="E", code="signal", version=first.version)
    adjusting.award(match, director, kind="forfeit", side="NS", reason="E–W did not come back")
    ns, ew = (
        Pair.objects.create(
            tournament=t, name=f"队{n}", player1=Player.objects.create(name=f"甲{n}"),
            player2=Player.objects.create(name=f"乙{n}"),
        )
        for n in (3, 4)
    )  # fmt: skip
    played = Match.objects.create(round=match.round, table=2, pair_ns=ns, pair_ew=ew, judge=judge)
    record = simulate_deal(t.ruleset, banker="N", level="2", seed=3)
    confirmed = records.record_deal(played, record, director)
    forfeit_match(played, director, side="NS")
    finish_tournament(t, director)
    return {
        "tournament": t.pk, "judge": judge.pk, "director": director.pk, "open": first.pk,
        "penalty": penalty.pk, "played": played.pk, "confirmed": confirmed.pk,
    }  # fmt: skip


@pytest.fixture(scope="module")
def finished_day(django_db_setup, django_db_blocker) -> Iterator[dict[str, int]]:
    """Built once per module (``module_transaction``): each test runs in its own savepoint."""
    with module_transaction(django_db_blocker):
        yield build_day()


@pytest.fixture
def judge(finished_day):
    return get_user_model().objects.get(pk=finished_day["judge"])


@pytest.fixture
def director(finished_day):
    return get_user_model().objects.get(pk=finished_day["director"])


@pytest.fixture
def day(finished_day, judge, director) -> Day:
    """The module's day, read again (a test's writes, and what its steps add to the ``Day``, are its own)."""
    ids = finished_day
    return Day(
        Tournament.objects.get(pk=ids["tournament"]), judge, director, Deal.objects.get(pk=ids["open"]),
        Penalty.objects.get(pk=ids["penalty"]), Match.objects.get(pk=ids["played"]),
        Deal.objects.get(pk=ids["confirmed"]),
    )  # fmt: skip


def current(deal: Deal) -> Deal:
    """The deal as a request reads it: with its match, round and tournament as they are now."""
    return Deal.objects.select_related("match__round__tournament", "match__pair_ns", "match__pair_ew").get(
        pk=deal.pk
    )


def match_now(match: Match) -> Match:
    return Match.objects.select_related("round__tournament", "pair_ns", "pair_ew").get(pk=match.pk)


def to_play(d: Day) -> Match:
    """The match a new deal goes to: the fresh table once there is one, else a finished one (refused first)."""
    return match_now(d.fresh or d.played)


def fresh_table(d: Day, started: timedelta | None = None) -> None:
    rnd = Round.objects.create(tournament=d.tournament, number=2, state=Round.State.PUBLISHED)
    d.fresh = seat_table(rnd, 1, d.judge, ("新东", "新西"))
    if started is not None:
        Match.objects.filter(pk=d.fresh.pk).update(started_at=timezone.now() - started)


def a_whole_deal_to_submit(d: Day) -> None:
    fresh_table(d)
    judge = d.judge
    deal = deal_entry.start_deal(to_play(d), judge, trump="S", declarer="N")
    record = simulated(deal)
    play_through_service(deal, judge, record)
    deal.refresh_from_db()
    deal_entry.set_kitty(deal, judge, record["kitty"], version=deal.version)
    d.ready = deal


def a_deal_to_confirm(d: Day) -> None:
    fresh_table(d)
    d.ready = quick.quick_entry(
        to_play(d), d.judge, trump="S", points=40, kitty_points=0, last_lead="single",
        attackers_won_last=False, declarer="N",
    )  # fmt: skip


def v(deal: Deal) -> int:
    return current(deal).version


def forfeit_withdrawn(d: Day) -> None:
    """Table 1's forfeit taken back: a forfeit closes the table, so its open deal takes writes again only then."""
    adjusting.withdraw(Adjustment.objects.match_result(d.open.match), d.director)


def judge_of(d: Day):
    return d.judge


def director_of(d: Day):
    return d.director


# (name, write, ready): each write of the recording service, as the judge (or the director) makes it. While the
# tournament is finished it is refused whatever else it would need (the guard comes first); once reopened it is
# done, after ``ready`` made what it needs.
TABLE_WRITES = [
    (
        "start a deal",
        lambda d: deal_entry.start_deal(to_play(d), judge_of(d), trump="S", declarer="N"),
        fresh_table,
    ),
    (
        "quick entry",
        lambda d: quick.quick_entry(
            to_play(d),
            judge_of(d),
            trump="S",
            points=40,
            kitty_points=0,
            last_lead="single",
            attackers_won_last=False,
            declarer="N",
        ),  # fmt: skip
        fresh_table,
    ),
    (
        "record a whole deal (record_deal)",
        lambda d: records.record_deal(
            to_play(d), simulate_deal(d.tournament.ruleset, banker="N", level="2", seed=5), director_of(d)
        ),
        fresh_table,
    ),
    (
        "call time",
        lambda d: call_time(to_play(d), judge_of(d), now=timezone.now()),
        lambda d: fresh_table(d, started=timedelta(hours=2)),
    ),
    ("record a forfeit", lambda d: forfeit_match(to_play(d), director_of(d), side="NS"), fresh_table),
    (
        "a play",
        lambda d: record_play(current(d.open), judge_of(d), cards="SJ", version=v(d.open)),
        forfeit_withdrawn,
    ),
    (
        "undo a play",
        lambda d: deal_entry.undo(current(d.open), judge_of(d), version=v(d.open)),
        forfeit_withdrawn,
    ),
    (
        "undo a trick",
        lambda d: deal_entry.undo(current(d.open), judge_of(d), version=v(d.open), whole_trick=True),
        forfeit_withdrawn,
    ),
    (
        "the kitty",
        lambda d: deal_entry.set_kitty(current(d.open), judge_of(d), KITTY, version=v(d.open)),
        forfeit_withdrawn,
    ),
    (
        "call a penalty",
        lambda d: corrections.add_penalty(
            current(d.open), judge_of(d), seat="W", code="misplay", version=v(d.open)
        ),
        forfeit_withdrawn,
    ),
    (
        "remove a penalty",
        lambda d: corrections.remove_penalty(
            current(d.open), judge_of(d), penalty_id=d.penalty.pk, version=v(d.open)
        ),
        forfeit_withdrawn,
    ),
    (
        "a play out of turn",
        lambda d: settling.record_out_of_turn(
            current(d.open), judge_of(d), seat="N", cards="", version=v(d.open)
        ),
        forfeit_withdrawn,
    ),
    (
        "apply the ruleset's penalty",
        lambda d: settling.apply_penalty(current(d.open), judge_of(d), REVOKE),
        forfeit_withdrawn,
    ),
    (
        "recorded as played",
        lambda d: settling.confirm_played(current(d.open), judge_of(d), REVOKE),
        forfeit_withdrawn,
    ),
    (
        "dismiss a violation",
        lambda d: settling.dismiss(current(d.open), director_of(d), REVOKE, "seen"),
        forfeit_withdrawn,
    ),
    (
        "withdraw a dismissal",
        lambda d: settling.withdraw_dismissal(current(d.open), director_of(d), REVOKE),
        lambda d: (forfeit_withdrawn(d), settling.dismiss(current(d.open), director_of(d), REVOKE, "seen")),
    ),
    (
        "submit a deal",
        lambda d: deal_entry.submit_deal(
            current(d.ready or d.open), judge_of(d), version=v(d.ready or d.open)
        ),
        a_whole_deal_to_submit,
    ),
    (
        "confirm a deal",
        lambda d: deal_entry.confirm_deal(
            current(d.ready or d.confirmed), director_of(d), version=v(d.ready or d.confirmed)
        ),
        a_deal_to_confirm,
    ),
    (
        "reopen a deal",
        lambda d: corrections.reopen_deal(
            current(d.confirmed), director_of(d), version=v(d.confirmed), reason="a correction"
        ),
        None,
    ),
]


def saved() -> tuple:
    """Everything a refused write must leave as it was."""
    return (
        list(Deal.objects.order_by("pk").values_list("pk", "version", "state", "kitty", "verdict")),
        list(
            Match.objects.order_by("pk").values_list(
                "pk", "version", "state", "forfeited_by", "time_called_at"
            )
        ),
        Play.objects.count(),
        list(Penalty.objects.order_by("pk").values_list("pk", "seat", "code")),
        list(Ruling.objects.order_by("pk").values_list("pk", "violation", "kind")),
    )


@pytest.mark.parametrize(
    ("name", "write", "ready"), TABLE_WRITES, ids=[name for name, _w, _r in TABLE_WRITES]
)
def test_every_table_write_is_refused_while_the_tournament_is_finished_and_works_once_reopened(
    day, director, name, write, ready
):
    before = saved()
    with translation.override("zh-hans"), pytest.raises(Finished) as refused:
        write(day)
    assert refused.value.message == "赛事已结束：成绩已定，不能再修改。"
    assert (refused.value.status, refused.value.code) == (409, "finished")
    assert saved() == before
    reopen_tournament(day.tournament, director)
    if ready is not None:
        ready(day)
    before = saved()
    write(day)
    assert saved() != before


def test_the_judges_json_play_is_refused_with_409_in_the_judges_language(day, judge):
    c = Client()
    c.force_login(judge)
    url = reverse("deal-play", args=[day.open.pk])
    answer = c.post(url, {"cards": "SJ", "version": v(day.open)}, **JSON)
    assert answer.status_code == 409
    assert (
        answer.json()["error"] == "finished"
        and answer.json()["message"] == "赛事已结束：成绩已定，不能再修改。"
    )
    c.cookies["django_language"] = "en"
    answer = c.post(url, {"cards": "SJ", "version": v(day.open)}, **JSON)
    assert (
        answer.json()["message"]
        == "The tournament is finished: its results are final and can no longer be changed."
    )
    assert Play.objects.filter(trick__deal=day.open).count() == len(PLAYS)


@pytest.mark.parametrize("page", ["new_deal", "quick_entry"])
def test_the_new_deal_and_quick_entry_pages_of_a_finished_tournament_answer_409_not_500(day, director, page):
    c = Client()
    c.force_login(director)
    c.cookies["django_language"] = "en"
    for method in ("get", "post"):
        response = getattr(c, method)(reverse(page, args=[day.played.pk]))
        assert response.status_code == 409
        assert "The tournament is finished" in response.content.decode()


def test_the_match_and_review_pages_say_so_and_offer_no_entry_nor_reopening(day, director):
    c = Client()
    c.force_login(director)
    page = c.get(reverse("match", args=[day.played.pk])).content.decode()
    assert "赛事已结束：成绩已定，不能再修改。" in page
    assert reverse("new_deal", args=[day.played.pk]) not in page
    review = c.get(reverse("review", args=[day.confirmed.pk])).content.decode()
    assert reverse("deal-reopen", args=[day.confirmed.pk]) not in review
    reopen_tournament(day.tournament, director)
    review = c.get(reverse("review", args=[day.confirmed.pk])).content.decode()
    assert reverse("deal-reopen", args=[day.confirmed.pk]) in review


def test_record_deal_refuses_a_finished_tournament_and_simulate_a_draft_round_with_exit_status_2(
    day, director, tmp_path
):
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(simulate_deal(day.tournament.ruleset, banker="N", level="2", seed=5)))
    with (
        translation.override("en"),
        pytest.raises(CommandError, match="The tournament is finished") as refused,
    ):
        call_command("record_deal", str(day.played.pk), str(path))
    assert refused.value.returncode == 2 and not day.played.deals.filter(number=2).exists()
    reopen_tournament(day.tournament, director)
    draft = Round.objects.create(tournament=day.tournament, number=2, state=Round.State.DRAFT)
    seat_table(draft, 1, day.judge)
    with translation.override("en"), pytest.raises(CommandError, match="still a draft") as refused:
        call_command("simulate", day.tournament.slug, "--round", "2")
    assert refused.value.returncode == 2 and not Deal.objects.filter(match__round=draft).exists()
