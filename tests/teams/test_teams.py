"""Teams and leagues on the database: rosters, the league's fixtures, line-ups hidden until both are in, the
tables seated from them, team results and zone tables, the team Swiss, postponing, and who may do what.

Most tests start from the same scheduled league (``league()``: six teams, three tables a match). It is built once
for the module (``scheduled``, rolled back at its end) and read again by each test inside its own savepoint, so
what one test hands in, plays or postpones is undone before the next; the tests of another league build their own."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.databases import module_transaction
from tests.teams.scene import FIRST_DAY, captain, hand_in_both, league, play
from tournaments.league.results import results, zone_table
from tournaments.models import Match, Team, TeamMatch, Tournament
from tournaments.teams import services
from tournaments.teams.swiss import pair_swiss_round

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def scheduled(django_db_setup, django_db_blocker) -> Iterator[int]:
    """``league()`` under another address, built once per module (``module_transaction``); each test runs in its
    own savepoint."""
    with module_transaction(django_db_blocker):
        yield league(slug="league-scheduled").pk


@pytest.fixture
def six_teams(scheduled) -> Tournament:
    """The module's scheduled league, read again (a test's writes are its own)."""
    return Tournament.objects.get(pk=scheduled)


def first_fixture(t: Tournament) -> TeamMatch:
    return (
        TeamMatch.objects.filter(round__tournament=t)
        .select_related("home", "away", "round")
        .order_by("round__number", "number")
        .first()
    )


def test_a_team_roster_is_pairs_of_registry_players():
    t = league(teams=2)
    team = t.teams.first()
    pairs = services.roster(team)
    assert len(pairs) == 4 and all(p.tournament_id == t.pk for p in pairs)
    assert pairs[0].player1.name == "队1甲1"


@pytest.mark.parametrize("size", [1, 9])
def test_a_roster_of_fewer_than_two_or_more_than_eight_pairs_is_refused(size):
    t = Tournament.objects.create(name="x", slug="x")
    services.save_team_event(t, tables=2)
    with pytest.raises(services.TeamError):
        services.add_team(t, services.TeamEntry("甲", [(f"a{i}", f"b{i}") for i in range(size)]))
    assert not Team.objects.exists()


def test_six_teams_play_a_double_round_robin_of_ten_match_days(
    six_teams,
):
    t = six_teams
    fixtures = TeamMatch.objects.filter(round__tournament=t)
    assert fixtures.count() == 30 and t.rounds.count() == 10
    meetings = {(f.home_id, f.away_id) for f in fixtures}
    assert len(meetings) == 30  # every ordered pair of teams once: home and away
    assert fixtures.get(round__number=2, number=1).date == FIRST_DAY + dt.timedelta(days=7)


def test_a_line_up_stays_hidden_from_the_other_captain_until_both_are_in(six_teams, client):
    t = six_teams
    fx = first_fixture(t)
    home_cap, away_cap = captain(fx.home, "home-cap"), captain(fx.away, "away-cap")
    home_pairs = services.roster(fx.home)
    services.hand_in_lineup(fx, fx.home, [p.pk for p in home_pairs[:3]], home_cap)
    url = reverse("team-fixture", args=[t.slug, fx.pk])
    client.force_login(away_cap)
    assert home_pairs[0].player1.name not in client.get(url).content.decode()
    client.force_login(home_cap)
    assert home_pairs[0].player1.name in client.get(url).content.decode()
    services.hand_in_lineup(fx, fx.away, [p.pk for p in services.roster(fx.away)[1:4]], away_cap)
    client.force_login(away_cap)
    assert home_pairs[0].player1.name in client.get(url).content.decode()


def test_both_line_ups_seat_three_ordinary_matches_with_the_sides_alternating(six_teams, director):
    t = six_teams
    fx = first_fixture(t)
    hand_in_both(fx, director)
    home, away = services.roster(fx.home), services.roster(fx.away)
    tables = list(fx.tables.select_related("match").order_by("number"))
    assert [(tt.match.pair_ns_id, tt.match.pair_ew_id) for tt in tables] == [
        (home[0].pk, away[0].pk),
        (away[1].pk, home[1].pk),
        (home[2].pk, away[2].pk),
    ]
    assert [tt.match.table for tt in tables] == [1, 2, 3]


def test_a_captain_cannot_hand_in_the_other_teams_line_up_nor_after_the_deadline(
    six_teams,
):
    t = six_teams
    fx = first_fixture(t)
    cap = captain(fx.home, "cap")
    with pytest.raises(services.TeamError) as other:
        services.hand_in_lineup(fx, fx.away, [p.pk for p in services.roster(fx.away)[:3]], cap)
    assert other.value.status == 403
    fx.lineup_deadline = timezone.now() - dt.timedelta(minutes=1)
    fx.save()
    with pytest.raises(services.TeamError) as late:
        services.hand_in_lineup(fx, fx.home, [p.pk for p in services.roster(fx.home)[:3]], cap)
    assert late.value.status == 409


@pytest.mark.parametrize("pick", ["short", "twice", "foreign"])
def test_a_line_up_of_the_wrong_pairs_is_refused(six_teams, director, pick):
    t = six_teams
    fx = first_fixture(t)
    own = [p.pk for p in services.roster(fx.home)]
    pairs = {
        "short": own[:2],
        "twice": [own[0], own[0], own[1]],
        "foreign": [services.roster(fx.away)[0].pk, *own[:2]],
    }
    with pytest.raises(services.TeamError):
        services.hand_in_lineup(fx, fx.home, pairs[pick], director)


def test_the_team_result_sums_the_tables_match_points(six_teams, director):
    t = six_teams
    fx = first_fixture(t)
    hand_in_both(fx, director)
    play(fx, home_wins=2)
    res = results(t)[fx.pk]
    assert (res.home_score, res.away_score, res.winner) == (4, 2, "home")
    assert res.level_diff == (4 - 1) + (4 - 1) - (4 - 1)  # ladder positions of 6 and 3


def test_a_table_the_points_time_rule_ended_counts_two_whatever_the_events_win_points(six_teams, director):
    t = six_teams
    t.ruleset, t.points_win = {"preset": "standard", "time_rule": "points"}, 3
    t.save()
    fx = first_fixture(t)
    hand_in_both(fx, director)
    play(fx, home_wins=2)
    Match.objects.filter(team_table__team_match=fx, team_table__number=1).update(ended_by="time")
    res = results(t)[fx.pk]
    assert (res.home_score, res.away_score) == (2 + 3, 0 + 3)  # table 1 by time: 2, not the event's 3


def test_victory_points_scoring_shares_twenty_by_the_level_difference(director):
    t = league(scoring="victory_points")
    fx = first_fixture(t)
    hand_in_both(fx, director)
    play(fx, home_wins=1)
    res = results(t)[fx.pk]
    assert res.winner == "away" and res.home_score + res.away_score == 2000


def test_a_team_match_has_no_result_until_every_table_is_finished(six_teams, director):
    t = six_teams
    fx = first_fixture(t)
    hand_in_both(fx, director)
    play(fx, 3)
    m = fx.tables.get(number=3).match
    m.state = Match.State.IN_PROGRESS
    m.save()
    assert results(t)[fx.pk] is None


def test_the_zone_table_ranks_the_winners_first(six_teams, director):
    t = six_teams
    day = TeamMatch.objects.filter(round__tournament=t, round__number=1).select_related("home", "away")
    for fx in day:
        hand_in_both(fx, director)
        play(fx, 3)
    table = zone_table(t, t.zones.get())
    winners = {fx.home for fx in day}
    assert {line.team for line in table[:3]} == winners
    assert table[0].score == 6 and table[-1].score == 0


def test_a_postponed_match_takes_its_new_date_and_deadline(six_teams, director):
    t = six_teams
    fx = first_fixture(t)
    services.postpone(fx, dt.date(2026, 7, 1), director)
    fx.refresh_from_db()
    assert (
        fx.postponed
        and fx.date == dt.date(2026, 7, 1)
        and timezone.localtime(fx.lineup_deadline).date() == dt.date(2026, 7, 1)
    )


def test_a_team_swiss_pairs_the_next_round_only_once_the_last_is_finished(director):
    t = Tournament.objects.create(name="团体赛", slug="swiss")
    services.save_team_event(t, kind="swiss", tables=2)
    for i in range(4):
        services.add_team(t, services.TeamEntry(f"T{i}", [(f"a{i}{j}", f"b{i}{j}") for j in range(2)]))
    rnd = pair_swiss_round(t)
    assert rnd.team_matches.count() == 2
    with pytest.raises(services.TeamError):
        pair_swiss_round(t)
    for fx in rnd.team_matches.select_related("home", "away", "round"):
        hand_in_both(fx, director)
        play(fx, 2)
    second = pair_swiss_round(t)
    met = {frozenset((f.home_id, f.away_id)) for f in rnd.team_matches.all()}
    assert not met & {frozenset((f.home_id, f.away_id)) for f in second.team_matches.all()}


# --- pages and permissions ---------------------------------------------------------------------------------

PUBLIC = [("team-tables", []), ("team-fixtures", []), ("team", ["team"]), ("team-fixture", ["fixture"]),
          ("team-playoffs", [])]  # fmt: skip
DESK = [("get", "desk-teams", []), ("post", "desk-teams", []), ("post", "desk-team-captain", ["team"]),
        ("post", "desk-postpone", ["fixture"])]  # fmt: skip


def args_for(t, names):
    team, fx = t.teams.first(), first_fixture(t)
    return [t.slug] + [{"team": team.pk, "fixture": fx.pk}[n] for n in names]


@pytest.mark.parametrize(("name", "args"), PUBLIC)
def test_every_team_page_opens_to_the_public(six_teams, client, name, args):
    t = six_teams
    assert client.get(reverse(name, args=args_for(t, args))).status_code == 200


@pytest.mark.parametrize(("name", "args"), PUBLIC)
def test_a_hidden_tournaments_team_pages_are_404_to_the_public_and_open_to_the_director(
    six_teams, client, director, name, args
):
    t = six_teams
    Tournament.objects.filter(pk=t.pk).update(is_public=False)
    url = reverse(name, args=args_for(t, args))
    assert client.get(url).status_code == 404
    client.force_login(director)
    assert client.get(url).status_code == 200


def test_a_pairs_tournaments_team_pages_are_404(client, tournament):
    assert client.get(reverse("team-tables", args=[tournament.slug])).status_code == 404


@pytest.mark.parametrize("who", ["anonymous", "judge", "captain"])
@pytest.mark.parametrize(("method", "name", "args"), DESK)
def test_the_team_desk_needs_the_director(six_teams, client, judge, who, method, name, args):
    t = six_teams
    if who == "judge":
        client.force_login(judge)
    elif who == "captain":
        client.force_login(captain(t.teams.first(), "cap"))
    response = getattr(client, method)(reverse(name, args=args_for(t, args)))
    assert response.status_code == (302 if who == "anonymous" else 403)


def test_a_visitor_posting_a_line_up_is_refused(six_teams, client):
    t = six_teams
    fx = first_fixture(t)
    response = client.post(reverse("team-fixture", args=[t.slug, fx.pk]), {"team": fx.home.pk})
    assert response.status_code == 403 and not fx.lineups.exists()


def test_a_captain_hands_in_a_line_up_through_the_page(six_teams, client):
    t = six_teams
    fx = first_fixture(t)
    client.force_login(captain(fx.home, "cap"))
    pairs = services.roster(fx.home)
    data = {"team": fx.home.pk} | {f"t{fx.home.pk}-table_{i}": pairs[i - 1].pk for i in range(1, 4)}
    response = client.post(reverse("team-fixture", args=[t.slug, fx.pk]), data)
    assert response.status_code == 302
    assert fx.lineups.get().pairs == [p.pk for p in pairs[:3]]


def test_the_director_enters_a_team_and_makes_the_fixtures_through_the_desk(client, director):
    t = Tournament.objects.create(name="新联赛", slug="new-league")
    client.force_login(director)
    url = reverse("desk-teams", args=[t.slug])
    assert client.post(url, {"action": "settings", "kind": "league", "tables": 2, "scoring": "table_points",
                             "blitz_per_table": 6}).status_code == 302  # fmt: skip
    for name in ("甲队", "乙队"):
        r = client.post(
            url,
            {
                "action": "team",
                "name": name,
                "zone": "北区",
                "pairs": f"{name}1 / {name}2\n{name}3 / {name}4",
            },
        )
        assert r.status_code == 302
    assert client.post(url, {"action": "schedule", "days_apart": 7}).status_code == 302
    assert TeamMatch.objects.filter(round__tournament=t).count() == 2
    assert "甲队" in client.get(reverse("team-tables", args=[t.slug])).content.decode()


def test_the_public_team_table_changes_once_a_table_finishes(six_teams, client, director):
    t = six_teams
    fx = first_fixture(t)
    url = reverse("team-tables", args=[t.slug])
    before = client.get(url).content
    hand_in_both(fx, director)
    play(fx, 3)
    assert client.get(url).content != before
