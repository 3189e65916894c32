"""The demo tournament 演示赛: eight pairs, round 1 paired, a TD and two judges. Safe to run again."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import transaction

from tournaments.access import DIRECTOR_GROUP, JUDGE_GROUP, add_to_group
from tournaments.models import Match, Pair, Player, Round, Tournament

DEMO_SLUG = "demo"
DEMO_NAME = "演示赛"
DEMO_PAIRS = [
    ("东风队", "王建国", "李秀英", "朝阳棋牌俱乐部"),
    ("长城队", "张伟", "刘芳", "朝阳棋牌俱乐部"),
    ("黄河队", "陈志强", "杨丽", "海淀老年活动中心"),
    ("梅花队", "赵国庆", "黄桂兰", "海淀老年活动中心"),
    ("拖拉机队", "周明", "吴静", "西城桥牌升级协会"),
    ("红桃队", "徐海涛", "孙玉梅", "西城桥牌升级协会"),
    ("翻倍队", "马超", "朱晓红", "丰台职工之家"),
    ("扣底队", "胡斌", "郭美玲", "丰台职工之家"),
]
# Demo accounts: (username, password, group). Printed by the command; change them before a real event.
DEMO_ACCOUNTS = [
    ("director", "demo-director-2026", DIRECTOR_GROUP),
    ("judge1", "demo-judge1-2026", JUDGE_GROUP),
    ("judge2", "demo-judge2-2026", JUDGE_GROUP),
]


@dataclass(frozen=True)
class DemoResult:
    tournament: Tournament
    created: bool
    accounts: list[tuple[str, str, str]]


def ensure_account(username: str, password: str, group: str):
    User = get_user_model()
    user, created = User.objects.get_or_create(username=username)
    if created:
        user.set_password(password)
        if group == DIRECTOR_GROUP:
            user.is_staff = user.is_superuser = True
        user.save()
    add_to_group(user, group)
    return user


@transaction.atomic
def create_demo() -> DemoResult:
    """Create 演示赛 once; a second run finds it and changes nothing."""
    users = {name: ensure_account(name, pw, group) for name, pw, group in DEMO_ACCOUNTS}
    tournament, created = Tournament.objects.get_or_create(
        slug=DEMO_SLUG,
        defaults={
            "name": DEMO_NAME,
            "venue": "朝阳区文化馆二楼",
            "start_date": dt.date(2026, 12, 5),
            "end_date": dt.date(2026, 12, 6),
            "ruleset": {"preset": "standard"},
            "format": Tournament.Format.SWISS,
            "num_rounds": 5,
            "match_time_limit": 90,
            "is_public": True,
        },
    )
    if created:
        pairs = []
        for seed, (name, p1, p2, club) in enumerate(DEMO_PAIRS, start=1):
            player1 = Player.objects.create(name=p1, club=club)
            player2 = Player.objects.create(name=p2, club=club)
            pairs.append(
                Pair.objects.create(
                    tournament=tournament, name=name, player1=player1, player2=player2, club=club, seed=seed
                )
            )
        round1 = Round.objects.create(tournament=tournament, number=1, state=Round.State.PUBLISHED)
        judges = [users["judge1"], users["judge2"]]
        for table in range(1, 5):
            Match.objects.create(
                round=round1,
                table=table,
                pair_ns=pairs[table - 1],
                pair_ew=pairs[table + 3],
                judge=judges[(table - 1) % 2],
            )
    return DemoResult(tournament, created, DEMO_ACCOUNTS)
