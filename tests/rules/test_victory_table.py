"""The default victory-point table of a duplicate team match (RULES §14.5, docs/duplicate.md): the WBF's continuous
20-VP scale read in whole VP on the scale points' margin, its blitz 5 scale points × √boards; and the match's
points read from a table the director wrote."""

from __future__ import annotations

import math

import pytest

from rules.scale_points import default_victory_table, match_points

TAU = (math.sqrt(5) - 1) / 2


def wbf_whole_vp(margin: int, boards: int) -> int:
    """The WBF 2013 formula, as published: 10 + 10 × (1 − τ^(3m/B)) / (1 − τ³), B the blitz, capped at 20."""
    blitz = 5 * math.sqrt(boards)
    return min(20, round(10 + 10 * (1 - TAU ** (3 * margin / blitz)) / (1 - TAU**3)))


@pytest.mark.parametrize("boards", [2, 3, 4])
def test_the_default_table_gives_each_margin_the_wbf_scales_whole_victory_points(boards):
    table = default_victory_table(boards)
    for margin in range(0, 40):
        win, lose = match_points(margin, 0, table)
        assert (win, lose) == (wbf_whole_vp(margin, boards), 20 - wbf_whole_vp(margin, boards))


def test_the_default_table_starts_at_a_draw_and_ends_where_the_winner_takes_all_20():
    for boards in (2, 3, 4):
        table = default_victory_table(boards)
        assert table[0] == (10, 10)
        assert list(table.values())[-1] == (20, 0)
        assert list(table) == sorted(table)


def test_two_boards_a_match_take_all_20_from_a_margin_of_7_and_four_boards_from_9():
    assert max(default_victory_table(2)) == 7
    assert max(default_victory_table(4)) == 9


def test_a_directors_table_is_read_by_the_largest_margin_at_or_below_the_matchs():
    table = {0: (10, 10), 1: (12, 8), 3: (15, 5), 6: (18, 2)}
    assert match_points(5, 3, table) == (12, 8)  # margin 2: the row from 1
    assert match_points(3, 9, table) == (2, 18)  # margin 6, the away team won
    assert match_points(4, 4, table) == (10, 10)
    assert match_points(20, 0, table) == (18, 2)
