"""Standings from stored matches and deals, against hand-computed examples (ties share a rank)."""

from __future__ import annotations

import pytest

from tests.desk.helpers import deal, play
from tournaments.models import Bye, Deal, Round
from tournaments.standings.compute import compute_standings, gather_results


def table(lines):
    return [(x.rank, x.pair.name, x.match_points) for x in lines]


@pytest.fixture
def two_rounds(tournament, make_pair):
    """R1: A beat B (A at 5, B at 2); C drew D (both at 4). R2: A beat C (A at A, C at 7); B beat D (6 v 3).

    Standard ladder positions 2 → 0 … A → 12. Match points A 4, B 2, C 1, D 1; level difference A +10, B 0,
    C −7, D −3; Buchholz A 3, B 5, C 5, D 3.
    Deals (confirmed only) in A–B: N (A) holds with 30 against; E (B) loses the bank, attackers A take 85;
    S (A) wins the match with 20 against. So A: 2 deals won as banker, 85 attackers' points; B: 0 and 50.
    """
    a, b, c, d = (make_pair(x) for x in "ABCD")
    r1 = Round.objects.create(tournament=tournament, number=1, state=Round.State.FINISHED)
    r2 = Round.objects.create(tournament=tournament, number=2, state=Round.State.PUBLISHED)
    ab = play(r1, 1, a, b, a, "5", "2")
    play(r1, 2, c, d, None, "4", "4")
    play(r2, 1, c, a, a, "7", "A")
    play(r2, 2, b, d, b, "6", "3")
    deal(ab, 1, "N", 30, "banker_holds")
    deal(ab, 2, "E", 85, "takeover", kitty=10, multiplier=2)
    deal(ab, 3, "S", 20, "match_won")
    deal(ab, 4, "W", 120, "takeover", state=Deal.State.SUBMITTED)  # not confirmed: ignored
    return tournament, (a, b, c, d)


@pytest.mark.django_db
def test_default_tie_breaks(two_rounds):
    tournament, (a, b, c, d) = two_rounds
    lines = compute_standings(tournament)
    assert table(lines) == [(1, "A", 4), (2, "B", 2), (3, "D", 1), (4, "C", 1)]
    by = {x.pair.name: x for x in lines}
    assert by["A"].tiebreaks == {
        "level_diff": 10,
        "buchholz": 3,
        "head_to_head": 0,
        "banker_wins": 2,
        "attackers_points": 85,
    }
    assert by["B"].tiebreaks["attackers_points"] == 50 and by["B"].tiebreaks["banker_wins"] == 0
    assert (by["C"].tiebreaks["level_diff"], by["D"].tiebreaks["level_diff"]) == (-7, -3)
    assert (by["C"].played, by["C"].wins, by["C"].draws, by["C"].losses) == (2, 0, 1, 1)


@pytest.mark.django_db
def test_tie_breaks_in_the_directors_order(two_rounds):
    tournament, _pairs = two_rounds
    tournament.tie_breaks = ["buchholz", "level_diff"]
    tournament.save()
    lines = compute_standings(tournament)
    assert table(lines) == [(1, "A", 4), (2, "B", 2), (3, "C", 1), (4, "D", 1)]
    assert list(lines[0].tiebreaks) == ["buchholz", "level_diff"]


@pytest.mark.django_db
def test_ties_share_a_rank(two_rounds):
    tournament, _pairs = two_rounds
    tournament.tie_breaks = []
    tournament.save()
    assert [(x.rank, x.match_points) for x in compute_standings(tournament)] == [
        (1, 4),
        (2, 2),
        (3, 1),
        (3, 1),
    ]
    tournament.tie_breaks = ["head_to_head"]  # C drew D: still tied
    tournament.save()
    assert [x.rank for x in compute_standings(tournament)] == [1, 2, 3, 3]


HEAD_TO_HEAD = {
    # C 4, A 2, B 2, D 0, every level 2. A and B are tied on 2; B beat A, so B is above A though seeded below.
    "breaks_a_tie": (
        ("AB", "B", "CD", "C", "AD", "A", "BC", "C"),
        [(1, "C", 4), (2, "B", 2), (3, "A", 2), (4, "D", 0)],
        {"A": 0, "B": 2, "C": 0, "D": 0},
    ),
    # A, B, C, D all on 2 points: B beat A, A beat C, C beat D, D beat B. Among the four each took 2, so
    # head-to-head alone leaves the tie, which one shared rank shows; equal pairs stay in seed order.
    "leaves_a_circular_tie_shared": (
        ("AB", "B", "CD", "C", "AC", "A", "BD", "D"),
        [(1, "A", 2), (1, "B", 2), (1, "C", 2), (1, "D", 2)],
        {"A": 2, "B": 2, "C": 2, "D": 2},
    ),
}


@pytest.mark.django_db
@pytest.mark.parametrize("games, ranked, head_to_head", HEAD_TO_HEAD.values(), ids=HEAD_TO_HEAD)
def test_head_to_head(tournament, make_pair, games, ranked, head_to_head):
    pairs = {x: make_pair(x) for x in "ABCD"}
    rounds = [
        Round.objects.create(tournament=tournament, number=n, state=Round.State.FINISHED) for n in (1, 2)
    ]
    for i in range(4):  # two tables a round: (pairs, winner) twice per round
        at, winner = games[2 * i], games[2 * i + 1]
        play(rounds[i // 2], i % 2 + 1, pairs[at[0]], pairs[at[1]], pairs[winner])
    tournament.tie_breaks = ["head_to_head"]
    tournament.save()
    lines = compute_standings(tournament)
    assert table(lines) == ranked
    assert {x.pair.name: x.tiebreaks["head_to_head"] for x in lines} == head_to_head


@pytest.mark.django_db
def test_points_byes_and_rounds_as_the_tournament_sets_them(two_rounds):
    tournament, (a, b, c, d) = two_rounds
    tournament.points_win, tournament.points_draw, tournament.points_loss, tournament.bye_points = 3, 1, 0, 1
    tournament.save()
    r3 = Round.objects.create(tournament=tournament, number=3, state=Round.State.PUBLISHED)
    Bye.objects.create(round=r3, pair=d, points=1)
    lines = {x.pair.name: x for x in compute_standings(tournament)}
    assert (
        lines["A"].match_points,
        lines["B"].match_points,
        lines["C"].match_points,
        lines["D"].match_points,
    ) == (
        6,
        3,
        1,
        2,
    )
    assert lines["D"].played == 3 and lines["D"].wins == 1
    after1 = {x.pair.name: x.match_points for x in compute_standings(tournament, up_to_round=1)}
    assert after1 == {"A": 3, "B": 0, "C": 1, "D": 1}


@pytest.mark.django_db
def test_unfinished_matches_do_not_count(tournament, match):
    assert gather_results(tournament) == []
    assert {x.match_points for x in compute_standings(tournament)} == {0}


@pytest.mark.django_db
def test_off_ladder_levels_count_rungs_below(make_pair):
    from tournaments.models import Tournament

    t = Tournament.objects.create(name="P", slug="p", ruleset={"preset": "permanent-twos"})
    a, b = make_pair(t=t), make_pair(t=t)
    r1 = Round.objects.create(tournament=t, number=1, state=Round.State.FINISHED)
    play(r1, 1, a, b, a, "5", "2")  # ladder 3…A: 5 → 2, 2 (off the ladder) → 0
    lines = {x.pair: x for x in compute_standings(t)}
    assert lines[a].tiebreaks["level_diff"] == 2


@pytest.mark.django_db
def test_deal_totals_follow_new_and_confirmed_deals(two_rounds):
    tournament, (a, b, c, d) = two_rounds
    first = {x.pair.name: x.tiebreaks["attackers_points"] for x in compute_standings(tournament)}
    assert first["B"] == 50
    ab = a.matches_ns.get(round__number=1)
    deal(ab, 5, "N", 45, "banker_holds")  # a new confirmed deal
    assert {x.pair.name: x.tiebreaks["attackers_points"] for x in compute_standings(tournament)}["B"] == 95
    pending = Deal.objects.get(match=ab, number=4)
    pending.state = Deal.State.CONFIRMED  # the second person confirms
    pending.save()
    lines = {x.pair.name: x.tiebreaks for x in compute_standings(tournament)}
    assert lines["A"]["attackers_points"] == 85 + 120


@pytest.mark.django_db
def test_an_edited_bye_counts_its_own_points(two_rounds):
    tournament, (a, b, c, d) = two_rounds
    r3 = Round.objects.create(tournament=tournament, number=3, state=Round.State.PUBLISHED)
    bye = Bye.objects.create(round=r3, pair=d, points=tournament.bye_points)
    assert {x.pair.name: x.match_points for x in compute_standings(tournament)}["D"] == 1 + 2
    bye.points = 3  # the TD changes this bye in the admin
    bye.save()
    lines = {x.pair.name: x for x in compute_standings(tournament)}
    assert lines["D"].match_points == 1 + 3 and lines["D"].wins == 1
    assert lines["C"].tiebreaks["buchholz"] == lines["A"].match_points + lines["D"].match_points


@pytest.mark.django_db
def test_pairs_on_equal_points_are_listed_by_seed(tournament, make_pair):
    pairs = [make_pair() for _ in range(16)]
    pairs[0].seed, pairs[15].seed = 16, 1  # seed order is not the order the pairs were entered in
    pairs[0].save()
    pairs[15].save()
    lines = compute_standings(tournament)
    assert [x.pair.seed for x in lines] == list(range(1, 17))
    assert {x.rank for x in lines} == {1}
