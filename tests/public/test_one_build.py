"""A crowd at a generation change (issue 41 item 5): when a write makes a busy public page stale, one request
builds the new page while the others are served the previous copy or wait for that one build; the projector's
page is kept like the other public pages."""

from __future__ import annotations

import threading

import pytest
from django.conf import settings as site
from django.contrib.auth.models import AnonymousUser
from django.http import HttpResponse
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import translation

from tournaments.public import caching
from tournaments.public.caching import public_cache
from tournaments.public.generation import bump

pytestmark = pytest.mark.django_db


class Builds:
    """A public view that counts its builds, says which build served a visitor, and can be held mid-build."""

    def __init__(self) -> None:
        self.count = 0
        self.lock = threading.Lock()
        self.hold = threading.Event()
        self.hold.set()
        self.started = threading.Event()
        self.view = public_cache(self.page)

    def page(self, request, slug: str) -> HttpResponse:
        with self.lock:
            self.count += 1
            n = self.count
        self.started.set()
        assert self.hold.wait(10)
        return HttpResponse(f"build {n}")

    def get(self, slug: str) -> HttpResponse:
        """A visitor's request in the site's language, whichever thread makes it (a language left active by an
        earlier test would be another page)."""
        request = RequestFactory().get(f"/t/{slug}/crowd/")
        request.user = AnonymousUser()
        with translation.override(site.LANGUAGE_CODE):
            return self.view(request, slug)


def in_threads(count: int, work) -> list:
    answers: list = [None] * count

    def run(n: int) -> None:
        answers[n] = work()

    threads = [threading.Thread(target=run, args=(n,)) for n in range(count)]
    for thread in threads:
        thread.start()
    return [threads, answers]


def test_a_page_many_visitors_miss_at_once_is_built_once_and_served_to_all(tournament):
    builds = Builds()
    builds.hold.clear()
    threads, answers = in_threads(8, lambda: builds.get(tournament.slug))
    assert builds.started.wait(5)
    builds.hold.set()
    for thread in threads:
        thread.join(10)
    assert builds.count == 1
    assert {answer.content for answer in answers} == {b"build 1"}


def test_while_the_new_page_is_built_a_visitor_is_served_the_previous_copy_at_once(tournament):
    builds = Builds()
    first = builds.get(tournament.slug)
    assert first.content == b"build 1"
    bump([f"t:{tournament.slug}"])  # a deal confirmed: the page's generation changes
    builds.hold.clear()
    builds.started.clear()
    threads, answers = in_threads(1, lambda: builds.get(tournament.slug))
    assert builds.started.wait(5)  # the new page is being built, and held
    meanwhile = builds.get(tournament.slug)
    assert (meanwhile.content, meanwhile["ETag"]) == (b"build 1", first["ETag"])
    builds.hold.set()
    threads[0].join(10)
    assert answers[0].content == b"build 2"
    after = builds.get(tournament.slug)
    assert (after.content, builds.count) == (b"build 2", 2)
    assert after["ETag"] != first["ETag"]


def test_a_visitor_waits_for_another_servers_build_and_builds_only_if_it_never_comes(tournament, monkeypatch):
    builds = Builds()
    request = RequestFactory().get(f"/t/{tournament.slug}/crowd/")
    request.user = AnonymousUser()
    with translation.override(site.LANGUAGE_CODE):
        key = caching.page_key(request, caching.tokens(tournament.slug))
    caching.cache.add(f"public-build:{key}", 1, 30)  # another process holds the build, and dies
    monkeypatch.setattr(caching, "WAIT_SECONDS", 0.2)
    assert builds.get(tournament.slug).content == b"build 1"
    assert builds.count == 1


def test_the_projector_page_is_kept_and_a_repeated_poll_is_a_304(match):
    slug = match.round.tournament.slug
    url = reverse("screen", args=[slug])
    client = Client()
    first = client.get(url)
    assert first.status_code == 200 and first.has_header("ETag")
    again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304


def test_each_host_gets_the_projector_page_with_its_own_address(match, settings):
    settings.ALLOWED_HOSTS = ["hall.example", "club.example"]
    url = reverse("screen", args=[match.round.tournament.slug])
    hall = Client(HTTP_HOST="hall.example").get(url)
    club = Client(HTTP_HOST="club.example").get(url)
    assert "http://hall.example/" in hall.content.decode()
    assert "http://club.example/" in club.content.decode()
    assert hall["ETag"] != club["ETag"]
