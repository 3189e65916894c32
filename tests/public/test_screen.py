"""The projector screen: its panels follow the public switches, the seating is by pair name, the round's
progress is counted, and the director's message round-trips from the desk (with its history)."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.desk.helpers import deal, finish
from tests.table.helpers import as_user
from tournaments.models import Bye, Deal, Match, Round, Tournament
from tournaments.public.screen_data import fill


def screen(client: Client, t: Tournament) -> str:
    response = client.get(reverse("screen", args=[t.slug]))
    assert response.status_code == 200
    return response.content.decode()


def panels(html: str) -> list[str]:
    return re.findall(r'data-testid="panel-(\w+)"', html)


@pytest.mark.django_db
def test_the_screen_cycles_seating_progress_and_standings_and_draws_its_qr_code_on_the_server(match):
    html = screen(Client(), match.round.tournament)
    assert panels(html) == ["seating", "progress", "standings"]
    assert '<svg role="img" aria-label="' in html and "http://testserver/t/spring/" in html
    assert re.findall(
        r"<script[^>]*>", html
    ) == [  # the site's own scripts only: panels, clocks, a live table
        '<script src="/static/js/screen.js">',
        '<script src="/static/js/clock.js" defer>',
        '<script src="/static/js/live.js" defer>',
    ]
    assert 'http-equiv="refresh"' in html.split("<noscript>")[1].split("</noscript>")[0]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("switch", "gone"),
    [("public_pairings", {"seating", "progress"}), ("public_standings", {"standings"}), (None, set())],
)
def test_each_panel_follows_its_public_switch_for_visitors_but_not_for_the_director(
    match, director, switch, gone
):
    t = match.round.tournament
    if switch:
        setattr(t, switch, False)
        t.save()
    assert set(panels(screen(Client(), t))) == {"seating", "progress", "standings"} - gone
    assert set(panels(screen(as_user(director), t))) == {"seating", "progress", "standings"}


@pytest.mark.django_db
def test_a_hidden_tournaments_screen_and_its_panels_are_not_found_but_for_the_director(match, director):
    t = match.round.tournament
    t.is_public = False
    t.save()
    for name in ("screen", "screen-panels"):
        assert Client().get(reverse(name, args=[t.slug])).status_code == 404
        assert as_user(director).get(reverse(name, args=[t.slug])).status_code == 200


@pytest.mark.django_db
def test_results_on_the_progress_panel_follow_the_public_results_switch(match):
    t = match.round.tournament
    finish(match, winner=match.pair_ns, level_ns="A", level_ew="5")
    assert 'class="recent"' in screen(Client(), t)
    t.public_results = False
    t.save()
    assert 'class="recent"' not in screen(Client(), t)


@pytest.mark.django_db
def test_the_seating_lists_every_pair_by_its_names_pinyin_with_table_side_and_opponents(
    tournament, make_pair
):
    zhang, an, li, bye = make_pair("张队"), make_pair("安队"), make_pair("李队"), make_pair("白队")
    rnd = Round.objects.create(tournament=tournament, number=1, state=Round.State.PUBLISHED)
    Match.objects.create(round=rnd, table=2, pair_ns=zhang, pair_ew=an)
    Bye.objects.create(round=rnd, pair=bye)
    Round.objects.create(tournament=tournament, number=2, state=Round.State.DRAFT)  # a draft is not shown
    Match.objects.create(round=rnd.tournament.rounds.get(number=2), table=1, pair_ns=zhang, pair_ew=li)
    html = screen(Client(), tournament)
    assert re.findall(r'class="seat-row" data-pair="([^"]+)" data-table="(\d*)"', html) == [
        ("安队", "2"),
        ("白队", ""),
        ("张队", "2"),
    ]
    assert "第1轮" in html and "第2轮" not in html and "对 张队" in html and "东西" in html


@pytest.mark.django_db
def test_the_progress_panel_counts_finished_tables_and_deals_waiting_for_confirmation(round1, make_pair):
    a, b, c, d = (make_pair() for _ in range(4))
    playing = Match.objects.create(round=round1, table=1, pair_ns=a, pair_ew=b, state=Match.State.IN_PROGRESS)
    finish(Match.objects.create(round=round1, table=2, pair_ns=c, pair_ew=d), winner=c)
    deal(playing, 1, "N", 30, "banker_holds", state=Deal.State.SUBMITTED)
    html = screen(Client(), round1.tournament)
    assert re.search(r'data-testid="tables-finished">1 / 2<', html)
    assert re.search(r'data-testid="deals-waiting">1<', html)


def message_url(t: Tournament) -> str:
    return reverse("desk-screen-message", args=[t.slug])


@pytest.mark.django_db
@pytest.mark.parametrize(("who", "status"), [("anonymous", 302), ("judge", 403), ("director", 302)])
def test_only_the_director_sets_the_screens_message_and_the_screen_shows_it(
    tournament, director, judge, who, status
):
    user = {"anonymous": None, "judge": judge, "director": director}[who]
    response = as_user(user).post(message_url(tournament), {"screen_message": "14:00 颁奖 <b>"})
    assert response.status_code == status
    tournament.refresh_from_db()
    if who == "director":
        assert tournament.screen_message == "14:00 颁奖 <b>"
        assert tournament.history.first().history_user == director
        html = Client().get(reverse("screen-panels", args=[tournament.slug])).content.decode()
        assert "14:00 颁奖 &lt;b&gt;" in html
    else:
        assert tournament.screen_message == ""


@pytest.mark.django_db
@pytest.mark.parametrize("text", ["a\x00b", "长" * 301])
def test_a_message_with_a_nul_character_or_too_long_is_refused_and_nothing_changes(
    tournament, director, text
):
    client = as_user(director)
    client.cookies["django_language"] = "en"
    response = client.post(message_url(tournament), {"screen_message": text})
    assert response.status_code == 200 and 'class="errorlist' in response.content.decode()
    tournament.refresh_from_db()
    assert tournament.screen_message == ""


@pytest.mark.django_db
def test_the_message_may_change_once_the_tournament_is_finished_and_clears_when_empty(tournament, director):
    Tournament.objects.filter(pk=tournament.pk).update(finished_at="2026-01-01T00:00Z")
    client = as_user(director)
    client.post(message_url(tournament), {"screen_message": "颁奖 17:00"})
    assert Tournament.objects.get(pk=tournament.pk).screen_message == "颁奖 17:00"
    client.post(message_url(tournament), {"screen_message": ""})
    assert Tournament.objects.get(pk=tournament.pk).screen_message == ""


@pytest.mark.django_db
def test_the_desk_links_to_the_message_form_which_opens_the_screen(tournament, director):
    client = as_user(director)
    assert message_url(tournament) in client.get(reverse("desk", args=[tournament.slug])).content.decode()
    page = client.get(message_url(tournament)).content.decode()
    assert reverse("screen", args=[tournament.slug]) in page and "保存消息" in page


@pytest.mark.parametrize(
    ("rows", "room", "step"),
    [(24, 12, 100), (12, 12, 100), (8, 12, 150), (9, 12, 125), (4, 12, 200), (0, 12, 200)],
)
def test_a_short_pages_type_grows_by_the_largest_step_that_still_fits_the_screen(rows, room, step):
    assert fill(rows, room) == step


def test_eight_pairs_sit_in_one_column_in_type_half_again_as_large(round1, make_pair):
    for table in range(1, 5):
        Match.objects.create(round=round1, table=table, pair_ns=make_pair(), pair_ew=make_pair())
    round1.state = Round.State.PUBLISHED
    round1.save()
    html = screen(Client(), round1.tournament)
    assert re.search(r'class="panel panel-seating fill-150[^"]*"', html)
    assert 'class="seat-columns one"' in html and html.count('<ol class="seats">') == 1
