"""A club's season for the tests: three finished round robins of four pairs entered through the desk's
service (so the registry finds each player by name), one player changing partner and one name typed wrong."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from tests.desk.helpers import play
from tournaments.competition.finishing import finish_tournament
from tournaments.models import Pair, Player, Round, Series, Tournament
from tournaments.people.pairs import PairEntry, save_pair
from tournaments.season.services import save_series

# A round robin of four pairs (by index): round by round, the two tables.
SCHEDULE = [[(0, 1), (2, 3)], [(0, 2), (1, 3)], [(0, 3), (1, 2)]]

ENTRIES = {
    # Each tournament's four pairs (name, player 1, player 2) and who wins each game of the round robin.
    "一月赛": (
        [
            ("甲队", "张三", "李四"),
            ("乙队", "王五", "赵六"),
            ("丙队", "孙七", "周八"),
            ("丁队", "吴九", "郑十"),
        ],
        "strength 0 1 2 3",
    ),
    "二月赛": (
        # 张三 now plays with 王五, 李四 with 赵六; 郑十 is typed 郑石.
        [
            ("新甲队", "张三", "王五"),
            ("新乙队", "李四", "赵六"),
            ("丙队", "孙七", "周八"),
            ("丁队", "吴九", "郑石"),
        ],
        "strength 2 0 3 1",
    ),
    "三月赛": (
        [
            ("甲队", "张三", "李四"),
            ("乙队", "王五", "赵六"),
            ("丙队", "孙七", "周八"),
            ("丁队", "吴九", "郑十"),
        ],
        "three share first",
    ),
}
# 三月赛: 甲 beats 乙 and 丁, 乙 beats 丙 and 丁, 丙 beats 甲 and 丁: three pairs on 2 wins share 1st.
SHARED = {(0, 1): 0, (2, 3): 2, (0, 2): 2, (1, 3): 1, (0, 3): 0, (1, 2): 1}


@dataclass
class Season:
    series: Series
    tournaments: list[Tournament]

    def player(self, name: str) -> Player:
        return Player.objects.get(name=name)


def winner_of(plan: str, a: int, b: int) -> int:
    if plan == "three share first":
        return SHARED[(a, b)]
    order = [int(n) for n in plan.split()[1:]]
    return a if order.index(a) < order.index(b) else b


def round_robin(tournament: Tournament, pairs: list[Pair], plan: str) -> None:
    for number, tables in enumerate(SCHEDULE, start=1):
        rnd = Round.objects.create(tournament=tournament, number=number, state=Round.State.FINISHED)
        for table, (a, b) in enumerate(tables, start=1):
            play(
                rnd,
                table,
                pairs[a],
                pairs[b],
                winner=pairs[winner_of(plan, a, b)],
                level_ns="5",
                level_ew="3",
            )


def build_season(director, *, best_of: int | None = 2, public: bool = True) -> Season:
    tournaments = []
    for month, (name, (entries, plan)) in enumerate(ENTRIES.items(), start=1):
        t = Tournament.objects.create(
            name=name, slug=f"m{month}", start_date=dt.date(2026, month, 10), tie_breaks=[], num_rounds=3
        )
        pairs = [save_pair(t, PairEntry(pair, p1, p2)) for pair, p1, p2 in entries]
        round_robin(t, pairs, plan)
        finish_tournament(t, director)
        tournaments.append(t)
    series = save_series(
        "春季联赛", [25, 18, 15, 12, 10, 8, 6, 4, 2, 1], best_of, public, tournaments, by=director
    )
    return Season(series, tournaments)
