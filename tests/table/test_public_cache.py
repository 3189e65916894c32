"""The public pages' cache: a page kept while nothing it shows changes, a 304 for an unchanged poll, and every
write the page shows (a confirmed deal, a published round, a setting) seen on the very next request."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from referee.table.recording import deal_entry
from tests.table.helpers import play_through_service, simulated
from tournaments.checkin.forfeits import publish_round
from tournaments.models import Deal, Match, Round


def get(client, url: str, **headers):
    return client.get(url, headers=headers)


def confirmed_deal(match, judge, make_judge) -> Deal:
    """A whole simulated deal entered at the table, submitted by its judge and confirmed by another."""
    deal = deal_entry.start_deal(match, judge, trump="S", declarer="N")
    record = simulated(deal)
    play_through_service(deal, judge, record)
    deal.refresh_from_db()
    deal_entry.set_kitty(deal, judge, record["kitty"], version=deal.version)
    deal.refresh_from_db()
    deal_entry.submit_deal(deal, judge, version=deal.version)
    deal.refresh_from_db()
    return deal_entry.confirm_deal(deal, make_judge("second"), version=deal.version)


def test_an_unchanged_poll_sending_the_etag_back_gets_a_304(client, match):
    url = reverse("standings", args=[match.round.tournament.slug])
    first = get(client, url)
    assert first.status_code == 200 and first["ETag"]
    again = get(client, url, if_none_match=first["ETag"])
    assert again.status_code == 304 and again["ETag"] == first["ETag"]
    assert get(client, url, if_none_match='"something-else"').status_code == 200


def test_a_confirmed_deal_shows_on_the_next_request(client, match, judge, make_judge):
    slug = match.round.tournament.slug
    log = reverse("deal-log", args=[slug, match.pk])
    before = get(client, log)
    assert "还没有已确认的牌局" in before.content.decode()
    deal = confirmed_deal(match, judge, make_judge)
    assert deal.state == Deal.State.CONFIRMED
    after = get(client, log, if_none_match=before["ETag"])
    assert after.status_code == 200 and after["ETag"] != before["ETag"]
    assert "还没有已确认的牌局" not in after.content.decode()


def test_a_deal_being_entered_keeps_the_pages_as_they_were(client, match, judge):
    url = reverse("tournament", args=[match.round.tournament.slug])
    deal = deal_entry.start_deal(match, judge, trump="S", declarer="N")  # the match is now in progress
    first = get(client, url)
    play_through_service(deal, judge, simulated(deal), upto=2)
    assert get(client, url, if_none_match=first["ETag"]).status_code == 304


def test_a_published_round_shows_on_the_next_request(client, tournament, make_pair):
    draft = Round.objects.create(tournament=tournament, number=1)
    Match.objects.create(round=draft, table=1, pair_ns=make_pair(), pair_ew=make_pair())
    url = reverse("tournament", args=[tournament.slug])
    first = get(client, url)
    assert reverse("round", args=[tournament.slug, 1]) not in first.content.decode()
    publish_round(draft)
    after = get(client, url, if_none_match=first["ETag"])
    assert after.status_code == 200
    assert reverse("round", args=[tournament.slug, 1]) in after.content.decode()


def test_a_setting_change_shows_on_the_next_request(client, match):
    tournament = match.round.tournament
    url = reverse("standings", args=[tournament.slug])
    assert get(client, url).status_code == 200
    tournament.public_standings = False
    tournament.save()
    assert get(client, url).status_code == 404
    tournament.public_standings = True
    tournament.name = "秋季赛"
    tournament.save()
    assert "秋季赛" in get(client, url).content.decode()


def test_each_language_has_its_own_page(client, match):
    url = reverse("tournament", args=[match.round.tournament.slug])
    chinese = get(client, url)
    client.cookies["django_language"] = "en"
    english = get(client, url, if_none_match=chinese["ETag"])
    assert english.status_code == 200 and english["ETag"] != chinese["ETag"]
    assert 'lang="en"' in english.content.decode() and 'lang="zh-hans"' in chinese.content.decode()


def test_the_director_sees_a_draft_round_a_visitor_was_never_shown(client, tournament, make_pair, director):
    draft = Round.objects.create(tournament=tournament, number=1)
    Match.objects.create(round=draft, table=1, pair_ns=make_pair(), pair_ew=make_pair())
    url, draft_url = (
        reverse("tournament", args=[tournament.slug]),
        reverse("round", args=[tournament.slug, 1]),
    )
    visitor = get(client, url)
    assert visitor.status_code == 200 and draft_url not in visitor.content.decode()
    td = Client()
    td.force_login(director)
    page = get(td, url)
    assert "ETag" not in page and draft_url in page.content.decode()
    again = get(client, url)  # the director's page was not kept for visitors
    assert again["ETag"] == visitor["ETag"] and draft_url not in again.content.decode()


@pytest.mark.parametrize("name", ["tournament", "standings", "results"])
def test_a_cached_public_page_is_the_same_for_every_visitor_and_sets_no_cookie(match, name):
    """So a proxy in front may share it (deploy/nginx's micro-cache stores no response that sets a cookie)."""
    url = reverse(name, args=[match.round.tournament.slug])
    first, second = Client(enforce_csrf_checks=True), Client(enforce_csrf_checks=True)
    built, kept = get(first, url), get(second, url)
    assert built.cookies == {} and kept.cookies == {}
    assert built.content == kept.content and "csrfmiddlewaretoken" not in kept.content.decode()
    assert kept["X-Accel-Expires"] == "1"


def test_the_language_switch_of_a_cached_page_works_without_a_token(match):
    url = reverse("tournament", args=[match.round.tournament.slug])
    visitor = Client(enforce_csrf_checks=True)
    get(visitor, url)
    switched = visitor.post(reverse("set_language"), {"language": "en", "next": url})
    assert switched.status_code == 302 and visitor.cookies["django_language"].value == "en"


def test_a_signed_in_page_is_not_marked_for_the_proxy(client, match, director):
    client.force_login(director)
    page = get(client, reverse("tournament", args=[match.round.tournament.slug]))
    assert page.status_code == 200 and "X-Accel-Expires" not in page


@pytest.mark.parametrize("name", ["tournament", "standings", "results"])
def test_a_page_of_a_tournament_no_one_may_see_is_a_404_and_never_kept(client, match, name):
    tournament = match.round.tournament
    tournament.is_public = False
    tournament.save()
    assert get(client, reverse(name, args=[tournament.slug])).status_code == 404
    assert get(client, reverse(name, args=["no-such-tournament"])).status_code == 404


def test_a_tournament_given_a_new_address_is_no_longer_found_at_the_old_one(client, match):
    tournament = match.round.tournament
    old = reverse("standings", args=[tournament.slug])
    assert get(client, old).status_code == 200
    tournament.slug = "autumn"
    tournament.save()
    assert get(client, old).status_code == 404
    assert get(client, reverse("standings", args=["autumn"])).status_code == 200


@pytest.mark.parametrize("asked", ["²", "9" * 5000, "abc", "-1", "99"])
def test_a_round_no_one_can_read_from_the_address_shows_the_latest(client, match, asked):
    slug = match.round.tournament.slug
    for url in (
        reverse("results", args=[slug]) + "?round=",
        reverse("tournament", args=[slug]) + "?m-round=",
    ):
        assert client.get(url + asked).status_code == 200


def test_a_public_pages_key_ignores_query_parameters_the_page_does_not_read(client, match):
    url = reverse("tournament", args=[match.round.tournament.slug])
    plain = get(client, url)["ETag"]
    assert get(client, url + "?p=2")["ETag"] == plain
    assert get(client, url + "?utm_source=wechat&x=" + "y" * 500)["ETag"] == plain
    assert get(client, url + "?p-sort=name")["ETag"] != plain  # the pairs' table reads its order


def test_a_read_parameter_with_a_value_the_page_cannot_use_is_the_page_without_it(client, match):
    url = reverse("results", args=[match.round.tournament.slug])
    plain = get(client, url)["ETag"]
    assert get(client, url + "?round=abc")["ETag"] == plain
    assert get(client, url + "?round=" + "9" * 40)["ETag"] == plain
    assert get(client, url + "?round=01")["ETag"] == get(client, url + "?round=1")["ETag"]


def test_invented_queries_keep_a_bounded_number_of_copies_of_a_page(client, match, monkeypatch):
    from django.core.cache import cache

    kept = []
    real_set = cache.set

    def counting_set(key, *args, **kwargs):
        if key.startswith("public-page:"):
            kept.append(key)
        return real_set(key, *args, **kwargs)

    monkeypatch.setattr(cache, "set", counting_set)
    url = reverse("standings", args=[match.round.tournament.slug])
    for n in range(100):
        assert get(client, url + f"?sort=column{n}").status_code == 200
    assert 1 <= len(kept) <= 32


def test_an_x_live_value_the_pages_never_send_is_the_plain_page(client, match):
    url = reverse("standings", args=[match.round.tournament.slug])
    plain = get(client, url)["ETag"]
    assert get(client, url, **{"X-Live": "invented-1"})["ETag"] == plain
    assert get(client, url, **{"X-Live": "1"})["ETag"] != plain  # the live table alone, as standings.js asks


def test_invented_x_live_values_keep_a_bounded_number_of_copies_of_a_page(client, match, monkeypatch):
    from django.core.cache import cache

    kept = []
    real_set = cache.set

    def counting_set(key, *args, **kwargs):
        if key.startswith("public-page:"):
            kept.append(key)
        return real_set(key, *args, **kwargs)

    monkeypatch.setattr(cache, "set", counting_set)
    url = reverse("standings", args=[match.round.tournament.slug])
    for n in range(40):
        for query in ("", "?sort=name", "?round=1"):
            assert get(client, url + query, **{"X-Live": f"v{n}"}).status_code == 200
        assert get(client, url + f"?sort=column{n}", **{"X-Live": "1"}).status_code == 200
    assert 1 <= len(set(kept)) <= 32


def test_a_visitor_reads_the_fixtures_of_the_match_day_asked_for(client, db):
    from tests.teams.scene import league

    t = league()
    client.cookies["django_language"] = "en"
    url = reverse("team-fixtures", args=[t.slug])
    assert "Match day 3" in get(client, url + "?day=3").content.decode()
    assert "Match day 2" in get(client, url + "?day=2").content.decode()


def test_visitors_inventing_addresses_at_once_keep_no_more_copies_than_the_cap(tmp_path, settings):
    """The `make serve` cache (files, shared by the server's processes): sixty-four new addresses of one page at
    once keep ``VARIANTS`` copies at most — the count is one atomic step, not the file cache's add and incr, each
    a read then a write (all sixty-four were kept)."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    from django.contrib.auth.models import AnonymousUser
    from django.test import RequestFactory

    from tournaments.public import caching

    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(tmp_path / "cache"),
        }
    }
    barrier = threading.Barrier(64)

    def visitor(n: int) -> bool:
        request = RequestFactory().get(f"/t/crowd/standings/?sort=column{n}")
        request.user = AnonymousUser()
        barrier.wait(timeout=60)
        return caching.keeps_variant(request, "generation-1")

    with ThreadPoolExecutor(64) as pool:
        kept = sum(pool.map(visitor, range(64)))
    assert kept == caching.VARIANTS - 1  # the plain page is the first of them
