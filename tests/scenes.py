"""A judge's evening as the pages must show it: long team names, a confirmed deal with a challenged throw and a
penalty, a deal in progress with a revoke and a penalty, a fresh table, and a deal whose tricks are all entered.
Built through the recording service (the same calls as the pages); used by the wording and the layout tests."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model

from referee.table.recording import deal_entry
from referee.table.recording import play as plays
from rules.simulate import simulate_deal
from tests.table.helpers import play_through_service, record_play
from tournaments.competition.access import JUDGE_GROUP, add_to_group
from tournaments.models import Deal, Match, Pair, Player, Round, Tournament
from tournaments.scoring import corrections
from tournaments.scoring.snapshot import snapshot, start_levels

PASSWORD = "judge-pass-1"
LONG_NAMES = (
    "上海浦东新区老年活动中心桥牌与升级联谊俱乐部一队",
    "Riverside Extraordinarily Long-Named Card Club Team",
    "东风",
    "西风",
    "南风",
    "北风",
)


@dataclass
class Scene:
    tournament: Tournament
    judge: object
    second: object
    played: Match  # deal 1 confirmed, deal 2 in progress with a revoke, a throw and a penalty
    fresh: Match  # no deal yet: the new-deal and quick-entry pages ask for the declarer
    finished: Match  # deal 1 with every trick entered, no kitty yet
    confirmed: Deal
    open_deal: Deal
    complete_deal: Deal


def account(username: str):
    user = get_user_model().objects.create_user(username=username, password=PASSWORD)
    add_to_group(user, JUDGE_GROUP)
    return user


def play(deal: Deal, user, cards: str, **kw) -> None:
    deal.refresh_from_db()
    record_play(deal, user, cards=cards, version=deal.version, **kw)


def with_throw(seed_from: int = 0) -> tuple[int, dict]:
    """A simulated first deal (banker N, spades) with a challenged throw."""
    for seed in range(seed_from, seed_from + 200):
        record = simulate_deal("standard", banker="N", level="2", trump="S", seed=seed)
        if any("throw" in t for t in record["tricks"]):
            return seed, record
    raise AssertionError("no simulated deal with a throw")


def build_scene() -> Scene:
    tournament = Tournament.objects.create(
        name="春季升级公开赛", slug="spring", ruleset={"preset": "standard"}, quick_entry_allowed=True
    )
    judge, second = account("judge"), account("judge2")
    pairs = [
        Pair.objects.create(
            tournament=tournament,
            name=name,
            player1=Player.objects.create(name=f"欧阳{i}建国"),
            player2=Player.objects.create(name=f"Alexandra{i} Montgomery"),
            seed=i + 1,
        )
        for i, name in enumerate(LONG_NAMES)
    ]
    round1 = Round.objects.create(tournament=tournament, number=1, state=Round.State.PUBLISHED)
    played = Match.objects.create(round=round1, table=1, pair_ns=pairs[0], pair_ew=pairs[1], judge=judge)
    fresh = Match.objects.create(round=round1, table=2, pair_ns=pairs[2], pair_ew=pairs[3], judge=judge)
    finished = Match.objects.create(round=round1, table=3, pair_ns=pairs[4], pair_ew=pairs[5], judge=judge)

    # Deal 1: a whole simulated deal with a challenged throw and a penalty, submitted and confirmed.
    confirmed = deal_entry.start_deal(played, judge, trump="S", declarer="N")
    _seed, record = with_throw()
    play_through_service(confirmed, judge, record)
    confirmed.refresh_from_db()
    deal_entry.set_kitty(confirmed, judge, record["kitty"], version=confirmed.version)
    confirmed.refresh_from_db()
    corrections.add_penalty(confirmed, judge, seat="W", code="signal", trick=2, version=confirmed.version)
    confirmed.refresh_from_db()
    deal_entry.submit_deal(confirmed, judge, version=confirmed.version)
    confirmed.refresh_from_db()
    deal_entry.confirm_deal(confirmed, second, version=confirmed.version)
    confirmed.refresh_from_db()

    # Deal 2: the second to play shows out of spades, then follows a spade lead with a spade (a revoke the
    # engine proves); then a challenged throw; a revoke penalty called.
    open_deal = deal_entry.start_deal(played, judge, trump="H")
    r = [rank for rank in "3456789TJQK" if rank != open_deal.level]  # plain cards at this deal's level
    for cards in (
        f"S{r[0]}",
        f"C{r[0]}",
        f"S{r[1]}",
        f"S{r[2]}",
        f"S{r[3]}",
        f"S{r[4]}",
        f"S{r[5]}",
        f"S{r[6]}",
    ):
        play(open_deal, judge, cards)
    open_deal.refresh_from_db()
    snap = snapshot(open_deal, start_levels(open_deal))
    due = snap.due(snap.judged())
    challenger = next(s for s in "NWSE" if s != due)
    throw = plays.Throw(f"D{r[8]} D{r[2]} D{r[2]}", challenger, f"D{r[4]} D{r[4]}")
    play(open_deal, judge, f"D{r[2]} D{r[2]}", throw=throw)
    open_deal.refresh_from_db()
    revoker = open_deal.tricks.get(number=0).plays.get(order=1).seat
    corrections.add_penalty(open_deal, judge, seat=revoker, code="revoke", trick=0, version=open_deal.version)
    open_deal.refresh_from_db()

    # A deal with every trick entered, not yet its kitty.
    complete_deal = deal_entry.start_deal(finished, judge, trump="S", declarer="N")
    play_through_service(
        complete_deal, judge, simulate_deal("standard", banker="N", level="2", trump="S", seed=5)
    )
    complete_deal.refresh_from_db()
    return Scene(tournament, judge, second, played, fresh, finished, confirmed, open_deal, complete_deal)
