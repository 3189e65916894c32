"""Standings (RULES §12): match points, ordered tie-breaks, shared ranks, speed."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from rules.ruleset import PRESETS
from rules.standings import (
    MatchResult,
    StandingsError,
    StandingsSettings,
    ladder_position,
    ladder_positions,
    standings,
)

R = MatchResult


def table(rows):
    return [(r.rank, r.pair, r.match_points) for r in rows]


# Two rounds, hand computed (standard ladder positions: 2 → 0 … A → 12):
#   R1: A beat B (A at 5 = 3, B at 2 = 0); C drew D (both at 4 = 2).
#   R2: A beat C (A at A = 12, C at 7 = 5); B beat D (B at 6 = 4, D at 3 = 1).
# Match points A 4, B 2, C 1, D 1. Level difference A +10, B 0, C −7, D −3.
# Buchholz A 2+1 = 3, B 4+1 = 5, C 1+4 = 5, D 1+2 = 3.
TWO_ROUNDS = [
    R("A", "B", "A", 3, 0, banker_wins_a=3, banker_wins_b=1, attackers_points_a=300, attackers_points_b=150),
    R("C", "D", None, 2, 2, banker_wins_a=2, banker_wins_b=2, attackers_points_a=200, attackers_points_b=220),
    R("A", "C", "A", 12, 5, banker_wins_a=5, banker_wins_b=2),
    R("B", "D", "B", 4, 1, banker_wins_a=2, banker_wins_b=1),
]


def test_default_order_level_difference_first():
    rows = standings(TWO_ROUNDS)
    assert table(rows) == [(1, "A", 4), (2, "B", 2), (3, "D", 1), (4, "C", 1)]
    by = {r.pair: r for r in rows}
    assert by["A"].tiebreaks == {
        "level_diff": 10,
        "buchholz": 3,
        "head_to_head": 0,
        "banker_wins": 8,
        "attackers_points": 300,
    }
    assert (by["C"].tiebreaks["level_diff"], by["D"].tiebreaks["level_diff"]) == (-7, -3)
    assert (by["C"].played, by["C"].wins, by["C"].draws, by["C"].losses) == (2, 0, 1, 1)
    assert by["D"].as_dict()["buchholz"] == 3 and by["D"].as_dict()["rank"] == 3


def test_buchholz_before_level_difference_ranks_c_above_d():
    rows = standings(TWO_ROUNDS, StandingsSettings(tiebreaks=("buchholz", "level_diff")))
    assert table(rows) == [(1, "A", 4), (2, "B", 2), (3, "C", 1), (4, "D", 1)]


def test_banker_wins_and_attackers_points_break_ties_when_chosen():
    assert [r.pair for r in standings(TWO_ROUNDS, StandingsSettings(tiebreaks=("banker_wins",)))][2:] == [
        "C",
        "D",
    ]
    rows = standings(TWO_ROUNDS, StandingsSettings(tiebreaks=("attackers_points",)))
    assert [r.pair for r in rows][2:] == ["D", "C"]  # D 220 > C 200


def test_pairs_level_on_every_tie_break_share_a_rank():
    # A beat B, C and D; B drew C: A 6, B 1, C 1, D 0 → ranks 1, 2, 2, 4.
    results = [R("A", "B", "A"), R("A", "C", "A"), R("A", "D", "A"), R("B", "C", None)]
    rows = standings(results, StandingsSettings(tiebreaks=()))
    assert [(r.rank, r.match_points) for r in rows] == [(1, 6), (2, 1), (2, 1), (4, 0)]
    assert {r.pair for r in rows if r.rank == 2} == {"B", "C"}
    # With every tie-break the two are still level (same levels 0, no points, h2h 1 each): rank stays shared.
    assert [r.rank for r in standings(results)] == [1, 2, 2, 4]


def test_head_to_head_order_matters():
    # A beat B narrowly; D beat A heavily; B beat C heavily. A, B and D have 2 points each.
    # Among {A, B, D}: A took 2 (from B), D took 2 (from A), B took 0. Level difference D +12, B +11, A −11.
    results = [R("A", "B", "A", 1, 0), R("A", "D", "D", 0, 12), R("B", "C", "B", 12, 0)]
    h2h_first = standings(results, StandingsSettings(tiebreaks=("head_to_head", "level_diff")))
    assert [r.pair for r in h2h_first] == ["D", "A", "B", "C"]
    assert [r.rank for r in h2h_first] == [1, 2, 3, 4]
    assert {r.pair: r.tiebreaks["head_to_head"] for r in h2h_first} == {"A": 2, "B": 0, "C": 0, "D": 2}
    lv_first = standings(results, StandingsSettings(tiebreaks=("level_diff", "head_to_head")))
    assert [r.pair for r in lv_first] == ["D", "B", "A", "C"]
    # Head-to-head alone: A and D tie on 2 among the three; re-applied between the two, D beat A.
    alone = standings(results, StandingsSettings(tiebreaks=("head_to_head",)))
    assert [(r.rank, r.pair) for r in alone] == [(1, "D"), (2, "A"), (3, "B"), (4, "C")]


def test_head_to_head_circular_tie_stays_shared():
    # A beat B, B beat C, C beat A: each 2 points, 2 in the mini-league — nothing separates them.
    results = [R("A", "B", "A"), R("B", "C", "B"), R("C", "A", "C")]
    rows = standings(results, StandingsSettings(tiebreaks=("head_to_head",)))
    assert [(r.rank, r.pair) for r in rows] == [(1, "A"), (1, "B"), (1, "C")]


def test_match_points_and_byes_follow_the_settings():
    results = [R("A", "B", None), R("C", None, None)]
    rows = standings(results, StandingsSettings(win=3, draw=1, loss=0, bye=3), pairs=["D"])
    assert table(rows) == [(1, "C", 3), (2, "A", 1), (2, "B", 1), (4, "D", 0)]
    assert {r.pair: r.tiebreaks["buchholz"] for r in rows} == {"C": 0, "A": 1, "B": 1, "D": 0}


def test_unknown_tie_break_unknown_winner_and_self_match_are_refused():
    with pytest.raises(StandingsError, match="'elo'"):
        StandingsSettings(tiebreaks=("elo",))
    with pytest.raises(StandingsError, match="'Z'"):
        standings([R("A", "B", "Z")])
    with pytest.raises(StandingsError, match="itself"):
        standings([R("A", "A", None)])


@pytest.mark.parametrize(
    "preset, level, position",
    [
        ("standard", "2", 0),  # the first rung
        ("standard", "5", 3),
        ("standard", "A", 12),
        ("permanent-twos", "5", 2),  # ladder 3…A
        ("permanent-twos", "2", 0),  # off the ladder, below every rung
        ("club-competition", "3", 1),  # ladder 2 5 T J Q K A: the 2 is below it
        ("club-competition", "7", 2),  # 2 and 5 below it: level with T
        ("club-competition", "Q", 4),
        ("standard", "", 0),  # no rank at all
    ],
)
def test_a_level_off_the_ladder_counts_the_rungs_below_it(preset, level, position):
    assert ladder_position(PRESETS[preset], level) == position


def test_ladder_positions_give_every_rank_its_position():
    positions = ladder_positions(PRESETS["club-competition"])
    assert positions == {
        "2": 0, "3": 1, "4": 1, "5": 1, "6": 2, "7": 2, "8": 2, "9": 2, "T": 2, "J": 3, "Q": 4, "K": 5, "A": 6
    }  # fmt: skip


def test_512_pairs_over_9_rounds_are_ranked_by_match_points_then_the_tie_breaks():
    rnd = random.Random(7)
    pairs = [f"P{i:03d}" for i in range(512)]
    results = []
    for _ in range(9):
        rnd.shuffle(pairs)
        for a, b in zip(pairs[::2], pairs[1::2], strict=True):
            results.append(
                R(
                    a,
                    b,
                    rnd.choice([a, b, None]),
                    rnd.randrange(13),
                    rnd.randrange(13),
                    rnd.randrange(9),
                    rnd.randrange(9),
                    rnd.randrange(0, 800, 5),
                    rnd.randrange(0, 800, 5),
                )
            )
    rows = standings(results)
    expected = sorted(hand_keys(results), key=lambda kv: (tuple(-v for v in kv[1]), kv[0]))
    assert [(r.pair, r.match_points, *r.tiebreaks.values()) for r in rows] == [(p, *k) for p, k in expected]
    assert [r.rank for r in rows] == hand_ranks([k for _p, k in expected])


def hand_keys(results: list[MatchResult]) -> list[tuple[str, tuple[int, ...]]]:
    """Each pair's match points (2, 1, 0) and default tie-breaks, counted match by match as a scorer would.

    Head-to-head is taken over the pairs level on match points, level difference and Buchholz; the data is such
    that no more than two are level there, so it is simply what each took from the other.
    """
    mp: dict[str, int] = Counter()
    cols = {k: Counter() for k in ("level_diff", "banker_wins", "attackers_points")}
    met: dict[str, list[str]] = {}
    took: dict[tuple[str, str], int] = Counter()
    for r in results:
        for me, opp, lv, olv, bw, ap in (
            (r.a, r.b, r.level_a, r.level_b, r.banker_wins_a, r.attackers_points_a),
            (r.b, r.a, r.level_b, r.level_a, r.banker_wins_b, r.attackers_points_b),
        ):
            pts = 1 if r.winner is None else 2 if r.winner == me else 0
            mp[me] += pts
            took[(me, opp)] += pts
            met.setdefault(me, []).append(opp)
            cols["level_diff"][me] += lv - olv
            cols["banker_wins"][me] += bw
            cols["attackers_points"][me] += ap
    buchholz = {p: sum(mp[o] for o in met[p]) for p in mp}
    level = {p: (mp[p], cols["level_diff"][p], buchholz[p]) for p in mp}
    tied: dict[tuple[int, ...], list[str]] = {}
    for p in mp:
        tied.setdefault(level[p], []).append(p)
    assert max(len(g) for g in tied.values()) == 2  # what the docstring relies on
    h2h = {
        p: sum(took[(p, o)] for o in tied[level[p]] if o != p) if len(tied[level[p]]) > 1 else 0 for p in mp
    }
    return [(p, (*level[p], h2h[p], cols["banker_wins"][p], cols["attackers_points"][p])) for p in mp]


def hand_ranks(keys: list[tuple[int, ...]]) -> list[int]:
    """Competition ranks (1, 2, 2, 4) over keys already in order."""
    ranks: list[int] = []
    for i, key in enumerate(keys):
        ranks.append(ranks[-1] if i and key == keys[i - 1] else i + 1)
    return ranks


def test_pairs_tied_on_every_key_are_listed_in_the_order_given_seed_order():
    rows = standings([], StandingsSettings(), pairs=["9", "10", "2", "11"])
    assert [r.pair for r in rows] == ["9", "10", "2", "11"]
    assert {r.rank for r in rows} == {1}


def test_a_tie_order_does_not_override_the_keys():
    results = [MatchResult("2", "9", "2")]
    rows = standings(results, StandingsSettings(tiebreaks=()), pairs=["9", "10", "2"])
    assert [r.pair for r in rows] == ["2", "9", "10"]


def test_points_a_timed_match_fixed_are_taken_over_the_events_win_and_draw_points():
    event = StandingsSettings(win=3, draw=1, loss=0, tiebreaks=())
    results = [
        MatchResult("A", "B", "A", points_a=2, points_b=0),  # ended by time, side ahead: 2, not 3
        MatchResult("C", "D", None, points_a=1, points_b=1),  # ended by time at equal levels
        MatchResult("A", "C", "A"),  # ended at the target: the event's 3
    ]
    rows = {r.pair: r for r in standings(results, event)}
    assert {p: r.match_points for p, r in rows.items()} == {"A": 5, "B": 0, "C": 1, "D": 1}
    assert (rows["A"].wins, rows["C"].draws, rows["C"].losses) == (2, 1, 1)


def test_a_both_lose_adjustment_beats_points_the_match_fixed():
    rows = standings(
        [MatchResult("A", "B", None, both_lose=True, points_a=1, points_b=1)], StandingsSettings()
    )
    assert [r.match_points for r in rows] == [0, 0]
