"""Every URL of the site, for every kind of visitor, under hostile input: never a 500.

The URL resolver's patterns are enumerated, so a new page is swept without a line here (a parameter no builder
knows fails ``test_every_url_parameter_has_an_argument_builder``). Each pattern is sent, by an anonymous
visitor, the table's judge, a captain and the director: GET and POST with the fields of the site's own forms
for that address (read off its pages) missing, of the wrong type, huge, with NUL characters or bytes that are
not UTF-8, overflowing numbers, lists for scalars and choices that do not exist; and its path arguments absent,
of another tournament or too large for the database; hostile query strings and headers. A refusal must be a 4xx
(or a form error, or a message), in the visitor's language, with nothing saved changed. Then every form of the
site is fuzzed from its own fields. The toolkit is ``tests/hostile.py``, the tournament ``tests/hostile_world.py``.

What is not sent, because it reaches nothing the rest does not (issue 37: the module was a quarter of the suite):
- An address's other real objects (a deal in each state, each pair, each round…) get every visitor's GET, the
  missing fields and each form's own fields; the hostile bodies (they exercise parsing and validation) go again
  only to an object, or a visitor, whose answers to those two differ from those already sent them: answered
  alike (same status, same refusal, same redirect, ids aside) the view took the same path. The director asks
  first, so of visitors answered alike it is the director who is sent every body.
- An admin add page whose form the change page shows (same fields) gets its own fields; the change page all.
- A page that answers a POST (fields missing, its own, NUL-bearing) with its GET's page, or its GET's redirect
  (no message, no cookie), reads no body: no more. A page or a download made afresh for each request is the GET's
  when only the time it was made differs (``made``: the screen's clock; the workbooks' and the archive's dates,
  unpacked), so a download that takes any method is not built for fourteen bodies.
- The 'numbers' bodies: one gives every field the overflowing one, two more give each field two of the other eight
  (a form of four fields gets all eight); a value past 64 bits in a path is 2**63 only (10**30 took its path).
- Each hostile path argument gets the director's GET in Chinese and POST as JSON in English (the director passes
  every permission check, so reaches every lookup), and one other visitor in turn (anonymous, judge, captain);
  but not the director's method the view refuses at the real address (a 405: ``require_POST`` and its kin answer
  before the view reads an argument, and the path's converter runs whatever the method, so the other method, still
  sent, reaches everything the argument reaches). A hostile value of a parameter whose GET the director finds
  answered as an earlier value of it was (the same 404, ids aside) took that value's path: no JSON POST for it.
- The admin's pages and an address that takes no GET get the few hostile query strings and headers that found
  faults: no view reads them there, only the middleware, which every other address exercises with all of them.
  An address whose view builds no ``request.GET`` for the first three hostile queries (174 of the 260 for the
  director's; the middleware reads the raw string) is sent no more of them: only its hostile headers.
- The crawl for forms does not open the admin as the judge or the captain: it shows them its log-in page only.
  Nor as the director: an admin page's forms post to itself (and to the admin's log-out, which reads no field; its
  address is sent the bodies of an address no page shows a form for), so each admin address reads them off its own
  page in its own test, and a worker that sweeps no admin address opens none (the fuzz reads them all).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import islice

import pytest
from django.test import Client, override_settings
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.databases import module_transaction
from tests.hostile import (
    HEADERS,
    JSON,
    NUMBERS,
    Form,
    Sweep,
    answer,
    bodies,
    forms_of,
    fuzz_examples,
    hostile_queries,
    one_page,
    templates_unrecorded,
)
from tests.hostile_world import BUILDERS, World, build_world, fingerprint, object_ids

pytestmark = pytest.mark.django_db
ROLES = ("anonymous", "judge", "captain", "director")
PARAM = re.compile(r"<(?:(?P<conv>\w+):)?(?P<name>\w+)>|\(\?P<(?P<rname>\w+)>[^)]*\)|\([^)]*\)")

# ------------------------------------------------------------------ the URL tree


@dataclass(frozen=True)
class Route:
    """One URL pattern: its full route (``t/<slug:slug>/desk/…``) and the names of its parameters in order."""

    route: str
    params: tuple[str, ...]

    def path(self, values: dict[str, str]) -> str:
        """The address with each parameter's (already URL-safe) value put in."""
        names = iter(self.params)
        return "/" + PARAM.sub(
            lambda _found: values[next(names)], self.route.replace("^", "").replace("$", "")
        )


def walk(resolver: URLResolver, prefix: str = "") -> Iterator[Route]:
    for pattern in resolver.url_patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            yield from walk(pattern, route)
        elif isinstance(pattern, URLPattern):
            found = PARAM.finditer(route.replace("^", "").replace("$", ""))
            # simple-history's admin pages have two positional groups: the object, then the version.
            positional = iter(("object_id", "version_id"))
            yield Route(route, tuple(m["name"] or m["rname"] or next(positional) for m in found))


ROUTES = list(walk(get_resolver()))


def real_paths(world: World, route: Route) -> list[str]:
    """Every real value of each parameter in turn, the others at their first."""
    options = {name: BUILDERS[name](world, route)[0] for name in route.params}
    first = {name: values[0] for name, values in options.items()}
    return [route.path(first)] + [
        route.path({**first, name: value}) for name, values in options.items() for value in values[1:]
    ]


def hostile_paths(world: World, route: Route) -> list[tuple[str, str]]:
    """One parameter at a time given a hostile value, the others real: each with the parameter's name."""
    first = {name: BUILDERS[name](world, route)[0][0] for name in route.params}
    return [
        (name, route.path({**first, name: value}))
        for name in route.params
        for value in BUILDERS[name](world, route)[1]
    ]


# ------------------------------------------------------------------ the world, its visitors and its forms


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker) -> Iterator[World]:
    """Built once per module in a transaction rolled back at its end (each test runs in its own savepoint), with
    DEBUG off so refusals are the site's own pages."""
    with override_settings(DEBUG=False), module_transaction(django_db_blocker), templates_unrecorded():
        built = build_world()
        built.extra["fingerprint"] = fingerprint()
        yield built


def sweep(world: World) -> Sweep:
    return Sweep(unchanged=lambda: fingerprint() == world.extra["fingerprint"])


def client(user=None, language: str | None = None) -> Client:
    c = Client(raise_request_exception=False)
    if user is not None:
        c.force_login(user)
    if language:
        c.cookies["django_language"] = language
    return c


@pytest.fixture(scope="module")
def visitors(world, django_db_blocker) -> dict[str, Client]:
    """Each role's client in Chinese (the default) and in English (``director-en`` …)."""
    with django_db_blocker.unblock():
        users = {
            "anonymous": None,
            "judge": world.judge,
            "captain": world.captain,
            "director": world.director,
        }
        return {role: client(user) for role, user in users.items()} | {
            f"{role}-en": client(user, "en") for role, user in users.items()
        }


def read_forms(found: dict[str, dict[tuple, Form]], path: str, response) -> None:
    """The forms of a page (one of each set of field names) added by the address each posts to."""
    if response.status_code == 200 and "html" in response.get("Content-Type", ""):
        for target, form in forms_of(path, response.content.decode()):
            found.setdefault(target, {}).setdefault(tuple(sorted(form.fields)), form)


def by_target(found: dict[str, dict[tuple, Form]]) -> dict[str, list[Form]]:
    return {target: list(forms.values()) for target, forms in found.items()}


def is_admin(route: Route) -> bool:
    return route.route.startswith("admin/")


@pytest.fixture(scope="module")
def crawl(world, visitors, django_db_blocker) -> tuple[dict[str, list[Form]], dict[tuple, tuple]]:
    """Every form of every page but the admin's that the judge, the captain and the director open, by the address
    it posts to (one of each set of field names: the header's log-out and language forms are on every page); and
    each GET's answer with its problems, the sweep's own GET of that page for that visitor (one request, not two).
    The admin's pages post to themselves (and to its log-out, which reads no field) and no other page posts to
    them: each admin address reads its forms off its own page in its own test, so a worker that sweeps none
    opens none (``admin_forms`` for the fuzz)."""
    found: dict[str, dict[tuple, Form]] = {}
    gets: dict[tuple, tuple] = {}
    check = sweep(world)
    assert not (world.judge.is_staff or world.captain.is_staff)  # the admin shows them its log-in page only
    with django_db_blocker.unblock():
        for route in ROUTES:
            if is_admin(route):
                continue
            for path in real_paths(world, route):
                for role in ("director", "judge", "captain"):
                    before = len(check.problems)
                    response = check.request(visitors[role], role, "get", path)
                    gets[path, role] = (response, check.problems[before:])
                    if response.status_code == 405:
                        break  # an address that takes no GET shows no form to anyone (a tenth of the crawl)
                    read_forms(found, path, response)
    assert not [t for t in found if t.startswith("/admin/")], sorted(
        found
    )  # no page but the admin's posts there
    return by_target(found), gets


@pytest.fixture(scope="module")
def admin_forms(world, visitors, django_db_blocker) -> dict[str, list[Form]]:
    """The admin's forms, for the fuzz: every admin page the director opens (the others see its log-in page)."""
    found: dict[str, dict[tuple, Form]] = {}
    check = sweep(world)
    with django_db_blocker.unblock():
        for route in filter(is_admin, ROUTES):
            for path in real_paths(world, route):
                page: dict[str, dict[tuple, Form]] = {}
                read_forms(page, path, check.request(visitors["director"], "director", "get", path))
                # what lets each admin address read its forms off its own page (the crawl opens none)
                assert set(page) <= {path, reverse("admin:logout")}, (path, sorted(page))
                for target, forms in page.items():
                    for fields, form in forms.items():
                        found.setdefault(target, {}).setdefault(fields, form)
    check.check()
    return by_target(found)


@pytest.fixture(scope="module")
def site_forms(crawl, admin_forms) -> dict[str, list[Form]]:
    """Every form of the site, the admin's too, by the address it posts to (the crawl's as it was when it opened the
    admin's pages itself)."""
    found = {target: {tuple(sorted(f.fields)): f for f in forms} for target, forms in crawl[0].items()}
    for target, forms in admin_forms.items():
        for form in forms:
            found.setdefault(target, {}).setdefault(tuple(sorted(form.fields)), form)
    return by_target(found)


def turned_away(response) -> bool:
    """The visitor is refused before the body is read: no point sending them more bodies."""
    return response.status_code in (403, 404, 405, 413) or "/login/" in response.get("Location", "")


# ------------------------------------------------------------------ the tests


def test_every_url_parameter_has_an_argument_builder():
    missing = sorted({f"{name} (in {r.route})" for r in ROUTES for name in r.params if name not in BUILDERS})
    assert not missing, "add a builder to BUILDERS (tests/hostile_world.py) for: " + ", ".join(missing)


def test_the_sweep_reaches_the_sites_pages():
    """The enumeration itself: the captain's pages, the imports, settings and the language switch are in it."""
    routes = {r.route for r in ROUTES}
    for route in (
        "t/<slug:slug>/desk/pairs/<int:pair_id>/captain/password/",
        "t/<slug:slug>/desk/import/",
        "t/<slug:slug>/desk/settings/",
        "i18n/setlang/",
        "login/",
        "deal/<int:deal_id>/undo_trick/",
        "match/<int:match_id>/forfeit/",
    ):
        assert route in routes


def test_an_action_no_deal_or_match_takes_is_not_found(world, visitors):
    """Each action has its own address: any other name after a deal's or a match's is a 404 to every visitor."""
    deal, match = next(iter(world.deals.values())), world.matches[0]
    for name in ("nope", "DROP-TABLE", "x" * 300, "deal_action", "Undo"):
        for path in (f"/deal/{deal.pk}/{name}/", f"/match/{match.pk}/{name}/"):
            for role in ROLES:
                assert visitors[role].post(path, {"version": deal.version}).status_code == 404, (role, path)


def on_change_page(world: World, route: Route, form: Form | None, check: Sweep, director: Client) -> bool:
    """An admin add page's form that the model's change page shows too: the change page gets its hostile bodies."""
    if form is None or not (is_admin(route) and route.route.endswith("/add/")):
        return False
    change = Route(route.route.removesuffix("add/") + "<path:object_id>/change/", ("object_id",))
    path = change.path({"object_id": object_ids(world, change)[0][0]})
    found: dict[str, dict[tuple, Form]] = {}
    read_forms(found, path, check.request(director, "director", "get", path))
    return any(fields == tuple(sorted(form.fields)) for fields in found.get(path, {}))


# The director first: of visitors answered alike, the one sent every body.
SWEEP_ORDER = ("director", "judge", "captain", "anonymous")
# The visitors sent each hostile path besides the director (in Chinese GET, in English POST JSON), in turn.
OTHERS = (("anonymous-en", "get", {}), ("judge", "post", {}), ("captain-en", "get", JSON))


@pytest.mark.parametrize("route", ROUTES, ids=[r.route for r in ROUTES])
def test_no_visitor_gets_a_500_on_any_address(route, world, visitors, crawl):
    """Every real variant of the address (each state of a deal, a match, a pair…) gets each visitor's GET, the
    missing fields and each form's own fields (the director: each form of the address; the others: its first);
    the hostile bodies (parsing, validation) go to the form whenever its answers to those two differ from every
    answer already sent them at this address, whichever the visitor and the variant (the director asks first, and
    is sent every body; the others the first eight). A POST answered as the GET is (its page or its redirect)
    after the NUL-bearing body reads no body: no more bodies. Then one other method per variant, and each hostile
    path argument (``hostile_paths``): the director's GET in Chinese and POST as JSON in English (not a method the
    view answered the director with a 405 at the first real address; the POST not for a value whose GET was
    answered as an earlier value of its parameter), and one other visitor in turn."""
    check = sweep(world)
    swept: set[tuple] = set()  # (form, its answers) already sent the bodies
    refuses: set[str] = set()  # the methods the view refuses the director (405) at its first real address
    site_forms = crawl[0]
    for path in real_paths(world, route):
        for role in SWEEP_ORDER:
            c = visitors[role]
            got, found = crawl[1].get((path, role), (None, []))
            check.problems += found
            got = check.request(c, role, "get", path) if got is None else got
            if is_admin(route) and role == "director":  # an admin page's forms post to it: read off its page
                page: dict[str, dict[tuple, Form]] = {}
                read_forms(page, path, got)
                site_forms = {path: by_target(page).get(path, [])}
            missing = check.request(c, role, "post", path, "missing fields")
            if not refuses and role == "director":
                refuses = {m for m, a in (("get", got), ("post", missing)) if a.status_code == 405} or {""}
            if turned_away(missing):
                continue
            forms = site_forms.get(path) or [None]
            for form in forms if role == "director" else forms[:1]:
                every = bodies(form)
                label, kwargs = next(every)  # the page's own fields
                own = check.request(c, role, "post", path, label, **kwargs)
                seen = (form and tuple(sorted(form.fields)), answer(missing), answer(own))
                if seen in swept or on_change_page(world, route, form, check, visitors["director"]):
                    continue
                swept.add(seen)
                for i, (label, kwargs) in enumerate(every, start=1):
                    sent = check.request(
                        c, role, "post", path, label, **kwargs, **(JSON if i % 3 == 2 else {})
                    )
                    if i == 1 and one_page(got, missing, own, sent):
                        break  # fields missing, its own or NUL-bearing, a POST gets the GET's page: read by none
                    if role != "director" and i >= 7:  # they are turned away or read the same fields
                        break
        method = ("put", "delete", "head", "options")[len(path) % 4]  # one other method per address
        check.request(visitors["director"], "director", method, path)
    answered: dict[str, set] = {}  # by parameter: the director's answers to its hostile values so far
    for i, (name, path) in enumerate(hostile_paths(world, route)):
        alike = False
        if "get" not in refuses:
            got = answer(check.request(visitors["director"], "director", "get", path))
            seen = answered.setdefault(name, set())
            alike = got in seen
            seen.add(got)
        if "post" not in refuses and not alike:
            check.request(visitors["director-en"], "director-en", "post", path, "JSON", **JSON)
        role, method, headers = OTHERS[i % len(OTHERS)]
        check.request(visitors[role], role, method, path, "missing fields", **headers)
    check.check()


def reads_the_query(response) -> bool:
    """Whether anything after the middleware read the request's query (``request.GET`` is built on first use)."""
    return "GET" in vars(response.wsgi_request)


def test_a_view_reading_the_query_is_told_from_one_reading_none():
    """The sweep's shortcut holds only while ``reads_the_query`` sees a read: the log-in page reads ``next``, the
    judges' help page reads nothing of the query."""
    assert reads_the_query(Client().get("/login/?next=/x"))
    assert not reads_the_query(Client().get("/help/judge/?next=/x"))


# django-tables2 warns of a sort such as ``?sort=//x.example/`` (a dot in it) and sorts by nothing, as it should.
@pytest.mark.filterwarnings("ignore:Use '__' to separate path components:DeprecationWarning")
@pytest.mark.parametrize("route", ROUTES, ids=[r.route for r in ROUTES])
def test_hostile_query_strings_and_headers_are_never_a_500(route, world, visitors):
    """Every hostile query string, and every hostile header, as the director or a visitor; the admin's hundred
    pages, and an address that takes no GET (only the middleware reads its query, as on every address), get the
    few that found faults. An address whose view read no query for the first three (the director in each
    language, a visitor) gets no more: the rest would reach only the middleware, which reads the raw string."""
    check = sweep(world)
    path = real_paths(world, route)[0]
    few = route.route.startswith("admin/")
    queries = hostile_queries(few=few)
    read = False
    for i, query in enumerate(queries):
        role = ("director", "director-en", "anonymous-en")[i % 3]
        got = check.request(visitors[role], role, "get", f"{path}?{query}", query[:40])
        if i == 0 and got.status_code == 405 and not few:
            few = True
            check.request(visitors["director-en"], "director-en", "get", f"{path}?{queries[-1]}", "lists")
            break
        read = read or reads_the_query(got)
        if i == 2 and not read:
            break
    for i, headers in enumerate(HEADERS[:2] if few else HEADERS):
        role = ("director", "anonymous-en")[i % 2]
        check.request(visitors[role], role, "get", path, f"headers {i}", **headers)
    wrong_password = {"username": "td", "password": "wrong-password"}  # a failed log-in stores its headers
    check.request(
        visitors["anonymous"], "anonymous", "post", path, "headers", data=wrong_password, **HEADERS[0]
    )
    check.check()


# ------------------------------------------------------------------ fuzz: the site's forms from their own fields

VALUES = st.one_of(
    st.text(max_size=20),
    st.sampled_from(
        ["", "0", "1", "-1", "on", "N", "S", "NS", "EW", "standard", "__nope__", "\x00", "a\x00"]
    ),
    st.sampled_from(NUMBERS),
    st.integers(min_value=-(2**70), max_value=2**70).map(str),
    st.just("9" * 5000),
    st.text(alphabet="\x00\x01\u202e\ufeff\ud7ff♠大🀄<>&'\"", max_size=12),
)


@settings(
    max_examples=fuzz_examples(150),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_fuzz_every_form_of_the_site(world, visitors, site_forms, data):
    """A form of the site (two per address at most) posted with random changes to its own fields, as the
    director or the judge."""
    targets = [(path, form) for path, forms in sorted(site_forms.items()) for form in forms[:2]]
    path, form = data.draw(st.sampled_from(targets))
    body = {name: list(values) for name, values in form.fields.items() if values != [None]}
    names = sorted(set(body) | set(form.choices)) or ["x"]
    for name in data.draw(st.lists(st.sampled_from(names), max_size=6)):
        choices = form.choices.get(name, [])
        value = data.draw(st.one_of(VALUES, st.sampled_from(choices)) if choices else VALUES)
        body[name] = data.draw(st.sampled_from([[value], [value, value + "1"], []]))
    for name in data.draw(st.lists(st.sampled_from(names), max_size=2)):
        body.pop(name, None)
    body |= {
        k: [v]
        for k, v in data.draw(st.dictionaries(st.text(min_size=1, max_size=8), VALUES, max_size=2)).items()
    }
    role = data.draw(st.sampled_from(["director", "judge", "director-en"]))
    check = sweep(world)
    check.request(visitors[role], role, "post", path, f"fuzz {list(islice(body, 8))}", data=body)
    check.check()


def test_the_fuzz_has_the_sites_forms_to_work_on(crawl):
    """Enough forms were read off the pages for the fuzz to mean something (the crawl itself works; the admin's
    forms, which the fuzz reads too, aside)."""
    site_forms = crawl[0]
    assert len(site_forms) > 20 and any("/desk/settings/" in path for path in site_forms), sorted(site_forms)
