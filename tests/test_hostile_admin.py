"""Every admin list page, this site's, auth's and axes', under hostile query strings: never a 500.

The list pages put what the address says into their queries: list filters, search (``q``), ordering (``o``),
the date hierarchy, a page number, and any field lookup (``?slug=…``, ``?ip_address__in=…``). On PostgreSQL a
NUL in a filter or an address field given ``abc`` failed in the database (a 500 where SQLite said nothing), so
this fuzz runs on both. Each example sends one list page a few of those parameters, each a value that is real,
NUL-bearing, huge, an overflowing number or a date, address or choice that cannot be; the answer must be a page, a
redirect (Django drops filters it cannot read: ``?e=1``) or a 400 in the visitor's language. The toolkit is
``tests/hostile.py``, the tournament ``tests/hostile_world.py``. ``FUZZ_SCALE`` multiplies the examples.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from axes.models import AccessAttempt, AccessLog
from django.apps import apps
from django.contrib import admin
from django.db import models
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.databases import module_transaction
from tests.hostile import HUGE, NUMBERS, UNREADABLE, Sweep, forms_of, fuzz_examples, templates_unrecorded
from tests.hostile_world import World, build_world

pytestmark = pytest.mark.django_db

# ------------------------------------------------------------------ what each list page reads from its address

RESERVED = ["q", "o", "p", "e", "all", "_to_field", "_popup", "_changelist_filters"]
LOOKUPS = [
    "",
    "__exact",
    "__iexact",
    "__in",
    "__isnull",
    "__gte",
    "__lt",
    "__contains",
    "__startswith",
    "__range",
    "__regex",
    "__iregex",
]


def registered() -> list[type[models.Model]]:
    """Every model with an admin list page, this app's and the others' (auth's, axes')."""
    return [model for model in apps.get_models() if admin.site.is_registered(model)]


def changelist(model: type[models.Model]) -> str:
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")


def filter_names(model: type[models.Model]) -> list[str]:
    """The parameters a list page's filters, date hierarchy and plain field lookups read."""
    return [*filter_params(model), *field_lookups(model)]


def filter_params(model: type[models.Model]) -> list[str]:
    """The parameters of a list page's filters and date hierarchy."""
    model_admin = admin.site.get_model_admin(model)
    names = []
    for spec in model_admin.list_filter:
        field = spec[0] if isinstance(spec, (list, tuple)) else spec
        if isinstance(field, str):
            names += [field + lookup for lookup in ("__exact", "__id__exact", "__isnull", "__gte", "__lt")]
        else:  # a filter class of its own: axes' "locked out"
            names.append(getattr(field, "parameter_name", "x"))
    if model_admin.date_hierarchy:
        names += [f"{model_admin.date_hierarchy}__{part}" for part in ("year", "month", "day")]
    return names


def field_lookups(model: type[models.Model]) -> list[str]:
    """Every field of the model with every lookup, as a hand-made address may ask."""
    return [field.name + lookup for field in model._meta.concrete_fields for lookup in LOOKUPS]


# ------------------------------------------------------------------ hostile values

VALUES = st.one_of(
    st.sampled_from(["", "0", "1", "-1", "True", "False", "on", "2026-04-01", "2026-13-45", "1.5", "abc"]),
    st.sampled_from(
        ["\x00", "a\x00b", "%00", UNREADABLE, HUGE[:20_000], "9" * 5000, "1,2,abc", "::1", "10.0.0.1"]
    ),
    st.sampled_from(
        [
            "999.1.1.1",
            "10.0.0.1,abc",
            "2026-02-30",
            "-1.-2.abc",
            "__nope__",
            "published",
            "swiss",
            "(",
            "(a+)+$",
        ]
    ),
    st.sampled_from(NUMBERS),
    st.integers(min_value=-(2**70), max_value=2**70).map(str),
    st.text(alphabet="\x00\x01,.-:_%\u202e\ufeff大🀄<>&'\"0123456789abc", max_size=12),
)
ORDERINGS = st.one_of(
    st.lists(st.integers(min_value=-30, max_value=30), max_size=4).map(lambda ns: ".".join(map(str, ns))),
    st.sampled_from(["", ".", "abc", "1.abc", "-", "--1", "9" * 400, "1\x00", "99999999999999999999"]),
)


# ------------------------------------------------------------------ the world and its visitors


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker) -> Iterator[World]:
    """The URL sweep's tournament, with axes' records of failed and successful log-ins, built once per module in
    a transaction rolled back at its end, DEBUG off so refusals are the site's own pages."""
    with override_settings(DEBUG=False), module_transaction(django_db_blocker), templates_unrecorded():
        built = build_world()
        now = timezone.now()
        AccessAttempt.objects.create(
            username="td",
            ip_address="10.0.0.1",
            user_agent="tablet",
            attempt_time=now,
            failures_since_start=3,
        )
        AccessLog.objects.create(username="judge", ip_address="::1", user_agent="tablet", attempt_time=now)
        yield built


@pytest.fixture(scope="module")
def directors(world, django_db_blocker) -> dict[str, Client]:
    """The director's admin, in Chinese (the default) and in English."""
    with django_db_blocker.unblock():
        clients = {}
        for role, language in (("director", None), ("director-en", "en")):
            clients[role] = Client(raise_request_exception=False)
            clients[role].force_login(world.director)
            if language:
                clients[role].cookies["django_language"] = language
        return clients


# ------------------------------------------------------------------ the tests


def test_every_admin_list_page_is_fuzzed_auths_and_axes_too():
    """The fuzz's list of pages is the admin's own: a newly registered model is fuzzed without a line here."""
    labels = {model._meta.label for model in registered()}
    assert {
        "tournaments.Tournament",
        "auth.User",
        "auth.Group",
        "axes.AccessAttempt",
        "axes.AccessLog",
    } <= labels


@pytest.mark.parametrize("model", registered(), ids=lambda model: model._meta.label)
def test_the_filters_the_issue_named_answer_without_a_500(model, world, directors):
    """Each filter, search, ordering and date of a list page once with a value it cannot be: on PostgreSQL
    ``?slug=%00``, ``?state__exact=%00`` or ``?ip_address=abc`` were 500s. Every kind of field of the model (its
    class, and its target's for a relation) with every lookup, the fields of a kind in turn (``probes``); a NUL,
    refused before the admin reads it, once a page."""
    check = Sweep()
    path = changelist(model)
    for name, value in probes(model):
        check.request(directors["director"], "director", "get", f"{path}?{name}={value}", name)
    check.check()


NUL = "%00"
PROBE_VALUES = (NUL, "abc", "9" * 30)  # a NUL, a value of the wrong type, a number too large for the column


def field_kind(field: models.Field) -> tuple[str, str]:
    """What a lookup on the field runs through: its class (which reads the value and picks the lookup), and for a
    relation its target's. Two fields of one kind given one lookup and one value take one path."""
    target = field.target_field if field.is_relation else None
    return type(field).__name__, type(target).__name__


def probes(model: type[models.Model]) -> list[tuple[str, str]]:
    """Each filter's parameters, the search, ordering and page with every hostile value (the 500s the issue named
    were of these); then each kind of field (``field_kind``) with its plain name given every value and each other
    lookup (``__in``, ``__range``…) one value in turn: a sixth of the sweep's requests of one per field. Of the
    NUL probes, which the middleware refuses before any admin code runs, the first alone."""
    filters = filter_params(model)
    found = [(name, value) for name in [*filters, "q", "o", "p"] for value in PROBE_VALUES]
    kinds: dict[tuple[str, str], list[str]] = {}
    for field in model._meta.concrete_fields:
        kinds.setdefault(field_kind(field), []).append(field.name)
    for k, names in enumerate(kinds.values()):
        asked = [(lookup, value) for value in PROBE_VALUES for lookup in LOOKUPS[:1]]
        asked += [(lookup, PROBE_VALUES[(k + i) % 3]) for i, lookup in enumerate(LOOKUPS[1:])]
        for turn, (lookup, value) in enumerate(asked):  # the kind's fields in turn
            name = names[turn % len(names)] + lookup
            if name not in filters:
                found.append((name, value))
    # A NUL in the query is refused before the admin reads it (referee/middleware.py, RequestCheckMiddleware, since
    # the issue's NUL 500s): every NUL probe of a page takes one path, so one goes, the first.
    nul = [probe for probe in found if probe[1] == NUL]
    return [probe for probe in found if probe[1] != NUL or probe == nul[0]]


@pytest.mark.parametrize("model", registered(), ids=lambda model: model._meta.label)
def test_a_row_ticked_for_an_action_that_can_be_no_row_is_left_out(model, world, directors):
    """The ticked rows were looked up as sent: a number of 5,000 digits or ``abc`` for a key was a 500 (the fuzz
    of the site's forms found it on auth's groups on PostgreSQL), and so was an id past 64 bits on SQLite; now
    nothing is done, and nothing is deleted."""
    check = Sweep()
    before = model.objects.count()
    for bad in ("9" * 5000, str(2**63), "abc", "1.5", "\x00"):
        body = {"action": "delete_selected", "_selected_action": [bad], "select_across": "0", "index": "0"}
        check.request(directors["director-en"], "director-en", "post", changelist(model), bad[:10], data=body)
    check.check()
    assert model.objects.count() == before


@settings(
    max_examples=fuzz_examples(300),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_fuzz_every_admin_list_page(world, directors, data):
    """A list page with a few of the parameters it reads, each given a hostile value, as the director."""
    model = data.draw(st.sampled_from(registered()), label="model")
    names = st.sampled_from([*filter_names(model), *RESERVED])
    query = {}
    for name in data.draw(st.lists(names, min_size=1, max_size=4), label="names"):
        query[name] = data.draw(ORDERINGS if name == "o" else VALUES)
    if data.draw(st.booleans()):
        query["q"] = data.draw(VALUES, label="search")
    role = data.draw(st.sampled_from(["director", "director-en"]))
    check = Sweep()
    check.request(directors[role], role, "get", changelist(model), str(query)[:200], data=query)
    check.check()


def text_fields(model: type[models.Model]) -> list[str]:
    return [
        f.name for f in model._meta.concrete_fields if isinstance(f, (models.CharField, models.TextField))
    ]


@pytest.mark.parametrize(
    "model", [m for m in registered() if text_fields(m)], ids=lambda model: model._meta.label
)
def test_a_regular_expression_in_an_admin_filter_is_refused(model, world, directors):
    """SQLite failed in its driver on ``?name__regex=(`` (a 500), and ``(a+)+$`` against a long text can pin a
    worker on either database: no list page takes a regular expression from its address."""
    check = Sweep()
    for name in text_fields(model):
        for lookup in ("__regex", "__iregex"):
            for value in ("(", "(a%2B)%2B$"):
                path = f"{changelist(model)}?{name}{lookup}={value}"
                response = check.request(directors["director-en"], "director-en", "get", path, name)
                assert response.status_code == 400, path
    check.check()


def test_a_ruleset_whose_kitty_table_names_an_unreadable_tractor_is_a_form_error(world, directors):
    """``{"tractor:²": 3}``: "²" is a digit to ``str.isdigit`` that ``int`` refuses; the add page was a 500."""
    path = reverse("admin:tournaments_tournament_add")
    page = directors["director-en"].get(path)
    [(_action, form)] = [(a, f) for a, f in forms_of(path, page.content.decode()) if "ruleset" in f.fields]
    body = {name: values for name, values in form.fields.items() if values != [None]}
    body.update(
        name=["Kitty"], slug=["kitty"], ruleset=['{"preset": "standard", "kitty_table": {"tractor:²": 3}}']
    )
    check = Sweep()
    response = check.request(directors["director-en"], "director-en", "post", path, "kitty", data=body)
    check.check()
    assert response.status_code == 200 and "tractor" in response.content.decode()
