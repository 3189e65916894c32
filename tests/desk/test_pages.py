"""Desk and public pages: permissions, public switches (404 when off), the desk's round flow, import, CSRF."""

from __future__ import annotations

import html
import re

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from tests.desk.helpers import deal, en, finish
from tournaments.checkin.forfeits import publish_round
from tournaments.models import Pair, Round, Tournament
from tournaments.pairing.services import PairingError, pair_round, set_bye_points
from tournaments.standings.compute import compute_standings


@pytest.fixture
def played(tournament, make_pair):
    """Four pairs, round 1 published and finished, one confirmed deal."""
    pairs = [make_pair() for _ in range(4)]
    rnd = pair_round(tournament)
    publish_round(rnd)
    for m in rnd.matches.all():
        finish(m, m.pair_ns, "6", "3")
    m = rnd.matches.get(table=1)
    deal(m, 1, "N", 40, "banker_holds", trump="H")
    return tournament, pairs, m


def round_form(tables: list, byes: list | None = None) -> dict:
    """What a draft round's page posts: a row per table (its two pairs, or None for a row left empty), the byes."""
    data = {"form-TOTAL_FORMS": str(len(tables)), "form-INITIAL_FORMS": str(len(tables)), "byes": byes or []}
    for i, table in enumerate(tables):
        if table is not None:
            data |= {f"form-{i}-pair_ns": table[0].pk, f"form-{i}-pair_ew": table[1].pk}
    return data


def public_urls(t, pairs, m):
    return {
        "public_standings": [reverse("standings", args=[t.slug])],
        "public_pairings": [reverse("round", args=[t.slug, 1])],
        "public_results": [reverse("results", args=[t.slug]), reverse("pair", args=[t.slug, pairs[0].pk])],
        "public_deal_log": [reverse("deal-log", args=[t.slug, m.pk])],
    }


DESK = [
    ("get", "desk", []),
    ("get", "desk-round", [1]),
    ("get", "desk-import", []),
    ("get", "desk-import-template", ["csv"]),
    ("get", "desk-export", []),
    ("post", "desk-pair-round", []),
    ("post", "desk-publish-round", [1]),
    ("post", "desk-unpublish-round", [1]),
    ("post", "desk-bye-points", [1, 1]),
    ("post", "desk-delete-round", [1]),
    ("post", "desk-import-confirm", []),
    ("get", "desk-finish", []),
    ("post", "desk-finish", []),
    ("get", "desk-reopen", []),
    ("post", "desk-reopen", []),
]


@pytest.mark.django_db
def test_public_pages_open_to_everyone(client, played):
    t, pairs, m = played
    for urls in public_urls(t, pairs, m).values():
        for url in urls:
            assert client.get(url).status_code == 200, url


@pytest.mark.django_db
@pytest.mark.parametrize(
    "switch", ["public_standings", "public_pairings", "public_results", "public_deal_log"]
)
def test_each_public_page_hidden_when_switched_off(client, director, played, switch):
    t, pairs, m = played
    setattr(t, switch, False)
    t.save()
    urls = public_urls(t, pairs, m)
    for url in urls[switch]:
        assert client.get(url).status_code == 404, url
    for other, others in urls.items():
        if other != switch:
            assert all(client.get(u).status_code == 200 for u in others)
    client.force_login(director)  # the TD still sees it
    assert all(client.get(u).status_code == 200 for u in urls[switch])


@pytest.mark.django_db
def test_hidden_tournament_is_404_for_the_public(client, played):
    t, pairs, m = played
    t.is_public = False
    t.save()
    for urls in public_urls(t, pairs, m).values():
        for url in urls:
            assert client.get(url).status_code == 404


@pytest.mark.django_db
def test_draft_round_not_public(client, director, tournament, make_pair):
    for _ in range(4):
        make_pair()
    pair_round(tournament)
    url = reverse("round", args=[tournament.slug, 1])
    assert client.get(url).status_code == 404
    client.force_login(director)
    assert client.get(url).status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize(("method", "name", "args"), DESK)
def test_desk_needs_the_director(client, judge, played, method, name, args):
    t, pairs, _m = played
    url = reverse(name, args=[t.slug, *args])
    response = getattr(client, method)(url)
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    captain = get_user_model().objects.create_user(username="captain", password="captain-pass-1")
    Pair.objects.filter(pk=pairs[0].pk).update(captain=captain)
    for user in (judge, captain):
        client.force_login(user)
        assert getattr(client, method)(url).status_code == 403
    assert Tournament.objects.get(pk=t.pk).finished_at is None


@pytest.mark.django_db
def test_standings_page_and_live_fragment(client, played):
    t, pairs, _m = played
    en(client)
    html = client.get(reverse("standings", args=[t.slug])).content.decode()
    assert "Standings" in html and "js/standings.js" in html and pairs[0].name in html
    assert "level difference" in html and "<script src=" in html
    live = client.get(reverse("standings", args=[t.slug]), HTTP_X_LIVE="1")
    assert "<html" not in live.content.decode() and pairs[0].name in live.content.decode()
    assert "X-Live" in live["Vary"]
    after = client.get(reverse("standings", args=[t.slug]) + "?round=1&sort=-name").content.decode()
    assert "Standings after round 1" in after


@pytest.mark.django_db
def test_round_pair_and_deal_log_pages(client, played):
    t, pairs, m = played
    en(client)
    html = client.get(reverse("round", args=[t.slug, 1])).content.decode()
    assert all(p.name in html for p in pairs) and "Print" in html
    html = client.get(reverse("pair", args=[t.slug, m.pair_ns_id])).content.decode()
    assert m.pair_ew.name in html and reverse("deal-log", args=[t.slug, m.pk]) in html
    html = client.get(reverse("deal-log", args=[t.slug, m.pk])).content.decode()
    assert "40" in html and "♥" in html


LINK = re.compile(r'href="(/[^"]*)"')


def links_on(response) -> list[str]:
    """The site's own pages a page links to (not its style sheets and scripts)."""
    hrefs = {html.unescape(href) for href in LINK.findall(response.content.decode())}
    return sorted(href for href in hrefs if not href.startswith("/static/"))


@pytest.mark.django_db
def test_an_anonymous_visitor_reads_every_page_a_public_deal_log_links_to_and_every_page_those_link_to(
    client, played, director
):
    """``director``: a site that has its first director (else every page sends to the first-run setup)."""
    t, _pairs, m = played
    details = reverse("review", args=[m.deals.get().pk])
    first = links_on(client.get(reverse("deal-log", args=[t.slug, m.pk])))
    assert details in first
    for url in first + links_on(client.get(details)):
        response = client.get(url)
        assert response.status_code == 200, (url, response.status_code, response.get("Location"))
    page = client.get(details).content.decode()
    assert m.pair_ns.name in page and 'action="/deal/' not in page  # read only: no form of a judge


@pytest.mark.django_db
@pytest.mark.parametrize("switch", ["public_deal_log", "public_pairings", "is_public"])
def test_a_deals_details_send_an_anonymous_visitor_to_log_in_when_its_deal_log_is_not_public(
    client, played, switch
):
    t, _pairs, m = played
    setattr(t, switch, False)
    t.save()
    details = reverse("review", args=[m.deals.get().pk])
    response = client.get(details)
    assert response.status_code == 302 and response["Location"] == f"{reverse('login')}?next={details}"
    assert details not in client.get(reverse("deal-log", args=[t.slug, m.pk])).content.decode()


@pytest.mark.django_db
def test_deal_log_of_another_tournament_is_404(client, played, make_pair):
    from tournaments.models import Tournament

    _t, _pairs, m = played
    other = Tournament.objects.create(name="x", slug="other")
    assert client.get(reverse("deal-log", args=[other.slug, m.pk])).status_code == 404


@pytest.mark.django_db
def test_desk_pairs_swaps_edits_publishes(client, director, tournament, make_pair):
    pairs = [make_pair() for _ in range(5)]
    client.force_login(director)
    en(client)
    response = client.post(reverse("desk-pair-round", args=[tournament.slug]))
    assert response.status_code == 302
    rnd = tournament.rounds.get(number=1)
    assert rnd.state == Round.State.DRAFT and rnd.matches.count() == 2 and rnd.byes.count() == 1
    page = client.get(reverse("desk-round", args=[tournament.slug, 1])).content.decode()
    assert "Publish the round" in page
    bye = rnd.byes.get().pair
    seated = rnd.matches.get(table=1).pair_ns
    client.post(reverse("desk-round", args=[tournament.slug, 1]), {"first": bye.pk, "second": seated.pk})
    assert rnd.byes.get().pair == seated and rnd.matches.get(table=1).pair_ns == bye
    # The TD sets the tables by hand: table 1 = pairs 0 v 1, table 2 = 2 v 3, pair 4 has a bye.
    data = round_form([(pairs[0], pairs[1]), (pairs[2], pairs[3]), None], byes=[pairs[4].pk])
    client.post(reverse("desk-round", args=[tournament.slug, 1]), data)
    assert list(rnd.matches.values_list("pair_ns", "pair_ew")) == [
        (pairs[0].pk, pairs[1].pk),
        (pairs[2].pk, pairs[3].pk),
    ]
    # A pair placed twice is refused with a message and nothing changes.
    data["form-1-pair_ns"] = pairs[0].pk
    response = client.post(reverse("desk-round", args=[tournament.slug, 1]), data, follow=True)
    assert "placed twice" in response.content.decode()
    assert rnd.matches.get(table=2).pair_ns == pairs[2]
    client.post(reverse("desk-publish-round", args=[tournament.slug, 1]))
    rnd.refresh_from_db()
    assert rnd.state == Round.State.PUBLISHED
    response = client.post(reverse("desk-pair-round", args=[tournament.slug]), follow=True)
    assert "unfinished" in response.content.decode()


@pytest.mark.django_db
def test_desk_withdraws_and_brings_back(client, director, played):
    t, pairs, _m = played
    client.force_login(director)
    client.post(reverse("desk-pair-withdraw", args=[t.slug, pairs[0].pk]))
    pairs[0].refresh_from_db()
    assert pairs[0].withdrawn
    client.post(reverse("desk-pair-reinstate", args=[t.slug, pairs[0].pk]))
    pairs[0].refresh_from_db()
    assert not pairs[0].withdrawn


@pytest.mark.django_db
def test_desk_import_preview_then_confirm(client, director, tournament):
    client.force_login(director)
    en(client)
    url = reverse("desk-import", args=[tournament.slug])
    bad = SimpleUploadedFile("p.csv", b"pair,player1,player2,club\nA,x,y,\nA,z,,\n")
    html = client.post(url, {"file": bad}).content.decode()
    assert "Problems" in html and "Nothing is imported" in html
    assert client.post(reverse("desk-import-confirm", args=[tournament.slug])).status_code == 302
    assert not tournament.pairs.exists()
    good = SimpleUploadedFile("p.csv", "队名,选手1,选手2,俱乐部\n东风队,王建国,李秀英,朝阳\n".encode())
    html = client.post(url, {"file": good}).content.decode()
    assert "东风队" in html and "Import 1 pair" in html
    assert not tournament.pairs.exists()  # only a preview
    done = client.post(reverse("desk-import-confirm", args=[tournament.slug]), follow=True).content.decode()
    assert "1 pairs imported." in done  # back on the desk, which says so
    assert list(tournament.pairs.values_list("name", flat=True)) == ["东风队"]
    template = client.get(reverse("desk-import-template", args=[tournament.slug, "xlsx"]))
    assert template.status_code == 200 and template.content[:2] == b"PK"
    assert client.get(reverse("desk-import-template", args=[tournament.slug, "exe"])).status_code == 404


@pytest.mark.django_db
def test_desk_forms_need_csrf(director, played):
    t = played[0]
    client = Client(enforce_csrf_checks=True)
    client.force_login(director)
    assert client.post(reverse("desk-pair-round", args=[t.slug])).status_code == 403
    html = client.get(reverse("desk", args=[t.slug])).content.decode()
    assert html.count("csrfmiddlewaretoken") >= 2  # the language switch needs none


@pytest.mark.django_db
def test_tournament_page_links_to_public_pages_and_desk(client, director, played):
    t = played[0]
    html = client.get(t.get_absolute_url()).content.decode()
    assert reverse("standings", args=[t.slug]) in html and reverse("desk", args=[t.slug]) not in html
    client.force_login(director)
    assert reverse("desk", args=[t.slug]) in client.get(t.get_absolute_url()).content.decode()


@pytest.mark.django_db
def test_desk_import_refuses_an_oversized_upload(client, director, tournament):
    client.force_login(director)
    en(client)
    big = SimpleUploadedFile("p.csv", b"pair,player1,player2,club\n" + b"A,b,c,\n" * 200_000)
    html = client.post(reverse("desk-import", args=[tournament.slug]), {"file": big}).content.decode()
    assert "too large" in html and "Import" in html
    assert client.post(reverse("desk-import-confirm", args=[tournament.slug])).status_code == 302
    assert not tournament.pairs.exists()


@pytest.mark.django_db
def test_overview_hides_a_draft_pairing_from_the_public(client, director, tournament, make_pair):
    pairs = [make_pair() for _ in range(2)]
    pair_round(tournament)
    html = client.get(tournament.get_absolute_url()).content.decode()
    assert pairs[0].name in html  # the pairs table
    assert html.count(pairs[0].name) == 1  # but not the draft match
    client.force_login(director)
    assert client.get(tournament.get_absolute_url()).content.decode().count(pairs[0].name) > 1


@pytest.mark.django_db
def test_the_tournament_page_names_the_settings_played_otherwise_than_the_preset(client, tournament):
    from tournaments.competition.ruleset_settings import setting_label

    tournament.ruleset = {"preset": "standard", "misplay_points": 20, "kitty_cap": 32}
    tournament.save()
    en(client)
    html = client.get(reverse("tournament", args=[tournament.slug])).content.decode()
    assert "with 2 settings changed:" in html
    assert setting_label("misplay_points") in html and setting_label("kitty_cap") in html
    client.cookies["django_language"] = "zh-hans"
    html = client.get(reverse("tournament", args=[tournament.slug])).content.decode()
    assert "改动 2 项：" in html and "、" in html and "标准规则，改动" in html  # no space before the comma
    tournament.ruleset = "standard"
    tournament.save()
    html = client.get(reverse("tournament", args=[tournament.slug])).content.decode()
    assert '<span data-testid="preset">标准规则</span>' in html and "改动" not in html


@pytest.mark.django_db
def test_the_desk_offers_the_next_round_only_when_it_can_be_paired_and_says_why_not(
    client, director, tournament, make_pair
):
    for _ in range(4):
        make_pair()
    client.force_login(director)
    en(client)
    desk = reverse("desk", args=[tournament.slug])
    page = client.get(desk).content.decode()
    assert "Pair round 1" in page and 'data-testid="pair-blocker"' not in page
    rnd = pair_round(tournament)
    page = client.get(desk).content.decode()
    assert "Pair round 2" not in page and "Publish round 1 before pairing the next one." in page
    publish_round(rnd)
    page = client.get(desk).content.decode()
    assert "Pair round 2" not in page and "Round 1 still has unfinished matches." in page
    for m in rnd.matches.all():
        finish(m, m.pair_ns, "6", "3")
    page = client.get(desk).content.decode()
    assert "Pair round 2" in page and 'data-testid="pair-blocker"' not in page


@pytest.mark.django_db
def test_the_director_takes_a_round_published_by_mistake_back_to_draft(
    client, director, tournament, make_pair
):
    for _ in range(4):
        make_pair()
    publish_round(pair_round(tournament))
    client.force_login(director)
    en(client)
    page = client.get(reverse("desk-round", args=[tournament.slug, 1])).content.decode()
    assert "Back to draft" in page
    response = client.post(reverse("desk-unpublish-round", args=[tournament.slug, 1]), follow=True)
    assert "Round 1 is a draft again" in response.content.decode()
    assert tournament.rounds.get(number=1).state == Round.State.DRAFT
    assert client.get(reverse("round", args=[tournament.slug, 1])).status_code == 200  # the TD still sees it
    assert Client().get(reverse("round", args=[tournament.slug, 1])).status_code == 404


@pytest.mark.django_db
def test_a_round_that_has_begun_says_why_it_stays_published(client, director, played):
    t = played[0]
    client.force_login(director)
    en(client)
    page = client.get(reverse("desk-round", args=[t.slug, 1])).content.decode()
    assert "Back to draft" not in page and "Table 1 has begun: round 1 stays published." in page
    response = client.post(reverse("desk-unpublish-round", args=[t.slug, 1]), follow=True)
    assert "stays published" in response.content.decode()
    assert t.rounds.get(number=1).state != Round.State.DRAFT


@pytest.fixture
def with_a_bye(tournament, make_pair):
    """Five pairs, round 1 published: two matches and a bye."""
    for _ in range(5):
        make_pair()
    rnd = pair_round(tournament)
    publish_round(rnd)
    return rnd.byes.select_related("pair").get()


@pytest.mark.django_db
def test_the_director_changes_a_byes_points_and_the_standings_count_them(
    client, director, tournament, with_a_bye
):
    bye = with_a_bye
    client.force_login(director)
    en(client)
    url = reverse("desk-bye-points", args=[tournament.slug, 1, bye.pk])
    assert url in client.get(reverse("desk-round", args=[tournament.slug, 1])).content.decode()
    response = client.post(url, {"points": "1"}, follow=True)
    assert f"The bye of {bye.pair.name} counts 1 match point." in response.content.decode()
    bye.refresh_from_db()
    assert bye.points == 1 and bye.history.first().history_user == director
    line = next(x for x in compute_standings(tournament) if x.pair == bye.pair)
    assert line.match_points == 1


@pytest.mark.parametrize("points", ["-1", "", "many", "40000"])
@pytest.mark.django_db
def test_a_bad_bye_points_is_refused_and_nothing_changes(client, director, tournament, with_a_bye, points):
    client.force_login(director)
    url = reverse("desk-bye-points", args=[tournament.slug, 1, with_a_bye.pk])
    response = client.post(url, {"points": points}, follow=True)
    assert 'class="error"' in response.content.decode()
    with_a_bye.refresh_from_db()
    assert with_a_bye.points == tournament.bye_points


@pytest.mark.django_db
def test_a_drafts_bye_keeps_the_tournaments_points(tournament, make_pair):
    for _ in range(5):
        make_pair()
    bye = pair_round(tournament).byes.get()
    with pytest.raises(PairingError):
        set_bye_points(bye, 1)


@pytest.mark.django_db
def test_another_tournaments_bye_is_404(client, director, with_a_bye):
    Tournament.objects.create(name="B", slug="b")
    client.force_login(director)
    url = reverse("desk-bye-points", args=["b", 1, with_a_bye.pk])
    assert client.post(url, {"points": "1"}).status_code == 404


@pytest.mark.django_db
@pytest.mark.parametrize("bye", [str(2**63), str(-(2**63) - 1), str(10**30)])
def test_a_bye_for_an_id_no_database_holds_is_a_form_error(director, tournament, make_pair, bye):
    """The byes are a list of ids: one over 64 bits was an OverflowError on SQLite (a 500)."""
    pairs = [make_pair() for _ in range(4)]
    rnd = pair_round(tournament)
    before = list(rnd.matches.values_list("pair_ns", "pair_ew"))
    c = en(Client(raise_request_exception=False))
    c.force_login(director)
    data = round_form([(pairs[0], pairs[1]), (pairs[2], pairs[3])], byes=[bye])
    response = c.post(reverse("desk-round", args=[tournament.slug, 1]), data)
    assert response.status_code == 200 and "Select a valid choice" in response.content.decode()
    assert list(rnd.matches.values_list("pair_ns", "pair_ew")) == before


@pytest.mark.django_db
@pytest.mark.parametrize("claimed", ["3", "100000", str(2**63)])
def test_a_round_posted_with_more_tables_than_it_has_is_refused_without_building_them(
    director, tournament, make_pair, claimed
):
    """A tampered form claiming thousands of rows made the page build and draw 2,000 of them (seconds each)."""
    pairs = [make_pair() for _ in range(4)]
    rnd = pair_round(tournament)
    before = list(rnd.matches.values_list("pair_ns", "pair_ew"))
    c = en(Client(raise_request_exception=False))
    c.force_login(director)
    data = round_form([(pairs[0], pairs[1])]) | {"form-TOTAL_FORMS": claimed}
    response = c.post(reverse("desk-round", args=[tournament.slug, 1]), data)
    page = response.content.decode()
    assert response.status_code == 200 and "Please submit at most 2 forms." in page
    assert len(re.findall(r'name="form-\d+-pair_ns"', page)) == 2  # the round's two tables, no more
    assert list(rnd.matches.values_list("pair_ns", "pair_ew")) == before
