"""A Swiss stage, then a knockout of its top pairs: seeded by the standings after the stage (withdrawn pairs
skipped), the director's swap of two seeds in the draft, the placings after the bracket, the settings that make
it and the command that creates one.

The rules simulator plays the knockout of the first test (a semi-final, the final and the third-place match:
the bracket played as a table plays it); elsewhere a round's results are set straight in (``finished``), as the
claims are about the draw and the placings that follow from results, not about how a table reaches them."""

from __future__ import annotations

import random
from io import StringIO

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import translation

from referee.table.simulation import simulate_round
from tests.desk.helpers import finish, finish_tables
from tournaments.checkin.forfeits import publish_round
from tournaments.models import Round, Tournament
from tournaments.pairing.bracket import final_placings
from tournaments.pairing.services import (
    PairingError,
    pair_round,
    set_round_matches,
    swap_pairs,
    why_not_pair,
)
from tournaments.people.pairs import set_withdrawn
from tournaments.standings.compute import compute_standings

SHORT = {"preset": "standard", "target_level": "4"}


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def staged(make_pair, n: int, rounds: int, size: int, ruleset=SHORT, **fields) -> Tournament:
    t = Tournament.objects.create(
        name="杯赛", slug=f"stage{n}", ruleset=ruleset, num_rounds=rounds, knockout_size=size, **fields
    )
    for k in range(n):
        make_pair(f"队{k + 1:02d}", t=t)
    return t


def play(t: Tournament, director, seed: int) -> Round:
    """The next round paired, published and played by the rules simulator."""
    rnd = pair_round(t)
    publish_round(rnd)
    simulate_round(t, rnd.number, director, seed=seed)
    return rnd


def finished(
    t: Tournament, seed: int, draws: bool = False, skip_tables: frozenset[int] = frozenset()
) -> Round:
    """The next round paired and published, each match's result set straight in (a random winner, or a draw
    when ``draws``), but at ``skip_tables``."""
    rng = random.Random(seed)
    rnd = pair_round(t)
    publish_round(rnd)
    finish_tables(rnd, rng, draws, skip_tables)
    return rnd


@pytest.mark.django_db
def test_a_swiss_of_twelve_then_a_knockout_of_its_top_four(make_pair, director):
    t = staged(make_pair, 12, 3, 4, third_place_match=True)
    assert t.rounds_planned == 5
    for number in range(1, 4):
        finished(t, number, draws=True)
    top = [line.pair for line in compute_standings(t, up_to_round=3)][:5]
    set_withdrawn(top[1], True)  # a withdrawn pair is skipped: the fifth enters
    seeds = [top[0], top[2], top[3], top[4]]
    semis = pair_round(t)
    assert semis.bracket == [seeds[0].pk, seeds[3].pk, seeds[2].pk, seeds[1].pk]
    assert [(m.pair_ns, m.pair_ew) for m in semis.matches.order_by("table")] == [
        (seeds[0], seeds[3]),
        (seeds[1], seeds[2]),  # the better seed sits North–South
    ]
    swap_pairs(semis, seeds[3].pk, seeds[2].pk)  # the director's review: 1 v 3, 4 v 2
    semis.refresh_from_db()
    assert semis.bracket == [seeds[0].pk, seeds[2].pk, seeds[3].pk, seeds[1].pk]
    publish_round(semis)
    simulate_round(t, 4, director, seed=4)
    finals = play(t, director, 5)
    assert finals.matches.count() == 2  # the final and the third-place match
    assert why_not_pair(t) == "This tournament has 5 rounds."
    placed = final_placings(t)
    assert [place for place, _pair in placed][:5] == ["1", "2", "3", "4", "5"]
    rest = [line.pair for line in compute_standings(t, up_to_round=3) if line.pair not in seeds]
    assert [pair for _place, pair in placed][4:] == rest  # the withdrawn pair among them, by the Swiss


@pytest.mark.django_db
def test_the_knockout_waits_for_the_last_swiss_round_and_its_tables_change_only_by_a_swap(make_pair):
    t = staged(make_pair, 8, 1, 4)
    rnd = finished(t, 1, draws=True, skip_tables=frozenset({4}))
    assert why_not_pair(t) == "Round 1 still has unfinished matches."
    finish_tables(rnd, random.Random(4), draws=True, skip_tables=frozenset({1, 2, 3}))  # table 4 now
    semis = pair_round(t)
    games = [(m.pair_ns_id, m.pair_ew_id, None) for m in semis.matches.all()]
    with pytest.raises(PairingError, match="swapping two pairs only"):
        set_round_matches(semis, games[::-1])
    publish_round(semis)
    finish_tables(semis, random.Random(2))
    final = pair_round(t)
    with pytest.raises(PairingError, match="follows from the results"):
        swap_pairs(final, games[0][0], games[0][1])


@pytest.mark.django_db
def test_the_full_swiss_of_twenty_four_in_six_rounds_then_the_top_eight(make_pair):
    t = staged(make_pair, 24, 6, 8)
    rng = random.Random(24)
    for _number in range(
        1, 7
    ):  # the Swiss's results straight in (it is the seeding under test), the knockout's too
        rnd = pair_round(t)
        publish_round(rnd)
        for m in rnd.matches.all():
            finish(m, rng.choice([m.pair_ns, m.pair_ew, None]), rng.choice("3456789"), rng.choice("3456789"))
    order = [line.pair.seed for line in compute_standings(t, up_to_round=6)][:8]
    quarters = finished(t, 7)
    assert [(m.pair_ns.seed, m.pair_ew.seed) for m in quarters.matches.order_by("table")] == [
        (order[0], order[7]),
        (order[3], order[4]),
        (order[2], order[5]),
        (order[1], order[6]),
    ]
    finished(t, 8)
    finished(t, 9)
    assert [place for place, _pair in final_placings(t)][:8] == ["1", "2", "3–4", "3–4"] + ["5–8"] * 4
    assert len(final_placings(t)) == 24


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"format": Tournament.Format.KNOCKOUT, "knockout_size": 8}, "knockout_size"),
        ({"format": Tournament.Format.MANUAL, "knockout_size": 4}, "knockout_size"),
        ({"format": Tournament.Format.SWISS, "third_place_match": True}, "third_place_match"),
    ],
)
def test_settings_that_make_no_knockout_are_refused(fields, field):
    t = Tournament(name="x", slug="x", **fields)
    with pytest.raises(ValidationError) as caught:
        t.full_clean()
    assert field in caught.value.message_dict


@pytest.mark.django_db
def test_the_knockout_cannot_move_once_its_first_round_is_paired(make_pair):
    t = staged(make_pair, 4, 1, 4)
    finished(t, 1, draws=True)
    pair_round(t)
    t.num_rounds = 3
    with pytest.raises(ValidationError) as caught:
        t.full_clean()
    assert "format" in caught.value.message_dict


@pytest.mark.django_db
def test_the_command_creates_a_knockout_and_a_swiss_with_a_knockout_stage():
    out = StringIO()
    call_command(
        "create_tournament", "cup", "--name", "Cup", "--format", "knockout", "--third-place", stdout=out
    )
    call_command(
        "create_tournament", "league", "--name", "L", "--rounds", "4", "--knockout-size", "8", stdout=out
    )
    assert Tournament.objects.get(slug="cup").third_place_match
    assert Tournament.objects.get(slug="league").bracket_start == 5
    with pytest.raises(CommandError, match="knockout_size"):
        call_command("create_tournament", "m", "--name", "M", "--format", "manual", "--knockout-size", "4")


@pytest.mark.django_db
def test_a_late_entry_is_told_the_knockout_is_settled(make_pair):
    from tournaments.people.pairs import late_entry_note

    t = staged(make_pair, 4, 1, 4)
    finished(t, 1, draws=True)
    assert late_entry_note(t) == "The knockout's pairs are settled: a pair added now plays no more rounds."


@pytest.mark.django_db
def test_a_round_robin_then_a_knockout_of_its_top_four(make_pair):
    t = staged(make_pair, 5, 5, 4, format=Tournament.Format.ROUND_ROBIN)
    for _number in range(5):  # five pairs: five rounds, a bye each
        rnd = pair_round(t)
        publish_round(rnd)
        for m in rnd.matches.all():
            finish(m, m.pair_ns, "A", "5")
    top = [line.pair.pk for line in compute_standings(t, up_to_round=5)][:4]
    semis = pair_round(t)
    assert semis.number == 6 and semis.bracket == [top[0], top[3], top[2], top[1]]
    assert not semis.byes.exists()
