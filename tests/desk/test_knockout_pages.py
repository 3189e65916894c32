"""The knockout on the pages: the bracket at the desk and on its public page (the public switches honoured), a
level match decided from the round's page, the placings on the standings page and in the workbook, and the
setup form's knockout settings."""

from __future__ import annotations

import io

import openpyxl
import pytest
from django.urls import reverse

from tests.desk.helpers import en, finish, settings_data
from tournaments.checkin.forfeits import publish_round
from tournaments.models import Round, Tournament
from tournaments.pairing.services import pair_round


@pytest.fixture
def cup(db, make_pair):
    t = Tournament.objects.create(name="淘汰赛", slug="cup", format=Tournament.Format.KNOCKOUT)
    for k in range(4):
        make_pair(f"队{k + 1}", t=t)
    return t


def play_semis(t: Tournament, level_table: int | None = None) -> Round:
    rnd = pair_round(t)
    publish_round(rnd)
    for m in rnd.matches.order_by("table"):
        finish(m, None if m.table == level_table else m.pair_ns, "A" if m.table != level_table else "5", "5")
    return rnd


@pytest.fixture
def desk_client(client, director):
    client.force_login(director)
    return en(client)


@pytest.mark.django_db
def test_the_desk_shows_the_bracket_and_a_level_match_is_decided_on_the_rounds_page(cup, desk_client):
    rnd = play_semis(cup, level_table=2)
    level = rnd.matches.get(table=2)
    page = desk_client.get(reverse("desk", args=[cup.slug])).content.decode()
    assert 'data-testid="bracket"' in page and "Semi-finals" in page
    assert "Table 2 of round 1 ended level: decide who goes through on the round&#x27;s page." in page
    url = reverse("desk-round", args=[cup.slug, 1])
    page = desk_client.get(url).content.decode()
    assert 'data-testid="level-matches"' in page and "Edit the tables" not in page
    decide = reverse("desk-decide-tie", args=[cup.slug, 1, level.pk])
    refused = desk_client.post(decide, {"pair": level.pair_ew_id, "reason": ""}, follow=True)
    assert "Choose the pair that goes through and say why." in refused.content.decode()
    desk_client.post(decide, {"pair": level.pair_ew_id, "reason": "more deals won"})
    level.refresh_from_db()
    assert level.tie_winner_id == level.pair_ew_id and level.tie_reason == "more deals won"
    page = desk_client.get(reverse("desk", args=[cup.slug])).content.decode()
    assert "Pair round 2" in page and "Level: decided by the director (more deals won)." in page


@pytest.mark.django_db
def test_a_level_match_won_at_the_time_limit_says_how_it_ended_beside_its_equal_levels(cup, desk_client):
    rnd = pair_round(cup)
    publish_round(rnd)
    first, second = rnd.matches.order_by("table")
    finish(first, first.pair_ew, "T", "T", ended_by="time")  # the JJ rules: level 10 at time, the bank wins
    finish(second, second.pair_ns, "A", "5")
    page = desk_client.get(reverse("bracket", args=[cup.slug])).content.decode()
    assert page.count("Level: the match ended by time limit.") == 1  # the level one only


@pytest.mark.django_db
def test_a_draft_bracket_is_reviewed_by_swapping_seeds(cup, desk_client):
    pair_round(cup)
    page = desk_client.get(reverse("desk-round", args=[cup.slug, 1])).content.decode()
    assert "Swap two seeds" in page and "Edit the tables" not in page
    assert 'data-testid="bracket"' in page


@pytest.mark.django_db
def test_the_bracket_page_honours_the_public_switches(cup, client):
    url = reverse("bracket", args=[cup.slug])
    en(client)
    assert "The knockout is not paired yet." in client.get(url).content.decode()
    rnd = play_semis(cup)
    final = pair_round(cup)
    publish_round(final)
    finish(final.matches.get(), final.matches.get().pair_ns, "A", "3")
    page = client.get(url).content.decode()
    assert 'class="bracket-line won"' in page and "Final placings" in page
    assert 'data-testid="bracket-link"' in client.get(reverse("tournament", args=[cup.slug])).content.decode()
    cup.refresh_from_db()
    cup.public_results = False
    cup.save()  # as the desk's settings page saves it: the public pages' cache renews
    page = client.get(url).content.decode()
    assert 'class="bracket-line won"' not in page
    assert "Final placings" not in page and rnd.matches.first().pair_ns.name in page
    cup.refresh_from_db()
    cup.public_pairings = False
    cup.save()  # as the desk's settings page saves it: the public pages' cache renews
    assert client.get(url).status_code == 404


@pytest.mark.django_db
def test_a_tournament_without_a_bracket_has_no_bracket_page(tournament, client):
    assert client.get(reverse("bracket", args=[tournament.slug])).status_code == 404


@pytest.mark.django_db
def test_the_standings_and_the_workbook_give_the_final_placings(cup, desk_client):
    play_semis(cup)
    final = pair_round(cup)
    publish_round(final)
    match = final.matches.get()
    finish(match, match.pair_ew, "3", "A")
    page = desk_client.get(reverse("standings", args=[cup.slug])).content.decode()
    assert 'data-testid="placings"' in page
    wb = openpyxl.load_workbook(io.BytesIO(desk_client.get(reverse("desk-export", args=[cup.slug])).content))
    rows = list(wb["Bracket"].values)
    assert (
        rows[0][:3] == ("round", "stage", "table")
        and rows[-1][1] == "Final"
        and rows[-1][7] == match.pair_ew.name
    )
    places = list(wb["Final placings"].values)
    assert places[1][:2] == ("1", match.pair_ew.name) and [r[0] for r in places[1:]] == [
        "1",
        "2",
        "3–4",
        "3–4",
    ]


@pytest.mark.django_db
def test_the_setup_form_offers_a_knockout_stage_and_refuses_one_that_cannot_be(desk_client):
    new = reverse("tournament-new")
    page = desk_client.get(new).content.decode()
    assert 'name="knockout_size"' in page and 'name="third_place_match"' in page
    data = settings_data(name="Cup", format="knockout", knockout_size="8")
    response = desk_client.post(new, data)
    assert "A knockout stage follows a Swiss or a round robin only." in response.content.decode()
    desk_client.post(new, settings_data(name="League", format="swiss", num_rounds="5", knockout_size="8"))
    t = Tournament.objects.get(name="League")
    assert (t.knockout_size, t.bracket_start, t.rounds_planned) == (8, 6, 8)


@pytest.mark.django_db
def test_the_workbooks_first_sheet_is_the_final_placings_once_the_final_is_played(cup, desk_client):
    play_semis(cup)
    final = pair_round(cup)
    publish_round(final)
    match = final.matches.get()
    finish(match, match.pair_ew, "3", "A")
    wb = openpyxl.load_workbook(io.BytesIO(desk_client.get(reverse("desk-export", args=[cup.slug])).content))
    assert wb.sheetnames[0] == "Final placings"
    assert list(wb.worksheets[0].values)[1][:2] == ("1", match.pair_ew.name)


@pytest.mark.django_db(transaction=True)
def test_a_level_match_decided_in_chinese_pairs_and_publishes_the_final_and_the_desk_shows_it(
    cup, client, director
):
    """The director's phone journey once walked in the browser, in Chinese: the desk names the level table, the
    round's page decides it, the final and the third-place match pair and publish themselves (on the decision's
    commit, which the view reads: a transactional test, as the live server's was), and the desk's bracket shows
    them."""
    Tournament.objects.filter(pk=cup.pk).update(third_place_match=True)
    rnd = play_semis(cup, level_table=2)
    level = rnd.matches.get(table=2)
    client.force_login(director)
    client.cookies["django_language"] = "zh-hans"
    desk = reverse("desk", args=[cup.slug])
    assert "第1轮第2桌打平：请在该轮页面裁定哪一对搭档晋级。" in client.get(desk).content.decode()
    assert (
        'data-testid="level-matches"'
        in client.get(reverse("desk-round", args=[cup.slug, 1])).content.decode()
    )
    decide = reverse("desk-decide-tie", args=[cup.slug, 1, level.pk])
    answer = client.post(decide, {"pair": level.pair_ns_id, "reason": "庄家局数多"}, follow=True)
    said = answer.content.decode()
    assert "第2桌已裁定。" in said and "第2轮已按胜者自动编排并发布。" in said
    page = client.get(desk).content.decode()
    assert 'data-testid="bracket"' in page and "三四名决赛" in page
