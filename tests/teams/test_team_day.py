"""The team match day: the hall's table numbers wherever a table is named, the line-ups' deadline set by the
director on the match day (and what a captain reads after it), levels written as ranks."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.teams.scene import captain, hand_in_both, league, play
from tournaments.models import Match, TeamMatch, Tournament
from tournaments.teams import services

pytestmark = pytest.mark.django_db


def fixture(t, number: int = 1) -> TeamMatch:
    return TeamMatch.objects.select_related("home", "away", "round").get(
        round__tournament=t, round__number=1, number=number
    )


def test_the_fixture_page_names_the_halls_table_numbers_as_the_match_pages_do(client, director):
    t = league()
    second = fixture(t, 2)
    hand_in_both(second, director)
    page = client.get(reverse("team-fixture", args=[t.slug, second.pk])).content.decode()
    body = page.split('data-testid="team-tables"')[1].split("</table>")[0]
    assert [tt.match.table for tt in second.tables.select_related("match")] == [4, 5, 6]
    assert "<td>4</td>" in body and "<td>6</td>" in body and "<td>1</td>" not in body


def test_the_line_up_form_labels_each_table_with_the_halls_number(client):
    t = league()
    second = fixture(t, 2)
    client.force_login(captain(second.home, "cap"))
    client.cookies["django_language"] = "en"
    page = client.get(reverse("team-fixture", args=[t.slug, second.pk]))
    text = page.content.decode()
    assert "Table 4" in text and "Table 6" in text and "Table 1<" not in text


def test_level_ten_is_written_as_a_rank_on_the_fixture_page(client, director):
    t = league()
    fx = fixture(t)
    hand_in_both(fx, director)
    Match.objects.filter(team_table__team_match=fx).update(level_ns="T", level_ew="6")
    page = client.get(reverse("team-fixture", args=[t.slug, fx.pk])).content.decode()
    assert "10 : 6" in page and "T : 6" not in page


def test_line_ups_fall_due_when_the_match_days_first_deal_starts(director):
    t = league()
    fx = fixture(t)
    due = timezone.localtime(fx.lineup_deadline)
    assert due.date() == fx.date and due.time() == t.team_event.first_deal_at


def test_the_directors_time_for_the_line_ups_moves_every_open_fixtures_deadline(director):
    t = league()
    services.save_team_event(t, lineups_due_at=dt.time(18, 30))
    fx = fixture(t)
    assert timezone.localtime(fx.lineup_deadline).time() == dt.time(18, 30)


def test_the_director_sets_one_fixtures_deadline_at_the_fixture_page(client, director):
    t = league()
    fx = fixture(t)
    client.force_login(director)
    client.post(reverse("desk-deadline", args=[t.slug, fx.pk]), {"at": "20:15"})
    fx.refresh_from_db()
    assert timezone.localtime(fx.lineup_deadline).time() == dt.time(20, 15)
    assert timezone.localtime(fx.lineup_deadline).date() == fx.date


def test_a_captain_hands_in_on_the_match_day_before_the_deadline(client):
    t = league()
    fx = fixture(t)
    TeamMatch.objects.filter(pk=fx.pk).update(
        date=timezone.localdate(), lineup_deadline=timezone.now() + dt.timedelta(hours=1)
    )
    client.force_login(captain(fx.home, "cap"))
    page = client.get(reverse("team-fixture", args=[t.slug, fx.pk])).content.decode()
    assert 'data-testid="lineup-form"' in page


def test_after_the_deadline_the_captain_reads_that_it_passed_and_who_can_still_hand_in(client):
    t = league()
    fx = fixture(t)
    TeamMatch.objects.filter(pk=fx.pk).update(lineup_deadline=timezone.now() - dt.timedelta(minutes=1))
    client.force_login(captain(fx.home, "cap"))
    page = client.get(reverse("team-fixture", args=[t.slug, fx.pk])).content.decode()
    assert 'data-testid="lineup-form"' not in page and 'data-testid="lineup-late"' in page
    assert "只有裁判长还能提交" in page


def test_the_captains_page_names_the_line_up_once(client):
    t = league()
    fx = fixture(t)
    cap = captain(fx.home, "cap")
    services.hand_in_lineup(fx, fx.home, [p.pk for p in services.roster(fx.home)[:3]], cap)
    client.force_login(cap)
    client.cookies["django_language"] = "en"
    page = client.get(reverse("team-fixture", args=[t.slug, fx.pk]))
    assert page.content.decode().count(f"Line-up of {fx.home.name}") == 1


def test_the_team_desk_makes_the_captains_account_where_the_captain_is_named(client, director):
    t = league()
    team = t.teams.first()
    client.force_login(director)
    url = reverse("desk-team-captain", args=[t.slug, team.pk])
    page = client.post(url, {"username": "cap-new", "name": "王队长"}, follow=True).content.decode()
    team.refresh_from_db()
    assert team.captain.username == "cap-new" and team.captain.first_name == "王队长"
    assert "cap-new" in page and "只显示这一次" in page


def test_the_team_desk_links_an_existing_captains_account_without_a_new_password(client, director):
    t = league()
    first, second = t.teams.all()[:2]
    account = captain(first, "cap-old")
    client.force_login(director)
    client.post(reverse("desk-team-captain", args=[t.slug, second.pk]), {"username": "cap-old"})
    second.refresh_from_db()
    account.refresh_from_db()
    assert second.captain == account and account.check_password("captain-pass-1")


def test_the_team_desks_forms_are_styled_with_a_chinese_colon(client, director):
    t = league()
    client.force_login(director)
    page = client.get(reverse("desk-teams", args=[t.slug])).content.decode()
    assert 'class="form stack" data-testid="team-form"' in page and "队名：" in page and "队名:" not in page


def test_a_first_match_day_before_the_tournaments_first_day_is_refused_in_words(client, director):
    t = league(teams=2)
    TeamMatch.objects.filter(round__tournament=t).delete()
    t.start_date = dt.date(2027, 3, 1)
    t.save()
    with pytest.raises(services.TeamError) as refused:
        services.schedule_league(t, dt.date(2027, 2, 1))
    assert "2027-03-01" in refused.value.message
    client.force_login(director)
    page = client.post(
        reverse("desk-teams", args=[t.slug]),
        {"action": "schedule", "first_day": "2027-02-01", "days_apart": 7},
        follow=True,
    ).content.decode()
    assert "早于赛事的第一天" in page and not TeamMatch.objects.exists()


def test_a_hidden_leagues_captain_opens_his_own_fixture_and_no_other(client):
    t = league()
    Tournament.objects.filter(pk=t.pk).update(is_public=False)
    own, other = fixture(t, 1), fixture(t, 2)
    client.force_login(captain(own.home, "cap"))
    assert client.get(reverse("team-fixture", args=[t.slug, own.pk])).status_code == 200
    assert client.get(reverse("team-fixture", args=[t.slug, other.pk])).status_code == 404


def test_the_captains_home_page_shows_his_team_and_its_next_fixture(client, director):
    t = league()
    fx = fixture(t)
    cap = captain(fx.home, "cap")
    hand_in_both(fx, director)
    client.force_login(cap)
    page = client.get(reverse("home")).content.decode()
    assert 'data-testid="my-teams"' in page and fx.home.name in page
    assert reverse("team-fixture", args=[t.slug, fx.pk]) in page  # day 1 is not finished: still the next


def test_two_captains_line_up_three_tables_and_the_zone_table_combines_their_results(client):
    """A 6-team zone's match day as its two captains walk it (this was a browser test; the pages are forms and
    text with no script of their own): the home captain's line-up is in and hidden from the away captain until
    theirs is, the three tables are seated, the tables' results come in and the fixture's page and the zone's
    table show the team result combined from them."""
    t = league(teams=6, tables=3)
    fx = fixture(t)
    home_cap, away_cap = captain(fx.home, "home-cap"), captain(fx.away, "away-cap")
    home_pairs, away_pairs = services.roster(fx.home)[:3], services.roster(fx.away)[1:4]
    url = reverse("team-fixture", args=[t.slug, fx.pk])

    def hand_in(team, pairs) -> str:
        fields = {"team": team.pk} | {f"t{team.pk}-table_{i}": p.pk for i, p in enumerate(pairs, 1)}
        answer = client.post(url, fields, follow=True)
        assert answer.status_code == 200, answer
        return answer.content.decode()

    client.force_login(home_cap)
    page = hand_in(fx.home, home_pairs)
    assert fx.home.name in page.split('data-testid="lineup-status"', 1)[1].split("</", 1)[0]
    assert home_pairs[0].player1.name in page.split('data-testid="lineup"', 1)[1]

    client.force_login(away_cap)
    assert home_pairs[0].player1.name not in client.get(url).content.decode()  # hidden until both are in
    page = hand_in(fx.away, away_pairs)
    rows = page.split('data-testid="team-tables"', 1)[1].split("</tbody>", 1)[0].split("<tr")[2:]
    assert len(rows) == 3 and home_pairs[0].name in rows[0] and away_pairs[1].name in rows[1], rows

    play(fx, home_wins=2)  # the tables' results, as their judges confirm them
    client.force_login(home_cap)
    result = client.get(url).content.decode().split('data-testid="team-result"', 1)[1].split("</", 1)[0]
    assert "4 : 2" in result, result
    zone = client.get(reverse("team-tables", args=[t.slug])).content.decode()
    first = zone.split('data-testid="zone-table"', 1)[1].split("<tbody>", 1)[1].split("</tr>", 1)[0]
    assert fx.home.name in first, first
