"""The engine's record of a deal at the table: built from the rows once, kept from one play for the next and
extended by it — always the record the deal's DEAL-RECORD document reads as."""

from __future__ import annotations

import pytest

from referee.table.recording import play as recording_play
from referee.table.recording.play import Throw
from rules.judge import judge as engine_judge
from rules.record import parse_record
from tests.table.helpers import play_through_service, record_play, simulated
from tournaments.models import Deal
from tournaments.scoring import corrections
from tournaments.scoring.rulesets import ruleset_for
from tournaments.scoring.snapshot import snapshot, start_levels, typed_record

pytestmark = pytest.mark.django_db


def stored(deal: Deal):
    """The deal as stored now: its snapshot read afresh."""
    deal = Deal.objects.select_related("match__round__tournament").get(pk=deal.pk)
    return snapshot(deal, start_levels(deal))


def with_a_throw(deal: Deal) -> dict:
    """A simulated record for the deal that has a challenged throw (the simulator makes some)."""
    for seed in range(1, 200):
        record = simulated(deal, seed)
        if any(trick.get("throw") for trick in record["tricks"]):
            return record
    pytest.fail("no simulated deal with a challenged throw")


def test_the_record_built_from_the_rows_is_the_one_the_deals_document_reads_as(deal, judge):
    play_through_service(deal, judge, with_a_throw(deal))
    deal.refresh_from_db()
    corrections.add_penalty(deal, judge, seat="E", code="signal", trick=2, note="a nod", version=deal.version)
    snap = stored(deal)
    rec = typed_record(snap)
    assert any(trick.throw for trick in rec.tricks) and rec.penalties and rec.levels
    assert rec == parse_record({**snap.record(), "ruleset": deal.match.round.tournament.ruleset})


def test_each_play_keeps_the_deal_as_stored_after_it_with_the_engines_verdict(
    deal, judge, django_capture_on_commit_callbacks
):
    rs = ruleset_for(deal.match)
    record = with_a_throw(deal)
    last = next(i for i, trick in enumerate(record["tricks"]) if trick.get("throw")) + 1
    for trick in record["tricks"][: last + 1]:  # up to the trick after the first throw
        for j, (seat, cards) in enumerate(trick["plays"]):
            throw = trick.get("throw") if j == 0 else None
            with django_capture_on_commit_callbacks(execute=True):
                deal.refresh_from_db()
                thrown = Throw(throw["attempted"], throw["challenger"], throw["shown"]) if throw else None
                record_play(deal, judge, cards=cards, seat=seat, version=deal.version, throw=thrown)
            deal.refresh_from_db()
            kept = recording_play.KEPT[recording_play.kept_key(deal, rs, start_levels(deal))]
            fresh = typed_record(stored(deal))
            assert kept.rec == fresh
            assert kept.verdict.as_dict() == engine_judge(fresh, live=True).as_dict()


def test_a_play_on_a_kept_deal_reads_no_trick(deal, judge, django_capture_on_commit_callbacks, monkeypatch):
    (s1, c1), (s2, c2) = simulated(deal)["tricks"][0]["plays"][:2]
    with django_capture_on_commit_callbacks(execute=True):
        record_play(deal, judge, cards=c1, seat=s1, version=0)
    deal.refresh_from_db()
    monkeypatch.setattr(recording_play, "snapshot", lambda *args: pytest.fail("the kept deal was read again"))
    saved = record_play(deal, judge, cards=c2, seat=s2, version=1)
    assert [[p.seat for p in plays] for plays in saved.plays] == [[s1, s2]]
