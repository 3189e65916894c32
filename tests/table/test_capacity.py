"""A play's cheap path keeps every safety property: history with who and when, stale checks, one write per key,
a bounded number of queries, and history rows that are the ones a save makes."""

from __future__ import annotations

import pytest
from django.db import transaction
from django.test import Client
from django.utils import timezone

from referee.table import actions
from referee.table.recording import deal_entry, receipts
from referee.table.recording import play as recording_play
from tests.action_urls import deal_url
from tests.table.helpers import record_play, simulated
from tournaments.models import Deal, Play, Trick, WriteReceipt
from tournaments.scoring import errors
from tournaments.scoring import snapshot as snapshot_module
from tournaments.scoring.sql import claim as claim_version
from tournaments.scoring.sql import insert_with_history, record_change

pytestmark = pytest.mark.django_db
JSON = {"HTTP_ACCEPT": "application/json"}


@pytest.fixture
def deal(match, judge):
    return deal_entry.start_deal(match, judge, trump="S", declarer="N")


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def post(client: Client, deal: Deal, action: str, key: str, **fields):
    url = deal_url(deal.pk, action)
    return client.post(url, {**fields, receipts.KEY_FIELD: key}, **JSON)


def test_every_play_and_undo_leaves_history_rows_with_the_user_and_the_time(deal, judge):
    client = signed_in(judge)
    plays = simulated(deal)["tricks"][0]["plays"]
    for n, (seat, cards) in enumerate(plays[:3]):
        assert (
            post(client, deal, "play", f"play-key-{n}", cards=cards, seat=seat, version=n).status_code == 200
        )
    assert post(client, deal, "undo", "undo-key-0", version=3).status_code == 200

    play_rows = Play.history.order_by("history_id")
    assert [row.history_type for row in play_rows] == ["+", "+", "+", "-"]
    assert all(row.history_user == judge and row.history_date is not None for row in play_rows)
    trick_rows = Trick.history.all()
    assert [row.history_type for row in trick_rows] == ["+"]
    assert trick_rows[0].history_user == judge
    deal_rows = list(Deal.history.filter(id=deal.pk).order_by("history_id"))
    assert [row.version for row in deal_rows] == [0, 1, 2, 3, 4]  # started, three plays, the undo
    assert all(row.history_user == judge and row.history_date is not None for row in deal_rows)
    deal.refresh_from_db()
    assert (deal.version, deal.changed_by) == (4, judge)


def test_a_keyed_play_costs_a_bounded_number_of_queries(deal, judge, django_assert_max_num_queries):
    """Session, user, the deal, the receipt, its tricks and penalties; then the deal's claim, the trick and the
    play with their history rows, the receipt; and the answer drawn from that one read."""
    client = signed_in(judge)
    post(client, deal, "play", "first-play", cards="SA", version=0)
    with django_assert_max_num_queries(14):
        response = post(client, deal, "play", "second-play", cards="S2", version=1)
    assert response.status_code == 200 and response.json()["state"]["deal"]["version"] == 2


def test_a_play_checked_on_a_version_changed_before_it_is_saved_is_refused_as_stale(deal, judge):
    planned = recording_play.check(deal, judge, cards="SA", version=0)
    record_play(Deal.objects.get(pk=deal.pk), judge, cards="SK", version=0)  # another phone, first
    with pytest.raises(errors.StaleEdit):
        recording_play.save(planned)
    assert list(Play.objects.values_list("cards", flat=True)) == ["SK"]
    assert Deal.objects.get(pk=deal.pk).version == 1


def test_a_retry_whose_first_try_saved_meanwhile_gets_the_first_answer(deal, judge, monkeypatch):
    """The retry passes the receipt look-up and the engine's check while its first try is still being saved; the
    first commits, and the retry is answered with the first's outcome, never a conflict nor a second play."""
    first: list = []
    key, fields = "retried-key", {"cards": "SA", "version": "0"}
    real_check = recording_play.check

    def check_while_the_first_try_commits(*args, **kwargs):
        checked = real_check(*args, **kwargs)  # the retry's check passed before the first was saved
        monkeypatch.setattr(recording_play, "check", real_check)
        first.append(actions.play(Deal.objects.get(pk=deal.pk), judge, fields, key))
        return checked

    monkeypatch.setattr(recording_play, "check", check_while_the_first_try_commits)
    retry = actions.play(Deal.objects.get(pk=deal.pk), judge, fields, key)
    assert first[0].ok and retry.ok and retry.outcome.body == first[0].outcome.body
    assert Play.objects.count() == 1 and WriteReceipt.objects.filter(key=key).count() == 1


def history_of_a_save(row, user) -> dict:
    """The history row simple-history's save signal writes for ``row``, as a dict without its own key and date."""
    row._history_user = user
    row.save()
    return row.history.values().order_by("-history_id").first()


def test_an_inserted_row_gets_the_history_row_a_save_would_give_it(deal, judge):
    saved = history_of_a_save(Trick(deal=deal, number=0, throw_attempted="SA SK"), judge)
    inserted = insert_with_history(Trick(deal=deal, number=1, throw_attempted="SA SK"), judge)
    row = inserted.history.values().order_by("-history_id").first()
    leave_out = ("history_id", "history_date", "id", "number")
    assert {k: v for k, v in row.items() if k not in leave_out} == {
        k: v for k, v in saved.items() if k not in leave_out
    }
    assert (row["id"], row["history_type"], row["history_user_id"]) == (inserted.pk, "+", judge.pk)


def test_a_claimed_change_gets_the_history_row_a_save_would_give_it(deal, judge):
    when = timezone.now()
    deal.version, deal.changed_at = deal.version + 1, when
    Deal.objects.filter(pk=deal.pk).update(version=deal.version, changed_at=when)
    record_change(deal, judge, when)
    claimed = Deal.history.filter(id=deal.pk).values().order_by("-history_id").first()
    saved = history_of_a_save(deal, judge)
    leave_out = ("history_id", "history_date", "changed_at")  # a save stamps its own time of change
    assert {k: v for k, v in claimed.items() if k not in leave_out} == {
        k: v for k, v in saved.items() if k not in leave_out
    }
    assert (claimed["history_type"], claimed["history_date"]) == ("~", when)


def test_the_version_claim_takes_only_the_version_it_names(deal, judge):
    when = timezone.now()
    assert claim_version(deal.pk, deal.version, judge, when)
    assert not claim_version(deal.pk, deal.version, judge, when)  # taken: the deal is one version on
    deal.refresh_from_db()
    assert (deal.version, deal.changed_by, deal.changed_at) == (1, judge, when)
    assert claim_version(deal.pk, 1, None, when) and Deal.objects.get(pk=deal.pk).changed_by is None


@pytest.mark.parametrize("deal_id", [2**63, 10**30])
def test_a_deal_number_too_large_for_the_database_is_not_found(judge, deal_id):
    assert signed_in(judge).get(f"/deal/{deal_id}/state/").status_code == 404


# ------------------------------------------------------------------ the turn kept from one play for the next


@pytest.fixture
def judge_calls(monkeypatch):
    """Every whole-deal judging the service asks of the engine, counted."""
    calls = []
    real = snapshot_module.judge

    def counted(record, **kwargs):
        calls.append(record)
        return real(record, **kwargs)

    monkeypatch.setattr(snapshot_module, "judge", counted)
    recording_play.KEPT.clear()
    return calls


def test_a_play_after_a_committed_play_is_judged_once_not_twice(
    deal, judge, judge_calls, django_capture_on_commit_callbacks
):
    plays = simulated(deal)["tricks"][0]["plays"]
    for n, (seat, cards) in enumerate(plays[:3]):
        before = len(judge_calls)
        with django_capture_on_commit_callbacks(execute=True):
            record_play(deal, judge, cards=cards, seat=seat, version=n)
        deal.refresh_from_db()
        assert len(judge_calls) - before == (2 if n == 0 else 1)  # the first play's "before" is judged


def test_a_play_that_is_rolled_back_leaves_no_turn_behind(
    deal, judge, judge_calls, django_capture_on_commit_callbacks
):
    seat, cards = simulated(deal)["tricks"][0]["plays"][0]
    with pytest.raises(ZeroDivisionError), django_capture_on_commit_callbacks(execute=True):
        with transaction.atomic():
            record_play(deal, judge, cards=cards, seat=seat, version=0)
            1 / 0  # noqa: B018 - the write fails after the play was saved in its transaction
    assert recording_play.KEPT == {} and not Play.objects.exists()


def test_a_kept_turn_is_not_used_once_the_deal_changed_another_way(
    deal, judge, judge_calls, django_capture_on_commit_callbacks
):
    """Undo moves the deal to a new version: the turn kept for the old one is never asked for again, and the
    check after the undo judges the deal and finds the same seat due."""
    (s1, c1), (s2, c2) = simulated(deal)["tricks"][0]["plays"][:2]
    with django_capture_on_commit_callbacks(execute=True):
        record_play(deal, judge, cards=c1, seat=s1, version=0)
    deal.refresh_from_db()
    deal_entry.undo(deal, judge, version=1)
    deal.refresh_from_db()
    before = len(judge_calls)
    with django_capture_on_commit_callbacks(execute=True):
        record_play(deal, judge, cards=c1, seat=s1, version=2)
    assert len(judge_calls) - before == 2
    deal.refresh_from_db()
    with pytest.raises(errors.RecordingError, match="轮到"):
        record_play(deal, judge, cards=c2, seat=s1, version=3)  # the kept turn: s2 is due


def test_a_kept_turn_is_not_used_under_another_ruleset(
    deal, judge, judge_calls, django_capture_on_commit_callbacks
):
    (s1, c1), (s2, c2) = simulated(deal)["tricks"][0]["plays"][:2]
    with django_capture_on_commit_callbacks(execute=True):
        record_play(deal, judge, cards=c1, seat=s1, version=0)
    tournament = deal.match.round.tournament
    tournament.ruleset = {"preset": "standard", "misplay_points": 20}
    tournament.save()
    deal = Deal.objects.select_related("match__round__tournament").get(pk=deal.pk)
    before = len(judge_calls)
    record_play(deal, judge, cards=c2, seat=s2, version=1)
    assert len(judge_calls) - before == 2
