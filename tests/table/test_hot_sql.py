"""The play's reads and history inserts written as SQL (``recording/hot_sql.py``) give the rows the plain ORM gives."""

from __future__ import annotations

import pytest
from django.utils import timezone

from referee.table import views
from referee.table.recording import deal_entry, receipts
from tests.table.helpers import record_play
from tournaments.models import Deal, Trick, WriteReceipt
from tournaments.scoring import corrections
from tournaments.scoring import sql as hot_sql
from tournaments.scoring.sql import history_of, history_row

pytestmark = pytest.mark.django_db


@pytest.fixture
def deal(match, judge):
    return deal_entry.start_deal(match, judge, trump="S", declarer="N")


def fields_of(obj) -> list:
    return [getattr(obj, f.attname) for f in type(obj)._meta.concrete_fields]


def stored(model, pk, *leave_out: str) -> dict:
    return {k: v for k, v in model.objects.filter(pk=pk).values().get().items() if k not in leave_out}


def test_the_deal_read_gives_the_deal_match_and_people_the_orm_gives(deal):
    read = views.DEAL_WITH_MATCH.first(deal.pk)
    orm = Deal.objects.select_related(
        "match__round__tournament", "match__pair_ns__player1", "match__pair_ew__player2"
    ).get(pk=deal.pk)
    assert fields_of(read) == fields_of(orm) and fields_of(read.match) == fields_of(orm.match)
    assert fields_of(read.match.round.tournament) == fields_of(orm.match.round.tournament)
    assert fields_of(read.match.pair_ns.player1) == fields_of(orm.match.pair_ns.player1)
    assert fields_of(read.match.pair_ew.player2) == fields_of(orm.match.pair_ew.player2)
    assert isinstance(read.match.round.tournament.ruleset, dict) and read.changed_at.tzinfo is not None


def test_the_deal_read_reads_its_people_without_another_query(deal, django_assert_num_queries):
    with django_assert_num_queries(1):
        read = views.DEAL_WITH_MATCH.first(deal.pk)
        names = [
            read.match.pair_ns.player1.name,
            read.match.pair_ew.player2.name,
            read.match.round.tournament.slug,
        ]
    assert all(names)


def test_the_deal_read_of_a_deal_that_is_not_there_is_none(deal):
    assert views.DEAL_WITH_MATCH.first(deal.pk + 1000) is None


def test_the_tricks_read_gives_the_rows_the_orm_gives_a_trick_without_plays_included(deal, judge):
    record_play(deal, judge, cards="SA", version=0)
    record_play(deal, judge, cards="S2", version=1)
    Trick.objects.create(deal=deal, number=1)  # a damaged deal: a trick saved without plays
    orm = (
        Trick.objects.filter(deal_id=deal.pk)
        .order_by("number", "plays__order")
        .values_list(*hot_sql.TRICK_COLUMNS, "plays__seat", "plays__cards")
    )
    assert hot_sql.tricks_with_plays(deal.pk) == list(orm)
    assert len(orm) == 3 and orm[2][-2:] == (None, None)


def test_the_penalties_read_gives_the_rows_the_orm_gives(deal, judge):
    corrections.add_penalty(deal, judge, seat="E", code="misplay", version=0, note="signal")
    corrections.add_penalty(deal, judge, seat="N", code="renege", version=1, trick=0)
    orm = deal.penalties.order_by("recorded_at", "pk").values_list(*hot_sql.PENALTY_COLUMNS)
    assert hot_sql.penalties(deal.pk) == list(orm) and len(orm) == 2


def test_the_receipt_read_gives_the_receipt_the_orm_gives(judge):
    WriteReceipt.objects.create(
        user=judge, key="some-key-1", target="deal 1 play", status=409, answer={"ok": False}
    )
    read = receipts.RECEIPT.first(judge.pk, "some-key-1")
    assert fields_of(read) == fields_of(WriteReceipt.objects.get(user=judge, key="some-key-1"))
    assert receipts.RECEIPT.first(judge.pk, "other-key") is None


def test_an_insert_stores_what_bulk_create_stores(judge):
    def receipt(key):
        return WriteReceipt(
            user=judge, key=key, target="deal 1 play", status=409, answer={"ok": False, "n": [1]}
        )

    orm = WriteReceipt.objects.bulk_create([receipt("orm-key-1")])[0]
    fast = hot_sql.insert(receipt("fast-key-1"))
    assert fast.pk is not None and fast.pk != orm.pk and not fast._state.adding
    assert stored(WriteReceipt, fast.pk, "id", "key", "created") == stored(
        WriteReceipt, orm.pk, "id", "key", "created"
    )
    assert (
        fast.created is not None and stored(WriteReceipt, fast.pk)["created"] == fast.created
    )  # auto_now_add


def test_an_inserted_history_row_is_the_row_simple_history_makes(deal, judge):
    when = timezone.now()
    history = history_of(Deal)
    [orm] = history.bulk_history_create(
        [deal], update=True, default_user=judge, default_change_reason=None, default_date=when
    )
    fast = hot_sql.insert(history_row(deal, judge, "~", when))
    assert stored(history.model, fast.pk, "history_id") == stored(history.model, orm.pk, "history_id")
    assert (fast.history_user_id, fast.history_type, fast.history_date) == (judge.pk, "~", when)


def test_the_version_claim_writes_what_the_orms_update_writes(deal, judge, make_judge):
    other = make_judge("other")
    when = timezone.now()
    assert hot_sql.claim(deal.pk, 0, judge, when)
    fast = stored(Deal, deal.pk)
    Deal.objects.filter(pk=deal.pk).update(version=0)
    assert (
        Deal.objects.filter(pk=deal.pk, version=0).update(version=1, changed_by=judge, changed_at=when) == 1
    )
    assert fast == stored(Deal, deal.pk)
    assert (
        not hot_sql.claim(deal.pk, 0, other, when) and stored(Deal, deal.pk) == fast
    )  # taken: nothing written
