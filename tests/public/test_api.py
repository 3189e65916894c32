"""The public JSON API (/api/v1/): its answers are the public pages' figures, under the same switches, cached
with the pages' ETags, rate limited, and described route by route by a valid OpenAPI 3.1 document."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import URLPattern, get_resolver, reverse
from lxml import html as lxml_html
from openapi_spec_validator import validate

from referee import middleware
from tests.desk.helpers import deal, finish, play
from tests.desk.test_knockout_pages import cup, play_semis  # noqa: F401 - the knockout fixture
from tournaments.api import urls as api_urls
from tournaments.api.openapi import document
from tournaments.competition.throttle import Throttle
from tournaments.models import Bye, Deal, Match, Round


@pytest.fixture
def played(tournament, make_pair):
    """Round 1 finished (A beat B with confirmed deals, C drew D); round 2 published (C beat A, B and D still at
    the table); round 3 a draft; E had a bye in round 2."""
    a, b, c, d, e = (make_pair(x) for x in "ABCDE")
    r1 = Round.objects.create(tournament=tournament, number=1, state=Round.State.FINISHED)
    r2 = Round.objects.create(tournament=tournament, number=2, state=Round.State.PUBLISHED)
    Round.objects.create(tournament=tournament, number=3, state=Round.State.DRAFT)
    ab = play(r1, 1, a, b, a, "5", "2")
    play(r1, 2, c, d, None, "4", "4")
    play(r2, 1, c, a, c, "A", "7")
    Match.objects.create(round=r2, table=2, pair_ns=b, pair_ew=d, state=Match.State.IN_PROGRESS)
    Bye.objects.create(round=r2, pair=e)
    deal(ab, 1, "N", 30, "banker_holds")
    deal(ab, 2, "E", 85, "takeover", kitty=10, multiplier=2)
    deal(ab, 3, "W", 120, "takeover", state=Deal.State.SUBMITTED)  # not confirmed: not in the log
    return tournament, ab


def api(name: str, *args, **query):
    response = Client().get(reverse(name, args=args), query)
    return response


def cells(page: bytes, table_class: str) -> list[list[str]]:
    """The body rows of the page's table with this class, as cell texts."""
    tree = lxml_html.fromstring(page)
    (table,) = tree.xpath(f'//table[contains(concat(" ", @class, " "), " {table_class} ")]')
    return [
        [" ".join(td.text_content().split()) for td in tr.xpath("./td")] for tr in table.xpath("./tbody/tr")
    ]


@pytest.mark.django_db
def test_the_standings_answer_gives_the_standings_pages_ranks_names_and_points(played):
    t, _ab = played
    page = Client().get(reverse("standings", args=[t.slug])).content
    rows = [(int(r[0]), r[1], int(r[-1 - len(t.tie_breaks)])) for r in cells(page, "standings")]
    lines = api("api-standings", t.slug).json()["lines"]
    assert [(x["rank"], x["pair"]["name"], x["match_points"]) for x in lines] == rows
    assert lines[0]["pair"]["name"] == "C" and lines[0]["match_points"] == 3  # a win and a draw


@pytest.mark.django_db
def test_the_standings_after_a_round_match_the_page_after_that_round(played):
    t, _ab = played
    page = Client().get(reverse("standings", args=[t.slug]), {"round": 1}).content
    rows = [(r[1], int(r[-1 - len(t.tie_breaks)])) for r in cells(page, "standings")]
    answer = api("api-standings", t.slug, round=1).json()
    assert answer["up_to_round"] == 1
    assert [(x["pair"]["name"], x["match_points"]) for x in answer["lines"]] == rows


@pytest.mark.django_db
def test_the_results_answer_gives_each_finished_match_as_the_results_page_shows_it(played):
    t, _ab = played
    page = Client().get(reverse("results", args=[t.slug]), {"round": 1}).content
    shown = {(int(r[1]), r[2], r[3]) for r in cells(page, "results")}
    answer = api("api-results", t.slug, round=1).json()["matches"]
    assert {(m["table"], m["ns"]["name"], m["ew"]["name"]) for m in answer} == shown
    by_table = {m["table"]: m["result"] for m in answer}
    assert by_table[1]["winner"]["name"] == "A" and (by_table[1]["level_ns"], by_table[1]["level_ew"]) == (
        "5",
        "2",
    )
    assert by_table[2]["winner"] is None and by_table[2]["draw"] is True
    everything = api("api-results", t.slug).json()["matches"]
    assert sorted((m["round"], m["table"]) for m in everything) == [(1, 1), (1, 2), (2, 1)]


@pytest.mark.django_db
def test_a_round_answer_lists_its_tables_states_and_byes_and_a_draft_round_is_not_found(played):
    t, _ab = played
    answer = api("api-round", t.slug, 2).json()
    assert [(m["table"], m["state"]) for m in answer["matches"]] == [(1, "finished"), (2, "in_progress")]
    assert [b["name"] for b in answer["byes"]] == ["E"]
    assert [r["number"] for r in api("api-rounds", t.slug).json()["rounds"]] == [1, 2]
    assert api("api-round", t.slug, 3).status_code == 404  # the draft is the director's alone


@pytest.mark.django_db
def test_a_match_answer_lists_its_confirmed_deals_as_the_deal_log_does(played):
    t, ab = played
    answer = api("api-match", t.slug, ab.pk).json()
    assert [(d["number"], d["banker"], d["attackers_points"]) for d in answer["deals"]] == [
        (1, "N", 30),
        (2, "E", 85),
    ]
    assert answer["deals"][1]["kitty_bonus"] == 20 and answer["deals"][1]["banker_pair"]["name"] == "B"
    assert answer["match"]["result"]["winner"]["name"] == "A"


@pytest.mark.django_db
def test_the_tournament_answer_lists_its_pairs_and_what_is_public(played):
    t, _ab = played
    answer = api("api-tournament", t.slug).json()
    assert answer["name"] == t.name and [p["name"] for p in answer["pairs"]] == list("ABCDE")
    assert answer["public"] == {"standings": True, "pairings": True, "results": True, "deal_log": True}
    assert [r["number"] for r in answer["rounds"]] == [1, 2]
    assert [x["slug"] for x in api("api-tournaments").json()["tournaments"]] == [t.slug]


@pytest.mark.django_db
def test_a_hidden_tournament_is_not_listed_and_every_answer_of_it_is_a_json_404(played, director):
    t, ab = played
    t.is_public = False
    t.save()
    assert api("api-tournaments").json()["tournaments"] == []
    names = [("api-tournament",), ("api-rounds",), ("api-round", 1), ("api-standings",), ("api-results",),
             ("api-match", ab.pk)]  # fmt: skip
    client = Client()
    client.force_login(director)  # the director's session changes nothing: the API is the public's
    for name, *rest in names:
        response = client.get(reverse(name, args=[t.slug, *rest]))
        assert response.status_code == 404 and response.json()["error"] == "not_found", name
    assert api("api-standings", "no-such-event").status_code == 404


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("switch", "names"),
    [
        ("public_standings", ["api-standings"]),
        ("public_pairings", ["api-rounds", "api-round"]),
        ("public_results", ["api-results"]),
        ("public_deal_log", ["api-match"]),
    ],
)
def test_each_public_switch_turned_off_hides_its_answers(played, switch, names):
    t, ab = played
    setattr(t, switch, False)
    t.save()
    args = {"api-round": [1], "api-match": [ab.pk]}
    for name in names:
        assert Client().get(reverse(name, args=[t.slug, *args.get(name, [])])).status_code == 404, name
    answer = api("api-tournament", t.slug).json()
    assert answer["public"][switch.removeprefix("public_")] is False


@pytest.mark.django_db
def test_results_hidden_leave_the_rounds_tables_without_their_results(played):
    t, _ab = played
    t.public_results = False
    t.save()
    matches = api("api-round", t.slug, 1).json()["matches"]
    assert matches and all("result" not in m for m in matches)


@pytest.mark.django_db
def test_an_unchanged_answer_is_a_304_and_a_recorded_result_changes_its_etag(played):
    t, _ab = played
    first = api("api-standings", t.slug)
    etag = first["ETag"]
    again = Client().get(reverse("api-standings", args=[t.slug]), headers={"If-None-Match": etag})
    assert again.status_code == 304 and again["ETag"] == etag
    waiting = Match.objects.get(round__number=2, table=2)
    finish(waiting, waiting.pair_ns, "6", "3")
    fresh = Client().get(reverse("api-standings", args=[t.slug]), headers={"If-None-Match": etag})
    assert fresh.status_code == 200 and fresh["ETag"] != etag
    b = next(x for x in fresh.json()["lines"] if x["pair"]["name"] == "B")
    assert b["wins"] == 1


@pytest.mark.django_db
def test_a_bad_round_number_is_a_400_in_words(played):
    t, _ab = played
    response = Client().get(reverse("api-standings", args=[t.slug]), {"round": "x" * 3000})
    assert response.status_code == 400 and response.json()["message"]


@pytest.mark.django_db
def test_the_bracket_answer_gives_the_bracket_pages_ties_and_winners(cup):  # noqa: F811
    play_semis(cup)
    answer = api("api-bracket", cup.slug).json()
    semis = answer["columns"][0]
    page = Client().get(reverse("bracket", args=[cup.slug])).content.decode()
    for tie in semis["ties"]:
        for entry in tie["entries"]:
            assert entry["pair"]["name"] in page
    winners = {e["pair"]["name"] for t in semis["ties"] for e in t["entries"] if e["went_through"]}
    assert len(winners) == 2 and [c["round"] for c in answer["columns"]] == [1, 2]
    assert api("api-bracket", "spring").status_code == 404  # no such tournament


@pytest.mark.django_db
def test_more_requests_than_the_limit_from_one_address_get_a_429_with_retry_after(played, monkeypatch):
    t, _ab = played
    monkeypatch.setattr(middleware, "API", Throttle("api-test", limit=3, seconds=60))
    client = Client()
    codes = [client.get(reverse("api-tournament", args=[t.slug])).status_code for _ in range(4)]
    assert codes == [200, 200, 200, 429]
    refused = client.get(reverse("api-tournaments"))
    assert refused.status_code == 429 and refused["Retry-After"] == "60" and refused.json()["message"]
    assert client.get(reverse("standings", args=[t.slug])).status_code == 200  # the pages are not counted


def test_the_openapi_document_is_valid_and_describes_every_route_of_the_api():
    spec = document()
    validate(spec)
    routes = {
        "/"
        + str(p.pattern)
        .replace("<slug:slug>", "{slug}")
        .replace("<int:number>", "{number}")
        .replace("<int:match_id>", "{match_id}")
        for p in api_urls.urlpatterns
        if isinstance(p, URLPattern)
    }
    assert routes == set(spec["paths"])
    assert get_resolver().resolve("/api/v1/openapi.json").url_name == "api-openapi"


@pytest.mark.django_db
def test_the_openapi_document_is_served_as_json():
    response = Client().get("/api/v1/openapi.json")
    assert response.status_code == 200 and response.json()["openapi"] == "3.1.0"
