"""A submitted deal is frozen (issue 21, item 7): every change after submit — a penalty, a ruling, a play, an undo,
the kitty — is refused (409, one sentence) until the deal is reopened with a reason; the reopening is kept (who,
when, why) on the deal and in its history; the confirmer's page shows what changed since the first submit, and
the confirmation queue marks the deal."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from referee.table.recording import deal_entry, settling
from referee.table.recording.changes import deal_changes
from tests.table.helpers import (
    JSON,
    act,
    as_user,
    confirmed_deal,
    play_through_service,
    record_play,
    simulated,
    simulated_first,
)
from tournaments.models import Deal, Penalty
from tournaments.scoring import corrections
from tournaments.scoring.errors import Frozen, PermissionRefused, RecordingError

REVOKE_EAST = {"seat": "E", "code": "revoke", "trick": "2", "note": ""}


def fresh(deal: Deal) -> Deal:
    deal.refresh_from_db()
    return deal


@pytest.fixture
def submitted(match, judge, director) -> Deal:
    """Deal 1 recorded whole (first submitted and confirmed at once), reopened by the director and submitted
    again by the table's judge: a submitted deal waiting for its confirmation."""
    deal = confirmed_deal(match, director)
    corrections.reopen_deal(deal, director, version=deal.version, reason="check the kitty")
    deal_entry.submit_deal(fresh(deal), judge, version=deal.version)
    return fresh(deal)


def a_penalty_row(deal: Deal, judge) -> Penalty:
    return Penalty.objects.create(deal=deal, seat="N", code="signal", recorded_by=judge)


# Each kind of change a page can post, with the fields it posts (the deal's own version is added).
CHANGES = {
    "penalty": lambda deal, judge: ("penalty", REVOKE_EAST),
    "remove a penalty": lambda deal, judge: ("remove_penalty", {"penalty": a_penalty_row(deal, judge).pk}),
    "apply a ruling": lambda deal, judge: ("apply", {"violation": "0:E:revoke_suit"}),
    "dismiss (ruling)": lambda deal, judge: ("dismiss", {"violation": "0:E:revoke_suit", "note": "seen"}),
    "play": lambda deal, judge: ("play", {"cards": "SA", "seat": "N"}),
    "undo": lambda deal, judge: ("undo", {}),
    "undo a trick": lambda deal, judge: ("undo_trick", {}),
    "kitty": lambda deal, judge: ("kitty", {"kitty": ""}),
    "play out of turn": lambda deal, judge: ("out_of_turn", {"seat": "E", "cards": "SA"}),
}


@pytest.mark.parametrize("change", list(CHANGES))
def test_every_change_to_a_submitted_deal_without_a_reopen_is_refused_with_409_and_nothing_changes(
    submitted, judge, director, change
):
    action, fields = CHANGES[change](submitted, judge)
    before = (submitted.version, submitted.verdict, list(submitted.penalties.values_list("pk", flat=True)))
    user = director if action == "dismiss" else judge
    client = as_user(user)
    client.cookies["django_language"] = "en"
    response = act(client, submitted, action, version=submitted.version, **fields)
    assert response.status_code == 409, response.content
    answer = response.json()
    assert answer["error"] == "frozen"
    assert answer["message"] == "This deal is submitted: reopen it, with a reason, before changing it."
    deal = fresh(submitted)
    assert deal.state == Deal.State.SUBMITTED
    after = (deal.version, deal.verdict, list(deal.penalties.values_list("pk", flat=True)))
    assert after == before


@pytest.mark.parametrize(
    "write",
    [
        lambda d, u: corrections.add_penalty(d, u, seat="E", code="revoke", version=d.version),
        lambda d, u: deal_entry.set_kitty(d, u, "", version=d.version),
        lambda d, u: deal_entry.undo(d, u, version=d.version),
        lambda d, u: settling.apply_penalty(d, u, "0:E:revoke_suit"),
    ],
    ids=["penalty", "kitty", "undo", "ruling"],
)
def test_the_service_itself_refuses_a_change_to_a_submitted_deal_in_chinese(submitted, judge, write):
    with translation.override("zh-hans"), pytest.raises(Frozen) as refused:
        write(submitted, judge)
    assert (
        refused.value.status == 409
        and refused.value.message == "本局已提交：要修改，请先说明原因并重新打开。"
    )


def test_a_confirmed_deal_is_refused_as_frozen_too_and_only_the_director_reopens_it(match, judge, director):
    deal = confirmed_deal(match, director)
    with pytest.raises(Frozen) as refused:
        corrections.add_penalty(deal, director, seat="E", code="revoke", version=deal.version)
    assert refused.value.status == 409 and "only the director" in refused.value.message
    with pytest.raises(PermissionRefused):
        corrections.reopen_deal(deal, judge, version=deal.version, reason="I saw a revoke")


def test_a_reopen_needs_a_reason_and_keeps_who_when_and_why(submitted, judge, director):
    for blank in ("", "   "):
        with pytest.raises(RecordingError) as refused:
            corrections.reopen_deal(submitted, judge, version=submitted.version, reason=blank)
        assert refused.value.message == "Say why the deal is reopened: the reason is kept in its history."
    with pytest.raises(RecordingError):
        corrections.reopen_deal(submitted, judge, version=submitted.version, reason="x" * 201)
    assert fresh(submitted).state == Deal.State.SUBMITTED
    corrections.reopen_deal(submitted, judge, version=submitted.version, reason="  East revoked in trick 3 ")
    deal = fresh(submitted)
    assert deal.state == Deal.State.RECORDING
    assert (deal.reopened_by, deal.reopen_reason) == (judge, "East revoked in trick 3")
    assert deal.reopened_at is not None
    latest = deal.history.first()
    assert latest.history_user == judge and latest.history_change_reason == "East revoked in trick 3"
    assert latest.reopened_by == judge and latest.reopen_reason == "East revoked in trick 3"


def test_the_table_judge_reopens_a_submitted_deal_but_another_judge_may_not(submitted, make_judge):
    with pytest.raises(PermissionRefused):
        corrections.reopen_deal(submitted, make_judge("other"), version=submitted.version, reason="why not")
    response = as_user(submitted.match.judge).post(
        reverse("deal-reopen", args=[submitted.pk]),
        {"version": submitted.version, "reason": ""},
        **JSON,
    )
    assert response.status_code == 400 and fresh(submitted).state == Deal.State.SUBMITTED


def test_a_reopened_and_resubmitted_deal_shows_the_confirmer_what_changed_and_the_queue_marks_it(
    submitted, judge, director, make_judge, english
):
    result_before = submitted.verdict["result"]
    corrections.reopen_deal(submitted, judge, version=submitted.version, reason="East revoked in trick 3")
    corrections.add_penalty(
        fresh(submitted), judge, seat="E", code="revoke", trick=2, version=submitted.version
    )
    deal_entry.undo(fresh(submitted), judge, version=submitted.version, whole_trick=True)
    deal = fresh(submitted)
    changes = deal_changes(deal)
    last = deal.tricks.count()  # the last trick (counted from 0) is gone: its four plays are changes
    assert [(p.trick, p.after) for p in changes.plays] == [(last, "")] * 4 and all(
        p.before for p in changes.plays
    )
    # The last trick is entered again as it was: the plays no longer differ, the penalty does.
    record = simulated_first(deal.match)
    for seat, cards in record["tricks"][-1]["plays"]:
        record_play(fresh(deal), judge, cards=cards, seat=seat, version=fresh(deal).version)
    deal_entry.submit_deal(fresh(deal), judge, version=fresh(deal).version)
    deal = fresh(deal)
    changes = deal_changes(deal)
    assert changes.plays == [] and changes.penalties_added == [("E", "revoke", 2)]
    assert [r.reason for r in changes.reopenings] == ["check the kitty", "East revoked in trick 3"]
    assert result_before["outcome"] == "takeover" and deal.verdict["result"]["outcome"] == "banker_holds"

    english.force_login(make_judge("second"))
    page = english.get(reverse("review", args=[deal.pk])).content.decode()
    assert 'data-testid="changes"' in page
    assert "Reopened by judge at" in page and "East revoked in trick 3" in page
    assert "Result: takeover (attackers " in page and "→ banker holds +1 (attackers " in page
    assert "Penalty added: East" in page and "revoke · trick 3" in page
    assert f'action="/deal/{deal.pk}/confirm/"' in page

    english.force_login(director)
    queue = english.get(reverse("desk-queue", args=[deal.match.round.tournament.slug])).content.decode()
    assert 'data-testid="reopened"' in queue and "reopened and submitted again" in queue
    assert "East revoked in trick 3" in queue


def test_a_deal_never_reopened_shows_no_changes_and_no_mark(match, judge, make_judge, director):
    deal = deal_entry.start_deal(match, judge, trump="S", declarer="N")
    record = simulated(deal, 1)
    play_through_service(deal, judge, record)
    deal_entry.set_kitty(fresh(deal), judge, record["kitty"], version=deal.version)
    deal_entry.submit_deal(fresh(deal), judge, version=fresh(deal).version)
    assert deal_changes(fresh(deal)) is None
    reopen = reverse("deal-reopen", args=[deal.pk])
    page = as_user(make_judge("second")).get(reverse("review", args=[deal.pk])).content.decode()
    assert 'data-testid="changes"' not in page and reopen not in page  # the second person confirms, no more
    page = as_user(judge).get(reverse("review", args=[deal.pk])).content.decode()
    assert reopen in page and 'name="reason" class="reason" required' in page
    director_page = as_user(director).get(reverse("desk-queue", args=[match.round.tournament.slug]))
    assert 'data-testid="reopened"' not in director_page.content.decode()
