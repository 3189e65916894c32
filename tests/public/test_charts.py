"""The server's SVG pictures: a match's levels deal by deal, the top pairs' rank round by round, and a deal's
replay trick by trick; each read back from the page and checked against the deals and standings stored."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.desk.helpers import play
from tests.public.helpers import attrs, play_deals
from tests.table.helpers import as_user
from tournaments.models import Match, Round
from tournaments.public.charts import LevelStep, levels_chart
from tournaments.standings.compute import compute_standings


def svg_of(html: str, css: str) -> str:
    start = html.index(f'<svg class="chart {css}')
    return html[start : html.index("</svg>", start) + len("</svg>")]


@pytest.mark.django_db
def test_the_match_pages_levels_chart_shows_both_sides_levels_after_each_deal_and_who_held_the_bank(
    match, director
):
    deals = play_deals(match, director, 6)
    match.refresh_from_db()
    html = Client().get(reverse("match", args=[match.pk])).content.decode()
    dots = attrs(svg_of(html, "levels-chart"), "circle", "dot")
    by_deal = {(int(d["data-deal-no"]), d["data-side"]): d for d in dots}
    assert len(dots) == 2 * len(deals) == 12
    for before, after in zip(
        deals, deals[1:], strict=False
    ):  # each deal is played at the level its banker's side reached
        side = "NS" if after.banker in "NS" else "EW"
        assert by_deal[(before.number, side)]["data-level"] == after.level
    last = deals[-1].number
    assert (by_deal[(last, "NS")]["data-level"], by_deal[(last, "EW")]["data-level"]) == (
        match.level_ns,
        match.level_ew,
    )
    for deal in deals:
        side = "NS" if deal.banker in "NS" else "EW"
        assert "bank" in by_deal[(deal.number, side)]["class"].split()
        assert by_deal[(deal.number, side)]["data-banker"] == deal.banker


@pytest.mark.django_db
def test_the_levels_chart_is_left_out_when_results_are_not_public(match, director):
    play_deals(match, director, 2)
    t = match.round.tournament
    t.public_results = False
    t.save()
    assert "levels-chart" not in Client().get(reverse("match", args=[match.pk])).content.decode()
    assert "levels-chart" in as_user(director).get(reverse("match", args=[match.pk])).content.decode()


def test_a_levels_chart_names_the_pairs_in_its_title_escaped_and_labels_every_level():
    svg = levels_chart([LevelStep(1, "N", "3", "2"), LevelStep(2, "E", "3", "2")], "2", "<b>东</b>", "西")
    assert "<title" in svg and "<desc" in svg and "&lt;b&gt;东&lt;/b&gt;" in svg and "<b>" not in svg
    assert [a["data-level"] for a in attrs(svg, "circle", "side-NS")] == ["3", "3"]
    assert {"2", "3"} <= set(re.findall(r'<text class="axis" x="\d+" y="\d+">([^<]+)<', svg))


@pytest.fixture
def two_rounds(tournament, make_pair):
    """R1: A beat B, C drew D; R2: A beat C, B beat D. Ranks: A 1 then 1; B last (4) then 2."""
    a, b, c, d = (make_pair(x) for x in "ABCD")
    r1 = Round.objects.create(tournament=tournament, number=1, state=Round.State.FINISHED)
    r2 = Round.objects.create(tournament=tournament, number=2, state=Round.State.FINISHED)
    play(r1, 1, a, b, a, "5", "2")
    play(r1, 2, c, d, None, "4", "4")
    play(r2, 1, c, a, a, "7", "A")
    play(r2, 2, b, d, b, "6", "3")
    return tournament


@pytest.mark.django_db
def test_the_standings_page_draws_each_top_pairs_rank_after_every_round(two_rounds):
    html = Client().get(reverse("standings", args=[two_rounds.slug])).content.decode()
    dots = attrs(svg_of(html, "rank-chart"), "circle", "dot")
    ranks = {(d["data-pair"], int(d["data-round"])): int(d["data-rank"]) for d in dots}
    assert (ranks[("A", 1)], ranks[("A", 2)]) == (1, 1)
    assert (ranks[("B", 1)], ranks[("B", 2)]) == (4, 2)
    for n in (1, 2):
        assert {line.name: line.rank for line in compute_standings(two_rounds, n)} == {
            pair: rank for (pair, rnd), rank in ranks.items() if rnd == n
        }


@pytest.mark.django_db
def test_the_rank_chart_waits_for_a_second_round(tournament, make_pair):
    a, b = make_pair("A"), make_pair("B")
    play(Round.objects.create(tournament=tournament, number=1, state=Round.State.FINISHED), 1, a, b, a)
    assert "rank-chart" not in Client().get(reverse("standings", args=[tournament.slug])).content.decode()


def replay_url(match, number: int = 1) -> str:
    return reverse("deal-replay", args=[match.round.tournament.slug, match.pk, number])


@pytest.mark.django_db
def test_a_deals_replay_shows_every_trick_with_each_seats_cards_its_winner_and_points(match, director):
    (deal,) = play_deals(match, director, 1)
    html = Client().get(replay_url(match)).content.decode()
    tricks = list(deal.tricks.prefetch_related("plays").order_by("number"))
    summaries = deal.verdict["tricks"]
    sections = attrs(html, "section", "trick")
    assert [int(s["data-trick"]) for s in sections] == list(range(1, len(tricks) + 1))
    assert [s["data-winner"] for s in sections] == [t["winner"] for t in summaries]
    assert [int(s["data-points"]) for s in sections] == [t["points"] for t in summaries]
    first = svg_of(html, "trick-picture")
    assert {a["data-seat"]: a["data-cards"] for a in attrs(first, "text", "seat")} == {
        p.seat: p.cards for p in tricks[0].plays.all()
    }
    assert 'href="#trick-2"' in html and "<script" not in html.split("<main>")[1].split("</main>")[0]


@pytest.mark.django_db
def test_the_replay_is_for_spectators_only_with_a_public_deal_log_and_always_for_the_matchs_officials(
    match, director, judge
):
    play_deals(match, director, 1)
    t = match.round.tournament
    t.public_deal_log = False
    t.save()
    assert Client().get(replay_url(match)).status_code == 404
    assert as_user(judge).get(replay_url(match)).status_code == 200
    assert as_user(director).get(replay_url(match)).status_code == 200
    assert as_user(director).get(replay_url(match, 9)).status_code == 404


@pytest.mark.django_db
def test_the_deal_log_and_the_match_page_link_each_confirmed_deal_to_its_replay(match, director):
    play_deals(match, director, 2)
    log = Client().get(reverse("deal-log", args=[match.round.tournament.slug, match.pk])).content.decode()
    page = Client().get(reverse("match", args=[match.pk])).content.decode()
    for number in (1, 2):
        assert replay_url(match, number) in log and replay_url(match, number) in page


@pytest.mark.django_db
@pytest.mark.parametrize(("match_id", "number"), [(2**70, 1), (None, 2**70), (None, 0)])
def test_a_replay_address_no_deal_holds_is_not_found(match, match_id, number):
    url = reverse("deal-replay", args=[match.round.tournament.slug, match_id or match.pk, number])
    assert Client().get(url).status_code == 404


@pytest.mark.django_db
def test_the_rank_chart_is_drawn_again_when_a_result_or_a_pairs_name_changes(two_rounds):
    url = reverse("standings", args=[two_rounds.slug])

    def ranks() -> dict:
        dots = attrs(svg_of(Client().get(url).content.decode(), "rank-chart"), "circle", "dot")
        return {(d["data-pair"], int(d["data-round"])): int(d["data-rank"]) for d in dots}

    assert ranks()[("B", 2)] == 2
    b = two_rounds.pairs.get(name="B")
    drawn = Match.objects.get(round__number=2, pair_ns=b)
    drawn.winner = (
        None  # B drew round 2 after all (saved as the desk saves it: the public pages' cache renews)
    )
    drawn.save()
    assert ranks()[("B", 2)] == 3
    b.name = "乙"
    b.save()
    assert ("乙", 2) in ranks()


@pytest.mark.django_db
def test_the_english_replay_names_north_and_south_in_full(match, director):
    for player, name in ((match.pair_ns.player1, "王建国"), (match.pair_ns.player2, "李秀英")):
        player.name = name  # "North · 王建国": eleven characters, one past what a side's margin holds
        player.save()
    play_deals(match, director, 1)
    client = Client()
    client.cookies["django_language"] = "en"
    first = svg_of(client.get(replay_url(match)).content.decode(), "trick-picture")
    labels = re.findall(
        r'class="seat-name">([^<]*)</tspan>', first
    )  # as drawn, not the picture's description
    for seat, word in (("N", "North"), ("S", "South")):
        assert any(label.startswith(f"{word} · {match.seat_players()[seat]}") for label in labels), labels
