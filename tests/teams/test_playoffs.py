"""The playoffs of a league's zone leaders: the field seeded from the zone tables, the bracket's ties as team
matches, a drawn one decided by the tie-breaks, the next fixture made once a tie is decided, the public bracket
page and who may start the playoffs.

Most tests start from the same played league (two zones of three teams, every league fixture played). It is built
once for the module (``played_league``, by its own director, rolled back at the module's end) and read again by each
test inside its own savepoint, so what one test draws or plays is undone before the next; the tests that need a
league not yet played build their own."""

from __future__ import annotations

import io
from collections.abc import Iterator

import pytest
from django.urls import reverse
from django.utils import translation
from openpyxl import load_workbook

from rules.teams import BY_SCORE, BY_ZONE_ORDER
from tests.databases import module_transaction
from tests.desk.helpers import finish
from tests.teams.scene import captain, hand_in_both, play, play_league, two_zones
from tournaments.adjusted import awarding
from tournaments.competition.accounts import create_director
from tournaments.league.playoffs import (
    advance_playoffs,
    playoff_picture,
    playoffs_of,
    stale_fixtures,
    start_playoffs,
)
from tournaments.league.results import zone_table
from tournaments.models import Team, TeamMatch, Tournament
from tournaments.teams import services
from tournaments.teams.sheets import team_sheets
from tournaments.workbook.export import write_workbook

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def played_league(django_db_setup, django_db_blocker) -> Iterator[int]:
    """``two_zones()`` under another address with every league fixture played (``play_league``) by a director of
    its own: built once per module (``module_transaction``); each test runs in its own savepoint."""
    with module_transaction(django_db_blocker):
        t = two_zones(slug="playoffs-played")
        play_league(t, create_director("league-td", "director-pass-1"))
        yield t.pk


@pytest.fixture
def league_played(played_league) -> Tournament:
    """The module's played league, read again (a test's writes are its own)."""
    return Tournament.objects.get(pk=played_league)


def names(teams) -> list[str]:
    return [Team.objects.get(pk=pk).name if pk else None for pk in teams]


def test_the_playoffs_are_refused_until_every_league_match_has_its_result(director):
    t = two_zones()
    with pytest.raises(services.TeamError) as refused:
        start_playoffs(t, 2, BY_SCORE)
    assert refused.value.status == 409 and playoffs_of(t) is None


def test_the_zone_winners_are_seeded_first_and_zone_mates_meet_only_in_the_final(league_played, director):
    t = league_played
    po = start_playoffs(t, 2, BY_ZONE_ORDER)
    assert names(po.lines) == ["北区1队", "南区2队", "北区2队", "南区1队"]
    first = TeamMatch.objects.filter(round__number=po.start).order_by("number")
    assert [(f.home.name, f.away.name) for f in first] == [("北区1队", "南区2队"), ("南区1队", "北区2队")]
    assert all(f.zone is None and f.venue == f.home.venue for f in first)


def test_three_teams_per_zone_give_the_two_best_zone_winners_a_bye(league_played, director):
    t = league_played  # three teams a zone
    po = start_playoffs(t, 3, BY_ZONE_ORDER)
    assert names(po.lines) == ["北区1队", None, "北区3队", "南区2队", "北区2队", "南区3队", None, "南区1队"]
    assert TeamMatch.objects.filter(round__number=po.start).count() == 2  # the two byes go through


def semi_finals(t, director):
    """The module's played league with its playoffs drawn, both semi-finals' line-ups handed in."""
    po = start_playoffs(t, 2, BY_ZONE_ORDER)
    semis = list(TeamMatch.objects.filter(round__number=po.start).select_related("home", "away", "round"))
    for fx in semis:
        hand_in_both(fx, director)
    return t, po, semis


def test_a_decided_tie_pair_makes_the_next_fixture(
    league_played, director, django_capture_on_commit_callbacks
):
    t, po, semis = semi_finals(league_played, director)
    with django_capture_on_commit_callbacks(execute=True):
        play(semis[0], home_wins=2)
    assert not TeamMatch.objects.filter(round__number=po.start + 1).exists()  # the other semi-final is open
    with django_capture_on_commit_callbacks(execute=True):
        play(semis[1], home_wins=0)  # 北区2队 beats 南区1队 away
    final = TeamMatch.objects.get(round__number=po.start + 1)
    assert (final.home.name, final.away.name) == ("北区1队", "北区2队")
    assert t.rounds.get(number=po.start + 1).state == "published"


def test_a_drawn_playoff_match_with_level_table_points_goes_to_the_better_level_difference(
    league_played, director
):
    t = league_played
    po = start_playoffs(t, 2, BY_ZONE_ORDER)
    fx = TeamMatch.objects.select_related("home", "away", "round").get(round__number=po.start, number=1)
    hand_in_both(fx, director)
    one, two = (tt.match for tt in fx.tables.select_related("match").order_by("number"))
    # table 1: home North–South wins 6 to 3; table 2: the away pair (North–South) wins only A to K
    finish(one, one.pair_ns, "6", "3")
    finish(two, two.pair_ns, "A", "K")
    playoffs = playoffs_of(t)
    assert playoffs.found[fx.pk].winner is None  # two table points each
    assert playoffs.won[0] == {fx.home_id} and playoffs.why[fx.pk] == "level_diff"


def test_a_wholly_drawn_playoff_match_goes_to_the_higher_seed(league_played, director):
    t = league_played
    po = start_playoffs(t, 2, BY_ZONE_ORDER)
    fx = TeamMatch.objects.select_related("home", "away", "round").get(round__number=po.start, number=1)
    hand_in_both(fx, director)
    play(fx, home_wins=1)  # one table each, 6 to 3 both: nothing between them
    playoffs = playoffs_of(t)
    assert playoffs.won[0] == {fx.home_id} and playoffs.why[fx.pk] == "seed"
    assert po.seeds[fx.home_id] == 1


def test_the_playoffs_drawn_again_replace_the_first_draw(league_played, director):
    t = league_played
    start_playoffs(t, 2, BY_SCORE)
    start_playoffs(t, 2, BY_SCORE)
    assert TeamMatch.objects.filter(round__number=playoffs_of(t).start).count() == 2


def test_a_team_swiss_has_no_playoffs(director):
    t = Tournament.objects.create(name="团体赛", slug="swiss")
    services.save_team_event(t, kind="swiss", tables=2)
    with pytest.raises(services.TeamError):
        start_playoffs(t, 2, BY_SCORE)


# --- pages and permissions ---------------------------------------------------------------------------------


def test_the_director_draws_the_playoffs_at_the_desk_and_the_bracket_page_names_the_teams(
    league_played, client, director
):
    t = league_played
    client.force_login(director)
    response = client.post(
        reverse("desk-teams", args=[t.slug]), {"action": "playoffs", "per_zone": 2, "seeding": BY_SCORE}
    )
    assert response.status_code == 302 and playoffs_of(t) is not None
    client.logout()
    page = client.get(reverse("team-playoffs", args=[t.slug])).content.decode()
    assert "北区1队" in page and "南区2队" in page and 'data-testid="bracket"' in page


def test_the_playoffs_page_says_when_none_are_drawn(client):
    t = two_zones()
    page = client.get(reverse("team-playoffs", args=[t.slug]))
    assert page.status_code == 200 and 'data-testid="no-bracket"' in page.content.decode()


def test_the_playoffs_page_of_a_pairs_tournament_is_404(client, tournament):
    assert client.get(reverse("team-playoffs", args=[tournament.slug])).status_code == 404


@pytest.mark.parametrize("action", ["playoffs", "playoffs-next"])
@pytest.mark.parametrize("who", ["anonymous", "judge", "captain"])
def test_only_the_director_draws_the_playoffs_or_makes_their_fixtures(
    league_played, client, director, judge, who, action
):
    t = league_played
    if action == "playoffs-next":
        po = start_playoffs(t, 2, BY_ZONE_ORDER)
        for fx in TeamMatch.objects.filter(round__number=po.start).select_related("home", "away", "round"):
            hand_in_both(fx, director)
            play(fx, home_wins=2)
    if who == "judge":
        client.force_login(judge)
    elif who == "captain":
        client.force_login(captain(t.teams.first(), "cap"))
    before = TeamMatch.objects.count()
    response = client.post(
        reverse("desk-teams", args=[t.slug]), {"action": action, "per_zone": 2, "seeding": BY_SCORE}
    )
    assert response.status_code == (302 if who == "anonymous" else 403)
    assert TeamMatch.objects.count() == before
    assert (playoffs_of(t) is None) == (action == "playoffs")


def test_a_refused_draw_is_one_sentence_in_chinese(client, director):
    t = two_zones()
    client.force_login(director)
    response = client.post(
        reverse("desk-teams", args=[t.slug]),
        {"action": "playoffs", "per_zone": 2, "seeding": BY_SCORE},
        follow=True,
        headers={"accept-language": "zh-hans"},
    )
    text = response.content.decode()
    assert playoffs_of(t) is None and "请先完成所有联赛比赛，再排季后赛。" in text
    assert "Finish every league match" not in text


def test_a_zoneless_leagues_table_leaves_the_playoffs_out(director):
    t = Tournament.objects.create(name="无区联赛", slug="no-zones", ruleset={"preset": "standard"})
    services.save_team_event(t, tables=2)
    for i in range(1, 4):
        services.add_team(t, services.TeamEntry(f"{i}号队", [(f"{i}甲{j}", f"{i}乙{j}") for j in range(2)]))
    services.schedule_league(t)
    for fx in TeamMatch.objects.filter(round__tournament=t).select_related("home", "away", "round"):
        hand_in_both(fx, director)
        play(fx, home_wins=2 if fx.home.name < fx.away.name else 0)
    before = [(s.team.name, s.score, s.played) for s in zone_table(t, None)]
    po = start_playoffs(t, 2, BY_SCORE)
    final = TeamMatch.objects.select_related("home", "away", "round").get(round__number=po.start)
    hand_in_both(final, director)
    play(final, home_wins=2)
    assert [(s.team.name, s.score, s.played) for s in zone_table(t, None)] == before


def test_the_overview_links_the_playoffs_once_drawn(league_played, client, director):
    t = league_played
    overview = reverse("tournament", args=[t.slug])
    assert 'data-testid="playoffs-link"' not in client.get(overview).content.decode()  # played, not drawn
    start_playoffs(t, 2, BY_SCORE)
    assert 'data-testid="playoffs-link"' in client.get(overview).content.decode()


def test_without_public_results_the_bracket_shows_who_plays_but_no_score(league_played, client, director):
    t = league_played
    po = start_playoffs(t, 2, BY_ZONE_ORDER)
    for fx in TeamMatch.objects.filter(round__number=po.start).select_related("home", "away", "round"):
        hand_in_both(fx, director)
        play(fx, home_wins=2 if fx.number == 1 else 0)  # 北区1队 and 北区2队 (away) go through
    advance_playoffs(t)  # as the last table's commit would
    Tournament.objects.filter(pk=t.pk).update(public_results=False)
    page = client.get(reverse("team-playoffs", args=[t.slug])).content.decode()
    final = page.split('aria-label="决赛"')[1].split("</section>")[0]
    assert "北区1队" in final and "北区2队" in final  # the final's fixture is made: its teams are public
    assert "bracket-line won" not in page and 'class="ko-level"' not in page


def test_the_desk_makes_the_playoff_fixtures_now_due(league_played, client, director):
    t = league_played
    po = start_playoffs(t, 2, BY_ZONE_ORDER)
    for fx in TeamMatch.objects.filter(round__number=po.start).select_related("home", "away", "round"):
        hand_in_both(fx, director)
        play(fx, home_wins=2)  # no commit in this test: nothing made by itself
    assert not TeamMatch.objects.filter(round__number=po.start + 1).exists()
    client.force_login(director)
    response = client.post(reverse("desk-teams", args=[t.slug]), {"action": "playoffs-next"}, follow=True)
    assert "1 场季后赛比赛已排出。" in response.content.decode()
    assert TeamMatch.objects.filter(round__number=po.start + 1).count() == 1
    again = client.post(reverse("desk-teams", args=[t.slug]), {"action": "playoffs-next"}, follow=True)
    assert "还没有该排的季后赛比赛：之前的对阵尚未结束。" in again.content.decode()


# --- the third-place match ---------------------------------------------------------------------------------


def semis_played(t, director, django_capture_on_commit_callbacks, third_place: bool):
    """The playoffs of two zones drawn in the zones' order (北区1队 v 南区2队, 南区1队 v 北区2队) and both
    semi-finals played, the last table's commit making what is due: 北区1队 and 北区2队 go through (``t``: the
    module's played league)."""
    po = start_playoffs(t, 2, BY_ZONE_ORDER, third_place=third_place)
    semis = list(
        TeamMatch.objects.filter(round__number=po.start)
        .select_related("home", "away", "round")
        .order_by("number")
    )
    for fx in semis:
        hand_in_both(fx, director)
    with django_capture_on_commit_callbacks(execute=True):
        play(semis[0], home_wins=2)
        play(semis[1], home_wins=0)
    return po, semis


def final_round(po) -> list[TeamMatch]:
    return list(
        TeamMatch.objects.filter(round__number=po.start + 1)
        .select_related("home", "away", "round")
        .order_by("number")
    )


def placings_of(t) -> list[tuple[str, str]]:
    picture = playoff_picture(t, t.team_event, show_results=True)
    return [(place, team.name) for place, team in picture["placings"]]


def test_with_a_third_place_match_the_semi_final_losers_play_for_third_and_the_places_run_one_to_four(
    league_played, director, django_capture_on_commit_callbacks
):
    t = league_played
    po, _semis = semis_played(t, director, django_capture_on_commit_callbacks, third_place=True)
    final, third = final_round(po)
    assert (final.home.name, final.away.name) == ("北区1队", "北区2队")
    assert (third.home.name, third.away.name) == ("南区1队", "南区2队")  # the better seed at home
    assert placings_of(t) == []  # the semi-finals' losers wait for their match, the finalists for theirs
    for fx in (final, third):
        hand_in_both(fx, director)
    play(final, home_wins=2)
    play(third, home_wins=0)  # 南区2队 wins the third place away
    assert playoffs_of(t).third_won == third.away_id
    assert placings_of(t) == [("1", "北区1队"), ("2", "北区2队"), ("3", "南区2队"), ("4", "南区1队")]


def test_without_the_third_place_match_the_final_is_alone_and_the_semi_final_losers_share_third(
    league_played, director, django_capture_on_commit_callbacks
):
    t = league_played
    po, _semis = semis_played(t, director, django_capture_on_commit_callbacks, third_place=False)
    (final,) = final_round(po)
    hand_in_both(final, director)
    play(final, home_wins=2)
    assert placings_of(t) == [("1", "北区1队"), ("2", "北区2队"), ("3–4", "南区1队"), ("3–4", "南区2队")]


def test_the_desks_checkbox_draws_the_playoffs_with_a_third_place_match(league_played, client, director):
    t = league_played
    client.force_login(director)
    form = client.get(reverse("desk-teams", args=[t.slug])).content.decode()
    assert 'name="third_place"' in form and "季军" in form
    client.post(
        reverse("desk-teams", args=[t.slug]),
        {"action": "playoffs", "per_zone": 2, "seeding": BY_SCORE, "third_place": "on"},
    )
    t.team_event.refresh_from_db()
    assert t.team_event.playoff_third_place and playoffs_of(t).third_place


def test_the_playoffs_page_and_the_workbook_show_the_third_place_match(
    league_played, client, director, django_capture_on_commit_callbacks
):
    t = league_played
    po, _semis = semis_played(t, director, django_capture_on_commit_callbacks, third_place=True)
    _final, third = final_round(po)
    hand_in_both(third, director)
    play(third, home_wins=2)  # 南区1队 takes third
    page = client.get(reverse("team-playoffs", args=[t.slug])).content.decode()
    section = page.split("三四名决赛")[1].split("</section>")[0]
    assert "南区1队" in section and "南区2队" in section and "bracket-line won" in section
    out = io.BytesIO()
    with translation.override("en"):
        write_workbook(t, out, extra=team_sheets)
    out.seek(0)
    sheet = load_workbook(out)["Playoffs"]
    row = next(r for r in sheet.iter_rows(values_only=True) if r[1] == "Third-place match")
    assert row[0] == po.start + 1 and row[2] == third.number
    assert (row[4], row[7], row[9]) == ("南区1队", "南区2队", "南区1队")


# --- a tie's result corrected after its next fixture is made ----------------------------------------------


def test_a_corrected_semi_final_re_seats_the_untouched_final_and_third_place_match(
    league_played, director, django_capture_on_commit_callbacks
):
    t = league_played
    po, semis = semis_played(t, director, django_capture_on_commit_callbacks, third_place=True)
    final, third = final_round(po)
    with django_capture_on_commit_callbacks(execute=True):
        play(semis[0], home_wins=0)  # the director corrects the first semi-final: 南区2队 won it
    again = final_round(po)
    assert [fx.pk for fx in again] == [final.pk, third.pk]  # the same fixtures, nothing new
    assert (again[0].home.name, again[0].away.name, again[0].venue) == ("北区2队", "南区2队", "北区2馆")
    assert (again[1].home.name, again[1].away.name) == ("北区1队", "南区1队")
    assert stale_fixtures(t) == []


def test_a_corrected_semi_final_leaves_a_started_final_as_it_is_and_warns_the_director(
    league_played, client, director, django_capture_on_commit_callbacks
):
    t = league_played
    po, semis = semis_played(t, director, django_capture_on_commit_callbacks, third_place=False)
    (final,) = final_round(po)
    hand_in_both(final, director)  # line-ups in, tables seated
    with django_capture_on_commit_callbacks(execute=True):
        play(semis[0], home_wins=0)
    (still,) = final_round(po)
    assert (still.pk, still.home.name, still.away.name) == (final.pk, "北区1队", "北区2队")
    client.force_login(director)
    page = client.get(reverse("desk-teams", args=[t.slug]), headers={"accept-language": "zh-hans"})
    warning = page.content.decode().split('data-testid="playoff-stale">')[1].split("</li>")[0]
    assert warning == (
        f"第{po.start + 1}轮第1场（北区1队 — 北区2队）已经开始，但更正后的成绩应由北区2队与南区2队出场：请在后台手动修正。"
    )
    client.cookies["django_language"] = "en"
    english = client.get(reverse("desk-teams", args=[t.slug]))
    assert "has started, but the corrected results send 北区2队 and 南区2队 there" in english.content.decode()


def test_the_match_fold_itself_makes_the_next_playoff_fixture_when_the_last_table_is_decided(
    league_played, director, django_capture_on_commit_callbacks
):
    """No receiver on a saved match: the fold (here after the director's adjusted result) asks for it."""
    t, po, semis = semi_finals(league_played, director)
    with django_capture_on_commit_callbacks(execute=True):
        play(semis[0], home_wins=2)
    with django_capture_on_commit_callbacks(execute=True):
        for tt in semis[1].tables.select_related("match"):
            away_is_ns = tt.number % 2 == 0
            levels = {"level_ns": "6", "level_ew": "3"} if away_is_ns else {"level_ns": "3", "level_ew": "6"}
            awarding.award(tt.match, director, kind="levels", reason="裁判长判定", **levels)
    final = TeamMatch.objects.get(round__number=po.start + 1)
    assert (final.home.name, final.away.name) == ("北区1队", "北区2队")


def test_the_playoffs_page_and_the_screen_read_in_english(
    league_played, client, director, django_capture_on_commit_callbacks
):
    """The words the browser's playoffs journey (test_team_playoffs, in Chinese) reads, in English: the bracket
    page's title, its semi-finals and final made by itself, the placings' team column, the screen's zone table."""
    t = league_played
    semis_played(t, director, django_capture_on_commit_callbacks, third_place=False)
    client.cookies["django_language"] = "en"
    page = client.get(reverse("team-playoffs", args=[t.slug])).content.decode()
    assert "<h1>季后赛 · Playoffs</h1>" in page  # the tournament's own name, then the page's
    assert "<h3>Semi-finals · " in page and "<h3>Final · " in page
    placings = page.split('data-testid="placings"', 1)[1].split("</thead>", 1)[0]
    assert "<th>team</th>" in placings
    screen = client.get(reverse("screen", args=[t.slug])).content.decode()
    assert 'data-testid="panel-zone"' in screen and "<h2>Zone table 北区</h2>" in screen
