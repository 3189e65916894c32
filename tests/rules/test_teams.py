"""Team competitions (rules/teams.py): the tables of a team match, the victory-point scale, the team result, the
double round robin, team standings and their tie-breaks, a team Swiss round and the playoff field."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.knockout import seeded_lines
from rules.teams import (
    BY_SCORE,
    BY_ZONE_ORDER,
    TABLE_POINTS,
    VICTORY_POINTS,
    TableScore,
    TeamMatchResult,
    TeamResult,
    TeamsError,
    VictoryScale,
    double_round_robin,
    playoff_winner,
    seat_tables,
    shared_places,
    team_result,
    team_standings,
    team_swiss_round,
    victory_points,
    zone_leaders,
)


def test_home_pairs_sit_north_south_at_odd_tables_and_east_west_at_even_ones():
    assert seat_tables(["h1", "h2", "h3"], ["a1", "a2", "a3"]) == [("h1", "a1"), ("a2", "h2"), ("h3", "a3")]


@pytest.mark.parametrize(
    ("home", "away"), [(["h1"], ["a1", "a2"]), ([], []), (["h1", "h1"], ["a1", "a2"])], ids=str
)
def test_a_line_up_of_the_wrong_size_or_naming_a_pair_twice_is_refused(home, away):
    with pytest.raises(TeamsError):
        seat_tables(home, away)


def test_a_level_match_shares_the_scale_equally():
    assert victory_points(0, 3) == (1000, 1000)


@given(st.integers(0, 30), st.integers(1, 8))
def test_victory_points_always_share_the_whole_and_grow_with_the_margin(margin, tables):
    win, lose = victory_points(margin, tables)
    assert win + lose == 2000 and win >= lose
    assert victory_points(margin + 1, tables)[0] >= win


def test_the_scale_is_continuous_one_level_more_is_worth_less_as_the_margin_grows():
    steps = [victory_points(m + 1, 3)[0] - victory_points(m, 3)[0] for m in range(8)]
    assert all(a >= b for a, b in zip(steps, steps[1:], strict=False)) and steps[0] > 0


def test_a_margin_past_the_blitz_takes_the_whole_scale():
    assert victory_points(30, 3, VictoryScale(blitz_per_table=3)) == (2000, 0)


def test_more_tables_need_a_larger_margin_for_the_same_victory_points():
    assert victory_points(4, 8)[0] < victory_points(4, 2)[0]


TABLES = [TableScore(2, 0, 8, 3), TableScore(0, 2, 2, 5), TableScore(0, 2, 4, 6)]


def test_table_points_sum_the_tables_match_points():
    r = team_result(TABLES, TABLE_POINTS)
    assert (r.home_score, r.away_score, r.winner) == (2, 4, "away")
    assert r.level_diff == (8 - 3) + (2 - 5) + (4 - 6)


def test_victory_points_follow_the_level_difference_not_the_tables_won():
    r = team_result([TableScore(2, 0, 12, 0), TableScore(0, 2, 4, 5), TableScore(0, 2, 4, 5)], VICTORY_POINTS)
    assert r.winner == "home" and r.home_score > r.away_score and r.home_score + r.away_score == 2000


def test_an_unknown_scoring_method_is_refused():
    with pytest.raises(TeamsError):
        team_result(TABLES, "imps")


@pytest.mark.parametrize("n", [2, 3, 6, 7, 25])
def test_the_double_round_robin_meets_every_pair_of_teams_twice_once_at_each_home(n):
    days = double_round_robin(list(range(n)))
    games = [g for day in days for g in day if g[1] is not None]
    assert Counter(games) == Counter({(a, b): 1 for a in range(n) for b in range(n) if a != b})
    for day in days:  # a team plays once a match day
        seen = [t for g in day for t in g if t is not None]
        assert len(seen) == len(set(seen))


def test_home_and_away_balance_within_one_over_each_leg():
    days = double_round_robin(list(range(6)))[:5]
    home = Counter(a for day in days for a, b in day if b is not None)
    assert max(home.values()) - min(home.values()) <= 1


def won(home, away, hs, as_, tp=(0, 0), diff=0):
    winner = None if hs == as_ else ("home" if hs > as_ else "away")
    from rules.teams import TeamResult

    return TeamMatchResult(home, away, TeamResult(hs, as_, winner, tp[0], tp[1], diff))


def test_the_table_ranks_by_score_then_table_points_then_level_difference():
    rows = team_standings(
        [won("A", "B", 4, 2, (4, 2), 3), won("C", "D", 4, 2, (4, 2), 5), won("B", "D", 3, 3, (3, 2), 0)],
        teams=["A", "B", "C", "D"],
    )
    # B and D score 5, A and C 4; B has more table points than D; C a larger level difference than A.
    assert [r.team for r in rows] == ["B", "D", "C", "A"]
    assert rows[0].draws == 1 and rows[2].wins == 1 and rows[1].losses == 1


def test_head_to_head_separates_teams_level_on_every_earlier_key():
    results = [won("A", "B", 2, 0), won("B", "C", 2, 0), won("C", "A", 0, 2), won("C", "B", 2, 0)]
    rows = team_standings(results, ("head_to_head",))
    a, b, c = (next(r for r in rows if r.team == t) for t in "ABC")
    assert a.score == 4 and b.score == c.score == 2
    assert [r.team for r in rows][:1] == ["A"]
    assert b.tiebreaks["head_to_head"] == c.tiebreaks["head_to_head"] == 2  # one win each between them


def test_teams_tied_on_everything_share_a_rank():
    rows = team_standings([won("A", "B", 3, 3, (3, 3))])
    assert [r.rank for r in rows] == [1, 1]


def test_a_bye_counts_its_score_and_no_match():
    rows = team_standings([TeamMatchResult("A", None, bye_score=2)], teams=["A", "B"])
    assert rows[0].team == "A" and rows[0].score == 2 and rows[0].played == 0


def test_an_unknown_tie_break_is_refused():
    with pytest.raises(TeamsError):
        team_standings([], ("buchholz",))


def test_a_team_swiss_round_avoids_a_repeat_and_gives_the_bye_to_the_lowest():
    played = [frozenset({"A", "B"})]
    games, bye = team_swiss_round(["A", "B", "C", "D", "E"], played=played, scores={t: 0 for t in "ABCDE"})
    assert bye == "E"
    assert frozenset({"A", "B"}) not in {frozenset(g) for g in games}


def test_zone_winners_are_seeded_before_every_runner_up():
    t1 = team_standings([won("A", "B", 4, 2)])
    t2 = team_standings([won("C", "D", 6, 0)])
    assert zone_leaders({"1": t1, "2": t2}, per_zone=2, seeding=BY_SCORE) == ["C", "A", "B", "D"]


def test_zone_order_seeding_keeps_each_tier_in_the_zones_order():
    t1 = team_standings([won("A", "B", 4, 2)])
    t2 = team_standings([won("C", "D", 6, 0)])
    assert zone_leaders({"1": t1, "2": t2}, per_zone=2, seeding=BY_ZONE_ORDER) == ["A", "C", "B", "D"]


def test_an_unknown_playoff_seeding_is_refused():
    with pytest.raises(TeamsError):
        zone_leaders({}, seeding="lottery")


@pytest.mark.parametrize(
    ("result", "seeds", "through"),
    [
        (TeamResult(4, 2, "home", 4, 2, 3), (2, 1), ("home", "score")),
        (TeamResult(1000, 1000, None, 2, 4, 0), (1, 2), ("away", "table_points")),
        (TeamResult(2, 2, None, 2, 2, -1), (1, 2), ("away", "level_diff")),
        (TeamResult(2, 2, None, 2, 2, 0), (3, 2), ("away", "seed")),
    ],
    ids=["winner", "table-points", "level-difference", "seed"],
)
def test_a_drawn_playoff_match_goes_by_table_points_then_level_difference_then_the_seed(
    result, seeds, through
):
    assert playoff_winner(result, *seeds) == through


def test_crossover_seeding_meets_each_zones_winner_with_the_other_zones_runner_up():
    t1 = team_standings([won("A", "B", 4, 2)])
    t2 = team_standings([won("C", "D", 6, 0)])
    seeded = zone_leaders({"1": t1, "2": t2}, per_zone=2)
    lines = seeded_lines(seeded)
    first_round = {frozenset(lines[i : i + 2]) for i in range(0, len(lines), 2)}
    assert first_round == {frozenset({"C", "B"}), frozenset({"A", "D"})}


def test_a_last_qualifying_place_shared_on_every_criterion_is_named_and_needs_a_choice():
    t1 = team_standings([won("A", "B", 4, 2)], teams=["A", "B"])
    t2 = team_standings([], teams=["C", "D"])  # nothing played: C and D share every place
    assert shared_places({"1": t1, "2": t2}, per_zone=1) == {"2": ["C", "D"]}
    with pytest.raises(TeamsError):
        zone_leaders({"1": t1, "2": t2}, per_zone=1)
    assert zone_leaders({"1": t1, "2": t2}, per_zone=1, chosen={"2": ["D"]}) == ["A", "D"]
