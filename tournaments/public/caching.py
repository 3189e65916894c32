"""Public pages that cost nothing to serve twice: ``@public_cache`` on a view whose address names a tournament.

For a visitor who is not signed in (the only ones whose page is the same for all), the page is kept in the shared
cache under a key made of its address, its language, ``X-Live`` (only the value the pages send: ``live``) and the
tournament's generation
(``tournaments.public.generation``), which changes with every write the public pages show. The key is also the
page's ``ETag``: a poll sending it back in ``If-None-Match`` gets a 304 before anything is built — one cache
read, no database. Signed-in users, and visitors with a message waiting, get the page
built for them as before. A cached page holds no CSRF token and sets no cookie (the language switch needs none), so
it is the same bytes for every visitor, and a proxy in front may keep it for a second too: ``X-Accel-Expires``
says so to nginx (deploy/nginx/referee.conf), which keeps nothing the site does not mark.

The address in the key is the path and only the query parameters the page reads (``reads``), each in its one
spelling (a round's number as a number, a table's order as a column name), and the view is given just those: any
other parameter (``?p=1`` … ``?p=2000``, a tracker's tag) is the same page, one key, built once. A page keeps at
most ``VARIANTS`` keys per generation, its plain one included (every part of the key counted: query, live fragment,
language; counted in one atomic step in the throttle store, ``PAGE_VARIANTS``); the others are built but not kept,
so no visitor can grow the shared cache (Redis culls nothing) by inventing addresses or headers.

When a write changes the generation, every visitor of a busy page misses at once. One request builds the new page
(one per key across processes: a short lock in the shared cache; threads of one process wait on the builder)
while the others are served the page's previous copy at once (``public-latest:``: the key last built for the same
address, language and live fragment), or, on a page never built before, wait for the builder a few seconds and
build it themselves only if it never comes.
"""

from __future__ import annotations

import hashlib
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import overload
from urllib.parse import urlencode

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified, QueryDict
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.translation import get_language

from tournaments.competition.throttle import Throttle
from tournaments.public.generation import tokens

View = Callable[..., HttpResponse]
PROXY_SECONDS = (
    "1"  # how long a proxy in front may serve the page without asking: a poll's news waits 1 s at most
)
PAGE_TIMEOUT = 3600  # a page no one asks for again (an old generation's) leaves the cache within the hour
VARIANTS = 32  # keys kept per page and generation (the plain page's too): rounds, orders, languages, live
# The variants beside the plain page, counted in the throttle store in one atomic step: the file cache's add and
# incr are each a read then a write, so sixty-four new addresses at once all found the count under the cap and
# all were kept (`make serve-checks`, a ``?sort=`` flood: 78 entries for one page).
PAGE_VARIANTS = Throttle("page-variants", limit=VARIANTS - 1, seconds=PAGE_TIMEOUT)
ROUND = re.compile(r"[0-9]{1,3}")
SORT = re.compile(r"-?[A-Za-z_][A-Za-z0-9_]{0,39}")
INDENT = re.compile(rb"\n\s+")  # the tables' template indents every cell: half a large page's bytes
VARY = ("Cookie", "Accept-Language", "X-Live")
BUILD_LOCK_SECONDS = 30  # a builder that died leaves its lock this long at most
WAIT_SECONDS = 5.0  # how long a visitor with no older copy waits for another request's build
WAIT_STEP = 0.05


def code_stamp() -> str:
    """Which templates, code and translations built the pages: a page kept by an older release (in Redis, which
    outlives a restart) is never served by a newer one."""
    root = Path(settings.BASE_DIR)
    seen = hashlib.blake2b(digest_size=8)
    for folder, pattern in (("templates", "*.html"), ("tournaments", "*.py"), ("locale", "*.mo")):
        for path in sorted((root / folder).rglob(pattern)):
            seen.update(f"{path}:{path.stat().st_mtime_ns}".encode())
    return seen.hexdigest()


CODE_STAMP = code_stamp()


class Recent:
    """The last pages this process served, by key: a key names one page for good (its generation is in it), so a
    copy in memory is never stale and saves the shared cache's read and unpickling of a large page."""

    def __init__(self, size: int = 256) -> None:
        self.size = size
        self.pages: OrderedDict[str, tuple[bytes, str]] = OrderedDict()  # content and its type
        self.lock = threading.Lock()

    def get(self, key: str):
        with self.lock:
            found = self.pages.get(key)
            if found is not None:
                self.pages.move_to_end(key)
            return found

    def put(self, key: str, page) -> None:
        with self.lock:
            self.pages[key] = page
            while len(self.pages) > self.size:
                self.pages.popitem(last=False)


RECENT = Recent()


class Flights:
    """The pages this process is building, by key: the first request builds, the others wait for it (or are
    served the previous copy) instead of building the same page again."""

    def __init__(self) -> None:
        self.building: dict[str, threading.Event] = {}
        self.lock = threading.Lock()

    def join(self, key: str) -> threading.Event | None:
        """None when the caller is the builder (it must call ``done``), else the build to wait for."""
        with self.lock:
            if key in self.building:
                return self.building[key]
            self.building[key] = threading.Event()
            return None

    def done(self, key: str) -> None:
        with self.lock:
            built = self.building.pop(key)
        built.set()


FLIGHTS = Flights()


def cacheable(request: HttpRequest) -> bool:
    return (
        request.method in ("GET", "HEAD")
        and not request.user.is_authenticated
        and "messages" not in request.COOKIES  # a message waiting is for this visitor only
    )


def live(request: HttpRequest) -> str:
    """``X-Live`` as the pages send it (static/js/standings.js: ``1``, the live table alone), else nothing: an
    invented value is the plain page, never a key of its own."""
    return "1" if request.headers.get("X-Live") == "1" else ""


def canonical(name: str, value: str) -> str | None:
    """A read parameter's one spelling, or None when the page could not use the value (it shows the default)."""
    if name.endswith("round") or name == "day":
        return str(int(value)) if ROUND.fullmatch(value) and int(value) > 0 else None
    if name.endswith("sort"):
        return value if SORT.fullmatch(value) else None
    return value[:40]


def read_query(request: HttpRequest, reads: tuple[str, ...]) -> QueryDict:
    """The query as the page reads it: its own parameters, each once, in their one spelling, in order."""
    kept = {name: canonical(name, request.GET.get(name, "")) for name in reads}
    return QueryDict(urlencode({name: value for name, value in kept.items() if value is not None}))


def address_parts(request: HttpRequest, by_host: bool) -> list[str]:
    """What names the page apart from the data it shows: address, query, language, live fragment, and the host
    for a page that prints the site's own address (the projector's QR code)."""
    parts = [request.path, request.GET.urlencode(), get_language() or "", live(request)]
    return [*parts, request.get_host()] if by_host else parts


def page_key(request: HttpRequest, generation: str, *, by_host: bool = False) -> str:
    """The page's identity while nothing it shows changes: address, language, live fragment, generation."""
    parts = [*address_parts(request, by_host), generation, CODE_STAMP]
    return hashlib.blake2b("\n".join(parts).encode(), digest_size=12).hexdigest()


def latest_key(request: HttpRequest, by_host: bool) -> str:
    """Where the key of the page's newest copy is kept, whatever the generation: the copy served while the new
    one is built."""
    parts = [*address_parts(request, by_host), CODE_STAMP]
    return "public-latest:" + hashlib.blake2b("\n".join(parts).encode(), digest_size=12).hexdigest()


def matches(request: HttpRequest, etag: str) -> bool:
    sent = request.headers.get("If-None-Match", "")
    return any(tag.strip().removeprefix("W/") == etag for tag in sent.split(","))


def finish(response: HttpResponse, etag: str) -> HttpResponse:
    response["ETag"] = etag
    response["X-Accel-Expires"] = (
        PROXY_SECONDS  # nginx's micro-cache; nginx never passes it on to the visitor
    )
    patch_cache_control(response, no_cache=True)  # a browser asks again each time, with the ETag
    patch_vary_headers(response, VARY)
    return response


def served(stored: tuple[bytes, str]) -> HttpResponse:
    content, content_type = stored
    return HttpResponse(content, content_type=content_type)


def keeps_variant(request: HttpRequest, generation: str, by_host: bool = False) -> bool:
    """Whether one more key of this page may be kept in this generation: the plain page (no query, not the live
    fragment, the site's language) always; any other counts, whichever part of the key differs (a page keyed by
    its host counts every copy: a visitor chooses the host it sends)."""
    plain = not request.GET and not live(request) and get_language() == settings.LANGUAGE_CODE
    if plain and not by_host:
        return True
    page = hashlib.blake2b(f"{request.path}|{generation}".encode(), digest_size=12).hexdigest()
    return PAGE_VARIANTS.take(page)


@overload
def public_cache(view: View, *, reads: tuple[str, ...] = (), by_host: bool = False) -> View: ...


@overload
def public_cache(
    view: None = None, *, reads: tuple[str, ...] = (), by_host: bool = False
) -> Callable[[View], View]: ...


def public_cache(
    view: View | None = None, *, reads: tuple[str, ...] = (), by_host: bool = False
) -> View | Callable[[View], View]:
    """Cache a public page of one tournament (its view takes ``slug`` first) for visitors not signed in; the page
    reads the query parameters ``reads`` and no other; ``by_host``: the page prints the address it was asked at."""
    if view is None:
        return lambda page: public_cache(page, reads=reads, by_host=by_host)

    @wraps(view)
    def wrapped(request: HttpRequest, slug: str, *args, **kwargs) -> HttpResponse:
        if not cacheable(request):
            return view(request, slug, *args, **kwargs)
        # An immutable QueryDict like Django's own; the stubs type GET as a stub-only subclass of it.
        request.GET = read_query(request, reads)  # type: ignore[assignment]
        request.META["QUERY_STRING"] = request.GET.urlencode()  # the page's own links (the language switch's)
        generation = tokens(slug)
        if generation is None:
            return view(request, slug, *args, **kwargs)  # its own 404
        key = page_key(request, generation, by_host=by_host)
        etag = f'"{key}"'
        if matches(request, etag):
            return finish(HttpResponseNotModified(), etag)
        if (stored := kept(key)) is not None:
            return finish(served(stored), etag)
        page = Page(request, generation, key, latest_key(request, by_host), by_host)
        return page.serve(lambda: view(request, slug, *args, **kwargs))

    return wrapped


def kept(key: str) -> tuple[bytes, str] | None:
    stored = RECENT.get(key) or cache.get(f"public-page:{key}")
    if stored is not None:
        RECENT.put(key, stored)
    return stored


class Page:
    """One missed page: built once, by one request, while the others are served its previous copy or wait."""

    def __init__(self, request: HttpRequest, generation: str, key: str, latest: str, by_host: bool) -> None:
        self.request, self.generation, self.key, self.latest, self.by_host = (
            request,
            generation,
            key,
            latest,
            by_host,
        )

    def serve(self, build: Callable[[], HttpResponse]) -> HttpResponse:
        building = FLIGHTS.join(self.key)
        if building is None:
            try:
                return self.build_or_follow(build)
            finally:
                FLIGHTS.done(self.key)
        if (older := self.previous()) is not None:
            return older
        building.wait(WAIT_SECONDS)
        stored = kept(self.key)
        return finish(served(stored), f'"{self.key}"') if stored is not None else self.build(build)

    def build_or_follow(self, build: Callable[[], HttpResponse]) -> HttpResponse:
        """This process's builder: builds unless another process holds the page's lock, then follows it."""
        lock = f"public-build:{self.key}"
        if cache.add(lock, 1, BUILD_LOCK_SECONDS):
            try:
                return self.build(build)
            finally:
                cache.delete(lock)
        if (older := self.previous()) is not None:
            return older
        deadline = time.monotonic() + WAIT_SECONDS
        while time.monotonic() < deadline:
            time.sleep(WAIT_STEP)
            if (stored := kept(self.key)) is not None:
                return finish(served(stored), f'"{self.key}"')
        return self.build(build)

    def previous(self) -> HttpResponse | None:
        """The page's newest copy of an earlier generation, under its own ETag: the visitor's next poll asks again
        and finds the new page."""
        older = cache.get(self.latest)
        if not older or older == self.key or (stored := kept(older)) is None:
            return None
        return finish(served(stored), f'"{older}"')

    def build(self, build: Callable[[], HttpResponse]) -> HttpResponse:
        response = build()
        if response.status_code != 200 or response.streaming:
            return response
        response.content = INDENT.sub(b"\n", response.content)  # no <pre> on these pages: the same page
        stored = (response.content, response["Content-Type"])
        if keeps_variant(self.request, self.generation, self.by_host):
            cache.set(f"public-page:{self.key}", stored, PAGE_TIMEOUT)
            cache.set(self.latest, self.key, PAGE_TIMEOUT)
        RECENT.put(self.key, stored)
        return finish(response, f'"{self.key}"')
