"""A duplicate session at the table's height: 8 pairs, a Mitchell of 4 tables, 2 boards a round, the boards dealt
from a fixed seed (board 2 marked ``called``), round 1 published with a judge at every table. Built through the
models the desk's dealing fills (``tournaments.duplicate``); used by the table's board tests and its browser test."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model

from rules.boards import deal_boards
from tournaments.competition.access import JUDGE_GROUP, add_to_group
from tournaments.duplicate import dealing
from tournaments.duplicate.movement import mitchell_games
from tournaments.models import Board, DuplicateEvent, Match, Pair, Player, Round, Tournament

SEED = "0f" * 32
PASSWORD = "judge-pass-1"


@dataclass
class BoardScene:
    tournament: Tournament
    judge: object
    other_judge: object
    match: Match  # table 1 of round 1: boards 1 and 2
    boards: dict[int, Board]


def store_boards(tournament: Tournament, count: int, called: tuple[int, ...] = ()) -> dict[int, Board]:
    """Boards 1 … ``count`` dealt from ``SEED``, those in ``called`` marked ``called`` (RULES §14.1), stored as
    the desk stores them (``duplicate.dealing.store_boards``)."""
    dealt = [b.marked("called") if b.number in called else b for b in deal_boards(SEED, count)]
    dealing.store_boards(tournament, dealt)
    return {b.number: b for b in Board.objects.of(tournament)}


def judge_account(username: str):
    user = get_user_model().objects.create_user(username=username, password=PASSWORD)
    add_to_group(user, JUDGE_GROUP)
    return user


def build_board_scene(slug: str = "dup", called: tuple[int, ...] = (2,)) -> BoardScene:
    tournament = Tournament.objects.create(
        name="复式赛", slug=slug, ruleset={"preset": "standard"}, format=Tournament.Format.DUPLICATE
    )
    DuplicateEvent.objects.create(tournament=tournament, boards_per_round=2)
    for i in range(8):
        Pair.objects.create(
            tournament=tournament,
            name=f"对{i + 1}",
            player1=Player.objects.create(name=f"甲{i + 1}"),
            player2=Player.objects.create(name=f"乙{i + 1}"),
            seed=i + 1,
        )
    judge, other = judge_account(f"{slug}-judge"), judge_account(f"{slug}-judge2")
    games = mitchell_games(tournament, 1)  # before round 1 exists: the roster is the pairs in seed order
    round1 = Round.objects.create(tournament=tournament, number=1, state=Round.State.PUBLISHED)
    matches = [
        Match.objects.create(
            round=round1, table=t, pair_ns_id=ns, pair_ew_id=ew, judge=judge if t == 1 else other
        )
        for t, (ns, ew) in enumerate(games, start=1)
    ]
    boards = store_boards(tournament, 8, called)
    return BoardScene(tournament, judge, other, matches[0], boards)
