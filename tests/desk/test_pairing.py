"""Pairing invariants: everyone once per round, no Swiss rematch while avoidable, byes, withdrawals, round robin."""

from __future__ import annotations

import html
import random
from collections import Counter

import pytest
from django.http import Http404
from django.urls import reverse
from django.utils import timezone, translation

from tests.desk.helpers import deal, finish, finish_tables
from tournaments.checkin.forfeits import publish_round
from tournaments.models import Bye, Match, Round, Seating, Tournament
from tournaments.pairing.services import (
    PairingError,
    delete_draft_round,
    pair_round,
    set_round_matches,
    swap_pairs,
    unpublish_round,
)
from tournaments.people.pairs import set_withdrawn

# --- the database services ----------------------------------------------------------------------------------


def assert_everyone_once(rnd: Round, active: set[int]) -> None:
    seated = [p for m in rnd.matches.all() for p in (m.pair_ns_id, m.pair_ew_id)]
    seated += list(rnd.byes.values_list("pair_id", flat=True))
    assert sorted(seated) == sorted(active)


@pytest.mark.django_db
@pytest.mark.parametrize("n", [6, 7, 12])
def test_swiss_event_everyone_once_no_rematch_byes_rotate(tournament, make_pair, n):
    tournament.num_rounds = 5
    tournament.save()
    pairs = [make_pair() for _ in range(n)]
    rng = random.Random(n)
    met = set()
    bye_pairs = []
    for number in range(1, 6):
        rnd = pair_round(tournament)
        assert rnd.number == number and rnd.state == Round.State.DRAFT
        assert_everyone_once(rnd, {p.pk for p in pairs})
        assert list(rnd.matches.values_list("table", flat=True)) == list(range(1, n // 2 + 1))
        for m in rnd.matches.all():
            key = frozenset((m.pair_ns_id, m.pair_ew_id))
            assert key not in met
            met.add(key)
        bye_pairs += list(rnd.byes.values_list("pair_id", flat=True))
        publish_round(rnd)
        finish_tables(rnd, rng, draws=True)
    if n % 2:
        assert len(bye_pairs) == 5 and len(set(bye_pairs)) == 5  # nobody gets a second bye
        assert set(Bye.objects.values_list("points", flat=True)) == {tournament.bye_points}


@pytest.mark.django_db
def test_swiss_round_one_is_top_half_against_bottom_half(tournament, make_pair):
    pairs = [make_pair() for _ in range(8)]
    rnd = pair_round(tournament)
    games = {frozenset((m.pair_ns_id, m.pair_ew_id)) for m in rnd.matches.all()}
    assert games == {frozenset((pairs[i].pk, pairs[i + 4].pk)) for i in range(4)}


@pytest.mark.django_db
def test_swiss_bye_goes_to_the_lowest_ranked_pair_without_one(tournament, make_pair):
    a = make_pair("A")
    make_pair("B"), make_pair("C")
    r1 = pair_round(tournament)
    assert list(r1.byes.values_list("pair__name", flat=True)) == ["C"]  # lowest seed
    publish_round(r1)
    m = r1.matches.get()
    finish(m, winner=a if m.pair_ns == a else a)
    r2 = pair_round(tournament)
    # B lost and C had a bye (2 points): B is now lowest and has had no bye.
    assert list(r2.byes.values_list("pair__name", flat=True)) == ["B"]
    assert {r2.matches.get().pair_ns.name, r2.matches.get().pair_ew.name} == {"A", "C"}


@pytest.mark.django_db
def test_swiss_seats_balance_over_rounds(tournament, make_pair):
    pairs = [make_pair() for _ in range(8)]
    rng = random.Random(1)
    for _n in range(4):
        rnd = pair_round(tournament)
        publish_round(rnd)
        finish_tables(rnd, rng, draws=True)
    for p in pairs:
        sides = Counter(Seating.objects.filter(pair=p).values_list("side", flat=True))
        assert abs(sides["NS"] - sides["EW"]) <= 2


@pytest.mark.django_db
def test_same_club_avoided_when_asked(tournament, make_pair):
    tournament.avoid_same_club = True
    tournament.save()
    for club in ["x", "x", "y", "y"]:
        make_pair(club=club)
    rnd = pair_round(tournament)
    assert all(m.pair_ns.club != m.pair_ew.club for m in rnd.matches.select_related("pair_ns", "pair_ew"))


def play_swiss_rounds(tournament, rounds: int, rng: random.Random) -> None:
    for _n in range(rounds):
        rnd = pair_round(tournament)
        publish_round(rnd)
        finish_tables(rnd, rng, draws=True)


@pytest.mark.django_db
def test_a_swiss_round_that_cannot_avoid_a_repeat_names_the_tables_that_meet_again(tournament, make_pair):
    tournament.num_rounds = 4
    tournament.save()
    for _n in range(4):
        make_pair()
    play_swiss_rounds(tournament, 3, random.Random(4))  # four pairs, three rounds: everyone has met everyone
    with translation.override("zh-hans"):
        rnd = pair_round(tournament)
    tables = rnd.matches.select_related("pair_ns", "pair_ew").order_by("table")
    assert rnd.gave_way_notes == [
        f"第 {m.table} 桌：{m.pair_ns.name} 与 {m.pair_ew.name} 再次交手：本轮任何编排都无法避免所有重复对阵。"
        for m in tables
    ]


@pytest.mark.django_db
def test_a_swiss_round_that_keeps_every_constraint_has_nothing_to_say(tournament, make_pair):
    tournament.avoid_same_club = True
    tournament.save()
    for club in ["x", "x", "y", "y"]:
        make_pair(club=club)
    assert pair_round(tournament).gave_way_notes == []


@pytest.mark.django_db
def test_the_desk_warns_the_director_which_club_could_not_be_kept_apart(
    client, director, tournament, make_pair
):
    tournament.avoid_same_club = True
    tournament.save()
    for club in ["x", "x", "x", "y"]:  # three of one club among four pairs: one table seats the club together
        make_pair(club=club)
    client.force_login(director)
    client.cookies["django_language"] = "en"
    page = client.post(reverse("desk-pair-round", args=[tournament.slug]), follow=True).content.decode()
    together = Match.objects.get(pair_ns__club="x", pair_ew__club="x")
    assert (
        f"Table {together.table}: {together.pair_ns.name} and {together.pair_ew.name} are from one club: "
        "no pairing of this round keeps clubs apart without a repeat."
    ) in html.unescape(page)


@pytest.mark.django_db
def test_withdrawn_pair_keeps_results_and_is_not_paired(tournament, make_pair):
    pairs = [make_pair() for _ in range(4)]
    r1 = pair_round(tournament)
    publish_round(r1)
    for m in r1.matches.all():
        finish(m, m.pair_ns)
    quitter = r1.matches.first().pair_ns
    set_withdrawn(quitter, True)
    r2 = pair_round(tournament)
    assert_everyone_once(r2, {p.pk for p in pairs} - {quitter.pk})
    assert Match.objects.filter(round=r1, winner=quitter).exists()  # results kept
    from tournaments.standings.compute import compute_standings

    line = next(x for x in compute_standings(tournament) if x.pair == quitter)
    assert line.match_points == tournament.points_win


@pytest.mark.django_db
def test_late_entry_is_paired_from_the_next_round(tournament, make_pair):
    for _ in range(4):
        make_pair()
    r1 = pair_round(tournament)
    publish_round(r1)
    for m in r1.matches.all():
        finish(m, m.pair_ns)
    late = make_pair("late")
    r2 = pair_round(tournament)
    assert_everyone_once(r2, set(tournament.pairs.values_list("pk", flat=True)))
    assert r2.byes.get().pair == late or late.pk in {m.pair_ew_id for m in r2.matches.all()} | {
        m.pair_ns_id for m in r2.matches.all()
    }


@pytest.mark.django_db
@pytest.mark.parametrize("n", [6, 7])
def test_round_robin_event_is_complete_and_balanced(make_pair, n):
    t = Tournament.objects.create(name="RR", slug="rr", format=Tournament.Format.ROUND_ROBIN, num_rounds=n)
    pairs = [make_pair(t=t) for _ in range(n)]
    rounds = n - 1 if n % 2 == 0 else n
    for _i in range(rounds):
        rnd = pair_round(t)
        assert_everyone_once(rnd, {p.pk for p in pairs})
        publish_round(rnd)
    met = Counter(
        frozenset(x) for x in Match.objects.filter(round__tournament=t).values_list("pair_ns", "pair_ew")
    )
    assert len(met) == n * (n - 1) // 2 and set(met.values()) == {1}
    for p in pairs:
        sides = Counter(Seating.objects.filter(pair=p).values_list("side", flat=True))
        assert abs(sides["NS"] - sides["EW"]) <= 1
    if n % 2:
        assert sorted(Bye.objects.filter(round__tournament=t).values_list("pair_id", flat=True)) == sorted(
            p.pk for p in pairs
        )
    with pytest.raises(PairingError):
        pair_round(t)  # the round robin is over


@pytest.mark.django_db
def test_round_robin_withdrawal_gives_the_opponent_a_bye(make_pair):
    t = Tournament.objects.create(name="RR", slug="rr", format=Tournament.Format.ROUND_ROBIN, num_rounds=3)
    pairs = [make_pair(t=t) for _ in range(4)]
    publish_round(pair_round(t))
    set_withdrawn(pairs[0], True)
    r2 = pair_round(t)
    assert r2.matches.count() == 1 and r2.byes.count() == 1
    assert pairs[0].pk not in set(r2.byes.values_list("pair_id", flat=True))


@pytest.mark.django_db
def test_manual_format_drafts_seed_order_and_the_td_rearranges(make_pair):
    t = Tournament.objects.create(name="M", slug="m", format=Tournament.Format.MANUAL)
    a, b, c, d = (make_pair(t=t) for _ in range(4))
    rnd = pair_round(t)
    assert list(rnd.matches.values_list("pair_ns", "pair_ew")) == [(a.pk, b.pk), (c.pk, d.pk)]
    set_round_matches(rnd, [(d.pk, a.pk, None), (b.pk, c.pk, None)])
    assert list(rnd.matches.values_list("table", "pair_ns", "pair_ew")) == [(1, d.pk, a.pk), (2, b.pk, c.pk)]


@pytest.mark.django_db
def test_swap_two_pairs_in_a_draft(tournament, make_pair):
    a, b, c, d = (make_pair() for _ in range(4))
    rnd = pair_round(tournament)  # a–c, b–d (top half v bottom half)
    m1 = rnd.matches.get(table=1)
    first_ns, first_ew = m1.pair_ns_id, m1.pair_ew_id
    other = rnd.matches.get(table=2).pair_ns_id
    swap_pairs(rnd, first_ew, other)
    m1 = rnd.matches.get(table=1)
    assert (m1.pair_ns_id, m1.pair_ew_id) == (first_ns, other)
    assert Seating.objects.filter(round=rnd).count() == 4
    del a, b, c, d


@pytest.mark.django_db
def test_a_pair_twice_is_refused_and_nothing_changes(tournament, make_pair):
    a, b, c, d = (make_pair() for _ in range(4))
    rnd = pair_round(tournament)
    before = list(rnd.matches.values_list("pair_ns", "pair_ew"))
    with pytest.raises(PairingError):
        set_round_matches(rnd, [(a.pk, b.pk, None), (a.pk, c.pk, None)])
    assert list(rnd.matches.values_list("pair_ns", "pair_ew")) == before
    del d


@pytest.mark.django_db
def test_published_round_cannot_change_and_next_waits(tournament, make_pair):
    for _ in range(4):
        make_pair()
    rnd = pair_round(tournament)
    with pytest.raises(PairingError):
        pair_round(tournament)  # round 1 still a draft
    publish_round(rnd)
    with pytest.raises(PairingError):
        set_round_matches(rnd, [])
    with pytest.raises(PairingError):
        pair_round(tournament)  # Swiss: round 1 not finished
    with pytest.raises(PairingError):
        pair_round(tournament, 5)


@pytest.mark.django_db
def test_a_round_published_by_mistake_goes_back_to_draft_and_is_edited_again(tournament, make_pair):
    for _ in range(4):
        make_pair()
    rnd = pair_round(tournament)
    publish_round(rnd)
    unpublish_round(rnd)
    rnd.refresh_from_db()
    assert rnd.state == Round.State.DRAFT
    a, b = rnd.matches.get(table=1).pair_ns_id, rnd.matches.get(table=2).pair_ns_id
    swap_pairs(rnd, a, b)
    publish_round(rnd)
    rnd.refresh_from_db()
    assert rnd.state == Round.State.PUBLISHED and rnd.matches.get(table=1).pair_ns_id == b


def begin_with_a_deal(match: Match) -> None:
    deal(match, 1, "N", 40, "banker_holds", state="recording")


def begin_with_a_forfeit(match: Match) -> None:
    finish(match, match.pair_ns, ended_by="forfeit")


def begin_with_time_called(match: Match) -> None:
    Match.objects.filter(pk=match.pk).update(time_called_at=timezone.now())


@pytest.mark.parametrize("begin", [begin_with_a_deal, begin_with_a_forfeit, begin_with_time_called])
@pytest.mark.django_db
def test_a_round_stays_published_once_a_table_has_begun(tournament, make_pair, begin):
    for _ in range(4):
        make_pair()
    rnd = pair_round(tournament)
    publish_round(rnd)
    begin(rnd.matches.get(table=2))
    with pytest.raises(PairingError, match="2"):
        unpublish_round(rnd)
    rnd.refresh_from_db()
    assert rnd.state != Round.State.DRAFT


@pytest.mark.django_db
def test_only_the_last_published_round_goes_back_to_draft(tournament, make_pair):
    tournament.format = Tournament.Format.MANUAL
    tournament.save()
    for _ in range(4):
        make_pair()
    first = pair_round(tournament)
    publish_round(first)
    publish_round(pair_round(tournament))
    with pytest.raises(PairingError):
        unpublish_round(first)
    draft = pair_round(tournament)
    with pytest.raises(PairingError):
        unpublish_round(draft)


def start_a_deal(match: Match, judge, director) -> None:
    from referee.table.recording.deal_entry import start_deal

    start_deal(match, judge, trump="S", declarer="N")


def call_the_time(match: Match, judge, director) -> None:
    from tournaments.scoring.fold import call_time

    call_time(match, judge, now=timezone.now() + timezone.timedelta(days=1))


def forfeit(match: Match, judge, director) -> None:
    from tournaments.scoring.fold import forfeit_match

    forfeit_match(match, director, side="NS")


@pytest.mark.parametrize("begin", [start_a_deal, call_the_time, forfeit])
@pytest.mark.django_db
def test_a_table_read_as_published_does_not_begin_once_its_round_went_back_to_draft(
    tournament, make_pair, judge, director, begin
):
    """The race of a judge beginning a table while the TD takes the round back to draft: the judge's request
    read the round published; the TD's back-to-draft committed first; the judge's write is refused under the
    match's lock (unpublishing locks the matches, so the other order is seen by ``why_not_unpublish``)."""
    from tournaments.scoring.errors import DraftRound

    tournament.match_time_limit = 1
    tournament.save()
    for _ in range(4):
        make_pair()
    rnd = pair_round(tournament)
    publish_round(rnd)
    Match.objects.filter(round=rnd).update(judge=judge)
    read = Match.objects.select_related("round").get(round=rnd, table=1)  # what the judge's request read
    read.round.refresh_from_db()
    unpublish_round(rnd)
    assert read.round.state == Round.State.PUBLISHED  # the stale read
    with pytest.raises(DraftRound):
        begin(read, judge, director)
    read.refresh_from_db()
    assert not read.deals.exists() and read.time_called_at is None and not read.forfeited_by


@pytest.mark.parametrize(
    "step",
    [publish_round, lambda rnd: set_round_matches(rnd, []), lambda rnd: swap_pairs(rnd, 1, 2)],
    ids=["publish", "edit", "swap"],
)
def test_a_draft_discarded_while_its_page_was_open_is_not_found_not_an_error(tournament, make_pair, step):
    """The service re-reads the round under its lock: a draft discarded a moment before is a 404, not a 500."""
    for _ in range(4):
        make_pair()
    stale = pair_round(tournament)
    Round.objects.filter(pk=stale.pk).delete()
    with pytest.raises(Http404):
        step(stale)
    assert not tournament.rounds.exists()


def test_a_draft_published_while_the_discard_page_was_open_is_not_discarded(tournament, make_pair):
    for _ in range(4):
        make_pair()
    stale = pair_round(tournament)
    publish_round(Round.objects.get(pk=stale.pk))
    with pytest.raises(PairingError):
        delete_draft_round(stale)
    assert Round.objects.get(pk=stale.pk).state == Round.State.PUBLISHED and stale.matches.count() == 2
