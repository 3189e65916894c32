"""A 4-team duplicate (issue 40 item 6, RULES §14.5): two team matches of two tables each, team A (home) North–
South at table 1 and East–West at table 2, the round's boards at all four tables; each board's scale points are
§14.5's scale read on the difference of the two tables' NS scores, worked out here from the engine's verdicts on
the played records, and the match is won on their sum (win 2, draw 1, loss 0)."""

from __future__ import annotations

import pytest

from referee.table.recording import records
from rules.boards import deal_board
from rules.judge import judge
from rules.simulate import simulate_from_hands
from tests.table.board_scene import SEED, store_boards
from tournaments.competition.accounts import create_director
from tournaments.duplicate.team_scale import duplicate_team_result
from tournaments.league.results import zone_table
from tournaments.models import (
    Deal,
    DuplicateEvent,
    LineUp,
    Pair,
    Player,
    Round,
    Team,
    TeamEvent,
    TeamMatch,
    TeamPair,
    Tournament,
)
from tournaments.teams.services import seat

pytestmark = pytest.mark.django_db

# RULES §14.5's scale, as written there: x = |d| · 2 / decks; x ≤ 5 → 0, ≤ 25 → 1, … ≤ 195 → 6, more → 7.
SCALE = ((5, 0), (25, 1), (45, 2), (75, 3), (115, 4), (155, 5), (195, 6))


def by_the_scale(d: int, decks: int = 2) -> int:
    x = abs(d) * 2 / decks
    points = next((p for limit, p in SCALE if x <= limit), 7)
    return points if d > 0 else -points if d < 0 else 0


def ns_score(record: dict) -> int:
    """+P when N–S attacked, −P when N–S held the bank (no penalties in these plays)."""
    p = judge(record).attackers_points["total"]
    return p if record["banker"] in ("W", "E") else -p


def four_teams():
    tournament = Tournament.objects.create(
        name="复式团体赛",
        slug="dupteams",
        ruleset={"preset": "standard"},
        format=Tournament.Format.DUPLICATE_TEAMS,
    )
    DuplicateEvent.objects.create(tournament=tournament, boards_per_round=2)
    TeamEvent.objects.create(tournament=tournament, tables=2, kind=TeamEvent.Kind.SWISS)
    teams = []
    for t in range(4):
        team = Team.objects.create(tournament=tournament, name=f"队{t + 1}", seed=t + 1)
        for i in range(2):
            pair = Pair.objects.create(
                tournament=tournament,
                name=f"队{t + 1}-{i + 1}",
                player1=Player.objects.create(name=f"甲{t}{i}"),
                player2=Player.objects.create(name=f"乙{t}{i}"),
                seed=2 * t + i + 1,
            )
            TeamPair.objects.create(team=team, pair=pair, order=i)
        teams.append(team)
    round1 = Round.objects.create(tournament=tournament, number=1, state=Round.State.PUBLISHED)
    fixtures = []
    for n, (home, away) in enumerate(((teams[0], teams[1]), (teams[2], teams[3])), start=1):
        tm = TeamMatch.objects.create(round=round1, number=n, home=home, away=away)
        for team in (home, away):
            LineUp.objects.create(team_match=tm, team=team, pairs=[p.pair_id for p in team.roster.all()])
        seat(tm, 2)
        fixtures.append(tm)
    store_boards(tournament, 2)
    return tournament, fixtures


def test_a_four_team_duplicate_gives_each_board_the_scale_points_of_the_two_tables_difference():
    tournament, fixtures = four_teams()
    td = create_director("td", "director-pass-1")
    played: dict[tuple[int, int, int], dict] = {}
    for tm in fixtures:
        assert [t.match.pair_ns_id for t in tm.tables.order_by("number")][0] in {
            p.pair_id for p in tm.home.roster.all()
        }  # team A (home) North–South at table 1, East–West at table 2
        for table in tm.tables.select_related("match").order_by("number"):
            match = table.match
            for number in (1, 2):
                dealt = deal_board(SEED, number)
                record = simulate_from_hands(
                    "standard",
                    dealt.hands,
                    dealt.kitty,
                    banker=dealt.banker,
                    level=dealt.level,
                    trump=dealt.trump,
                    seed=100 * tm.number + 10 * table.number + number,
                )
                records.record_deal(
                    match, record, td
                )  # the whole board at once, confirmed (as ``simulate`` does)
                played[(tm.number, table.number, number)] = record
    assert Deal.objects.filter(state=Deal.State.CONFIRMED).count() == 8
    for tm in fixtures:
        result = duplicate_team_result(tm)
        expected = []
        for number in (1, 2):
            d = ns_score(played[(tm.number, 1, number)]) - ns_score(played[(tm.number, 2, number)])
            expected.append((number, d, by_the_scale(d)))
        assert [(s.board, s.difference, s.scale) for s in result.boards] == expected
        home = sum(p for _n, _d, p in expected if p > 0)
        away = -sum(p for _n, _d, p in expected if p < 0)
        assert (result.home, result.away) == (home, away)
        assert result.points == ((2, 0) if home > away else (0, 2) if away > home else (1, 1))
    assert any(s.scale for tm in fixtures for s in duplicate_team_result(tm).boards)  # the scale was read
    standing = {
        row.team.pk: (row.score, row.tiebreaks["table_points"]) for row in zone_table(tournament, None)
    }
    for tm in fixtures:  # the team standings read the match on scale points
        result = duplicate_team_result(tm)
        assert standing[tm.home_id] == (result.points[0], result.home)
        assert standing[tm.away_id] == (result.points[1], result.away)


def test_create_tournament_makes_a_duplicate_teams_event_of_two_tables_a_match_and_deals_a_set_a_round():
    from django.core.management import call_command

    from tournaments.duplicate.dealing import deal_session

    call_command(
        "create_tournament",
        "dt",
        "--name",
        "复式团体",
        "--format",
        "duplicate-teams",
        "--boards-per-round",
        "3",
        "--rounds",
        "4",
    )
    t = Tournament.objects.get(slug="dt")
    assert (t.team_event.tables, t.duplicate_event.boards_per_round) == (2, 3)
    deal_session(t, None)
    assert t.boards.count() == 12  # a set of 3 for each of the 4 rounds
