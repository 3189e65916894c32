"""A whole duplicate pairs session from the engine alone (issue 40's "Done when", engine side): 16 pairs, a
Mitchell of 8 tables with the skip, 7 rounds of 2 boards, every board dealt from the seed and played out."""

from fractions import Fraction

import pytest

from rules.boards import deal_boards
from rules.judge import judge
from rules.matchpoints import BoardEntry, Fault, compare, top
from rules.movement import mitchell, plays_per_board
from rules.ruleset import PRESETS
from rules.session import TravellerLine, score_session
from rules.simulate import simulate_from_hands
from rules.table_result import table_result

SEED = "5e" * 32


@pytest.fixture(scope="module")
def session():
    tables, per_round = 8, 2
    boards = {b.number: b for b in deal_boards(SEED, tables * per_round)}
    lines = []
    for row in mitchell(tables, per_round):
        for seat in row:
            for number in seat.boards:
                b = boards[number]
                record = simulate_from_hands(
                    b.ruleset,
                    b.hands,
                    b.kitty,
                    banker=b.banker,
                    level=b.level,
                    trump=b.trump,
                    seed=seat.round,
                )
                verdict = judge(record)
                assert verdict.ok
                result = table_result(PRESETS[b.ruleset], b.banker, verdict.score.attackers_points.total)
                lines.append(TravellerLine(number, seat.ns, seat.ew, BoardEntry(result.ns_score)))
    return lines


def test_sixteen_pairs_play_seven_rounds_and_every_board_seven_times(session):
    assert len({line.board for line in session}) == 16
    assert all(sum(1 for line in session if line.board == k) == 7 for k in range(1, 17))
    for direction in ("ns_pair", "ew_pair"):
        seen = [(getattr(line, direction), line.board) for line in session]
        assert len(seen) == len(set(seen))  # no pair plays a board twice


def test_every_boards_matchpoints_sum_to_the_same_constant_in_each_direction(session):
    scored = score_session(session, plays_per_board(8))
    for k in range(1, 17):
        mine = [mp for line, mp in scored.lines.items() if line.board == k]
        assert sum(ns for ns, _ew in mine) == sum(ew for _ns, ew in mine) == 7 * top(7) // 2


def test_each_pairs_total_is_its_boards_matchpoints_recomputed_line_by_line(session):
    scored = score_session(session, plays_per_board(8))
    for pair in range(1, 9):
        own = [line for line in session if line.ns_pair == pair]
        total = Fraction(0)
        for line in own:
            scores = [other.entry.ns_score for other in session if other.board == line.board]
            total += compare(scores)[scores.index(line.entry.ns_score)]
        assert scored.pairs["NS"][pair].matchpoints == total
        assert scored.pairs["NS"][pair].tops == 14 * top(7)


def test_a_board_not_played_at_one_table_is_scaled_and_that_table_gets_its_artificial_scores(session):
    lines = list(session)
    first = lines[0]
    lines[0] = TravellerLine(
        first.board, first.ns_pair, first.ew_pair, BoardEntry(None, Fault.AT_FAULT, Fault.NONE)
    )
    scored = score_session(lines, 7)
    assert scored.lines[lines[0]] == (Fraction(4, 10) * 12, Fraction(6, 10) * 12)
    others = [mp for line, mp in scored.lines.items() if line.board == first.board and line is not lines[0]]
    assert len(others) == 6
    # Neuberg over 6 results of 7: Σ(MP + 1) = 36 becomes 36 · 7/6 = 42, so Σ MP' = 42 − 6
    assert sum(ns for ns, _ew in others) == 36
    assert all(ns + ew == top(7) for ns, ew in others)


def test_places_rank_ns_and_ew_apart(session):
    scored = score_session(session, 7)
    assert [pair for _place, pair in scored.places["NS"]] != [] and len(scored.places["EW"]) == 8
    assert sorted(p for _pl, p in scored.places["NS"]) == list(range(1, 9))
