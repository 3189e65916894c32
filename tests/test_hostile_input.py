"""No input, however hostile, gives a 500: a clear 400 (JSON for the page scripts, a message or form error for
pages), and nothing already saved is lost. Every posted field of every deal and match action, text that would
reach the database with a NUL, hostile URLs and methods, and a fuzz of every entry endpoint."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import translation
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.table.recording import deal_entry, records
from rules.simulate import simulate_deal
from tests.action_urls import DEAL_ACTIONS, MATCH_ACTIONS, deal_url, match_url
from tests.hostile import Sweep, bodies, forms_of, fuzz_examples
from tournaments.models import Deal, Penalty, Trick
from tournaments.scoring.errors import RecordingError

pytestmark = pytest.mark.django_db
JSON = {"HTTP_ACCEPT": "application/json"}
HAN = re.compile(r"[\u4e00-\u9fff]")


@pytest.fixture
def deal(match, judge):
    return deal_entry.start_deal(match, judge, trump="S", declarer="N")


def client_for(user, language: str | None = None) -> Client:
    """A logged-in client that answers a crash with its 500 response (as a browser would see it)."""
    c = Client(raise_request_exception=False)
    c.force_login(user)
    if language:
        c.cookies["django_language"] = language
    return c


def saved(deal: Deal) -> tuple:
    """What a refused write must leave alone."""
    deal.refresh_from_db()
    return (
        deal.version,
        deal.state,
        deal.kitty,
        list(Trick.objects.filter(deal=deal).values_list("number", "throw_attempted", "throw_challenger")),
        list(deal.tricks.values_list("plays__seat", "plays__cards")),
        list(Penalty.objects.filter(deal=deal).values_list("seat", "code", "trick", "note")),
    )


# ------------------------------------------------------------------ every posted field of every deal action

HOSTILE_DEAL_FIELDS = [
    ("play", {"cards": "SA", "seat": "X"}),
    ("play", {"cards": "SA", "seat": "N\x00"}),
    ("play", {"cards": "SA", "seat": "north"}),
    ("play", {"cards": "SA " * 5000}),
    ("play", {"cards": "S\x00A"}),
    ("play", {"cards": "SA", "throw_attempted": "SA SK", "throw_challenger": "Q", "throw_shown": "SA"}),
    ("play", {"cards": "SA", "throw_attempted": "SA SK", "throw_challenger": "", "throw_shown": "SA"}),
    ("play", {"cards": "SA", "throw_attempted": "SA " * 5000, "throw_challenger": "E", "throw_shown": "SA"}),
    ("play", {"cards": "SA", "throw_attempted": "SA SK", "throw_challenger": "E", "throw_shown": "S\x00A"}),
    ("kitty", {"kitty": "SA " * 5000}),
    ("kitty", {"kitty": "S3\x00"}),
    ("penalty", {"seat": "X", "code": "misplay"}),
    ("penalty", {"seat": "N", "code": "nope"}),
    ("penalty", {"seat": "N", "code": "misplay", "trick": "first"}),
    ("penalty", {"seat": "N", "code": "misplay", "trick": "9" * 5000}),
    ("penalty", {"seat": "N", "code": "misplay", "trick": "-3"}),
    ("penalty", {"seat": "N", "code": "misplay", "trick": "60"}),  # a two-deck deal has 25 tricks
    ("penalty", {"seat": "N", "code": "misplay", "note": "a\x00b"}),
    ("penalty", {"seat": "N", "code": "misplay", "note": "n" * 5000}),
    ("remove_penalty", {"penalty": "abc"}),
    ("remove_penalty", {"penalty": "1.5"}),
    ("remove_penalty", {"penalty": "-1"}),
    ("remove_penalty", {"penalty": "9" * 30}),
    ("remove_penalty", {"penalty": "9" * 5000}),
    ("remove_penalty", {"penalty": "١"}),  # an Arabic-Indic digit: int() reads it, the page never sends it
    ("undo", {"version": "one"}),
    ("undo", {"version": "9" * 5000}),
    ("undo", {"version": ""}),
    ("undo_trick", {"version": "1.0"}),
    ("submit", {"version": "\x00"}),
    ("confirm", {"version": "-0x1"}),
]


@pytest.mark.parametrize(("action", "fields"), HOSTILE_DEAL_FIELDS)
@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_a_hostile_field_of_a_deal_action_is_a_clear_400(deal, judge, action, fields, language):
    Penalty.objects.create(deal=deal, seat="W", code="misplay", note="kept", recorded_by=judge)
    before = saved(deal)
    body = {"version": deal.version, **fields}
    response = client_for(judge, language).post(deal_url(deal.pk, action), body, **JSON)
    assert response.status_code == 400, response.content[:300]
    data = response.json()
    assert data["ok"] is False and data["error"] == "refused"
    message = data["message"]
    assert message and "\x00" not in message and len(message) < 300
    assert bool(HAN.search(message)) is (language == "zh-hans"), message  # in the active language
    assert saved(deal) == before


@pytest.mark.parametrize(
    "fields",
    [{"cards": "SA", "seat": "X"}, {"penalty": "abc"}],
)
def test_a_page_posting_a_hostile_field_gets_the_message_on_the_page(deal, judge, fields):
    action = "play" if "cards" in fields else "remove_penalty"
    c = client_for(judge, "en")
    response = c.post(deal_url(deal.pk, action), {"version": deal.version, **fields})
    assert response.status_code == 302
    page = c.get(response["Location"]).content.decode()
    assert 'class="error"' in page


def test_the_td_reopening_with_a_nul_in_the_reason_is_refused(match, director):
    """The reason goes to the history table without a form: PostgreSQL cannot store NUL (a DataError)."""
    record = simulate_deal(match.round.tournament.ruleset, banker="N", level="2", seed=1)
    deal = records.record_deal(match, record, director)
    before = saved(deal)
    response = client_for(director, "en").post(
        reverse("deal-reopen", args=[deal.pk]),
        {"version": deal.version, "reason": "oops\x00"},
        **JSON,
    )
    assert response.status_code == 400 and "NUL" in response.json()["message"]
    assert saved(deal) == before and deal.state == Deal.State.CONFIRMED
    # Read back in Python: PostgreSQL refuses even a query parameter with NUL in it.
    assert all("\x00" not in (h.history_change_reason or "") for h in deal.history.all())


def test_a_recorded_deal_with_a_nul_in_a_penalty_note_is_refused(match, director):
    """``record_deal`` (the command, the simulator) stores penalty notes without a form."""
    record = simulate_deal(match.round.tournament.ruleset, banker="N", level="2", seed=1)
    record["penalties"] = [{"seat": "E", "code": "misplay", "note": "late\x00"}]
    with translation.override("en"), pytest.raises(RecordingError, match="NUL"):
        records.record_deal(match, record, director)
    assert not match.deals.exists() and not Penalty.objects.exists()


def test_a_fair_play_and_penalty_still_pass_the_boundary(deal, judge):
    c = client_for(judge, "en")
    url = reverse("deal-penalty", args=[deal.pk])
    response = c.post(url, {"version": deal.version, "seat": "N", "code": "misplay", "trick": "25"}, **JSON)
    assert response.status_code == 200, response.content[:300]
    deal.refresh_from_db()
    response = c.post(
        reverse("deal-play", args=[deal.pk]),
        {"version": deal.version, "cards": "S3", "seat": "N"},
        **JSON,
    )
    assert response.status_code == 200 and deal.tricks.count() == 1
    penalty = deal.penalties.get()
    response = c.post(
        reverse("deal-remove-penalty", args=[deal.pk]),
        {"version": deal.version + 1, "penalty": str(penalty.pk)},
        **JSON,
    )
    assert response.status_code == 200 and not deal.penalties.exists()


@pytest.mark.parametrize("side", ["", "XX", "NS\x00", "N" * 5000])
def test_a_hostile_side_of_a_forfeit_is_a_message(match, director, side):
    c = client_for(director, "en")
    response = c.post(reverse("match-forfeit", args=[match.pk]), {"side": side})
    assert response.status_code == 302
    assert "Choose the side" in c.get(response["Location"]).content.decode()
    match.refresh_from_db()
    assert match.forfeited_by == ""


@pytest.mark.parametrize(
    ("url", "fields"),
    [
        ("new_deal", {"trump": "XX", "declarer": "N"}),
        ("new_deal", {"trump": "S", "declarer": "Q", "kitty": "S3"}),
        ("new_deal", {"trump": "S", "declarer": "N", "kitty": "S3\x00"}),
        ("new_deal", {"trump": "S", "declarer": "N", "kitty": "SA " * 5000}),
        ("quick_entry", {"trump": "S", "declarer": "N", "points": "9" * 5000, "kitty_points": "0"}),
        ("quick_entry", {"trump": "S", "declarer": "N", "points": "-5", "kitty_points": "0"}),
        (
            "quick_entry",
            {"trump": "S", "declarer": "N", "points": "40", "kitty_points": "0", "last_lead": "?"},
        ),
        (
            "quick_entry",
            {
                "trump": "S",
                "declarer": "N",
                "points": "40",
                "kitty_points": "0",
                "last_lead": "single",
                "penalty_code": "misplay",
                "penalty_seat": "N",
                "penalty_note": "x\x00",
            },
        ),
    ],
)
def test_hostile_new_deal_and_quick_entry_fields_are_form_errors(match, judge, url, fields):
    match.round.tournament.quick_entry_allowed = True
    match.round.tournament.save()
    response = client_for(judge, "en").post(reverse(url, args=[match.pk]), fields)
    assert response.status_code == 200
    assert "errorlist" in response.content.decode()
    assert not match.deals.exists()


# ------------------------------------------------------------------ hostile URLs and methods


@pytest.fixture
def production(settings):
    """The handlers Django uses when DEBUG is off (tests run with DEBUG on)."""
    settings.DEBUG = False


@pytest.mark.parametrize(
    ("method", "url", "status"),
    [
        ("get", "/deal/abc/", 404),
        ("get", "/deal/99999999999999999999999999/", 404),
        ("get", "/match/-1/", 404),
        ("get", "/match/1e5/", 404),
        ("post", "/deal/{deal}/nope/", 404),
        ("post", "/deal/{deal}/DROP%20TABLE/", 404),
        ("post", "/match/{match}/nope/", 404),
        ("post", "/deal/%00/play/", 404),
        ("get", "/deal/{deal}/play/", 405),
        ("get", "/match/{match}/forfeit/", 405),
        ("put", "/deal/{deal}/", 405),
        ("delete", "/deal/{deal}/state/", 405),
        ("get", "/t/spring/pairs/99999999999999999999999/", 404),
        ("get", "/t/nope/", 404),
    ],
)
def test_hostile_urls_get_the_sites_styled_pages(production, deal, judge, method, url, status):
    url = url.format(deal=deal.pk, match=deal.match_id)
    c = client_for(judge, "en")
    response = getattr(c, method)(url)
    assert response.status_code == status
    html = response.content.decode()
    assert 'class="site-header"' in html and '<html lang="en">' in html
    if status == 405:
        assert response.has_header("Allow")
    json_response = getattr(c, method)(url, **JSON)
    assert json_response.status_code == status
    assert json_response.json()["ok"] is False and json_response.json()["message"]


def test_an_unreadable_body_is_the_sites_400(production, deal, judge):
    response = client_for(judge, "en").generic(
        "POST",
        reverse("deal-play", args=[deal.pk]),
        b"--x\r\nbroken",
        content_type="multipart/form-data; boundary=",
    )
    assert response.status_code == 400
    assert 'class="site-header"' in response.content.decode()


def test_the_500_page_is_the_sites_own(production, rf):
    from referee.error_pages import server_error

    html = server_error(rf.get("/")).content.decode()
    assert 'class="site-header"' in html and "site.css" in html


def test_the_500_page_is_drawn_even_when_its_stylesheet_is_not_collected(production, rf, settings, tmp_path):
    """The manifest (``collectstatic``) lacked the stylesheet: the 500 page failed, so Django logged nothing."""
    from referee.error_pages import server_error

    settings.STATIC_ROOT = tmp_path
    manifest = "django.contrib.staticfiles.storage.ManifestStaticFilesStorage"
    settings.STORAGES = {**settings.STORAGES, "staticfiles": {"BACKEND": manifest}}
    with translation.override("zh-hans"):
        response = server_error(rf.get("/"))
    html = response.content.decode()
    assert response.status_code == 500 and 'class="site-header"' in html and "site.css" not in html
    assert "服务器出错。之前已保存的内容不会丢失；请重试。" in html


# ------------------------------------------------------------------ fuzz: no body gives a 500

TEXT = st.one_of(
    st.text(max_size=30),
    st.sampled_from(
        ["", "N", "W", "S", "E", "NS", "EW", "SA", "S3 S3", "misplay", "1", "0", "-1", "NT", "\x00"]
    ),
    st.integers(min_value=-(10**30), max_value=10**30).map(str),
    st.just("9" * 5000),
    st.just("SA " * 400),
    st.text(alphabet="\x00\u202e\ufeff♠♥大王🀄", max_size=20),
)
KEYS = st.one_of(
    st.sampled_from(
        [
            "version",
            "cards",
            "seat",
            "throw_attempted",
            "throw_challenger",
            "throw_shown",
            "force",
            "kitty",
            "code",
            "trick",
            "note",
            "penalty",
            "reason",
            "next",
            "side",
            "trump",
            "declarer",
            "points",
            "kitty_points",
            "attackers_won_last",
            "last_lead",
            "penalty_seat",
            "penalty_code",
            "penalty_note",
        ]
    ),
    st.text(min_size=1, max_size=10),
)
BODIES = st.dictionaries(KEYS, TEXT, max_size=8)
FUZZ = settings(
    max_examples=fuzz_examples(60),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def no_crash(response) -> None:
    assert response.status_code < 500, response.content[:500]


@pytest.mark.parametrize("action", sorted(DEAL_ACTIONS))
def test_fuzz_deal_actions(deal, judge, action):
    c = client_for(judge)
    url = deal_url(deal.pk, action)

    @FUZZ
    @given(body=BODIES, as_json=st.booleans(), fresh=st.booleans())
    def post(body, as_json, fresh):
        if fresh and "version" not in body:
            body = {**body, "version": str(Deal.objects.get(pk=deal.pk).version)}
        no_crash(c.post(url, body, **(JSON if as_json else {})))

    post()


@pytest.mark.parametrize("action", sorted(MATCH_ACTIONS))
def test_fuzz_match_actions(match, director, action):
    c = client_for(director)
    url = match_url(match.pk, action)

    @FUZZ
    @given(body=BODIES)
    def post(body):
        no_crash(c.post(url, body))

    post()


@pytest.mark.parametrize("name", ["new_deal", "quick_entry"])
def test_fuzz_new_deal_and_quick_entry(match, judge, name):
    match.round.tournament.quick_entry_allowed = True
    match.round.tournament.save()
    c = client_for(judge)
    url = reverse(name, args=[match.pk])

    @FUZZ
    @given(body=BODIES, declare=st.booleans())
    def post(body, declare):
        if declare:
            body = {
                "trump": "S",
                "declarer": "N",
                "points": "40",
                "kitty_points": "0",
                "last_lead": "single",
                **body,
            }
        no_crash(c.post(url, body))
        Deal.objects.filter(match=match).delete()  # every example starts a match with no deal

    post()


def test_fuzz_json_bodies(deal, judge):
    """A program posting JSON instead of form fields: the fields are missing, the answer is a 400."""
    c = client_for(judge)
    url = reverse("deal-play", args=[deal.pk])
    values = st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
        max_leaves=10,
    )

    @FUZZ
    @given(body=values)
    def post(body):
        import json

        response = c.post(url, json.dumps(body), content_type="application/json", **JSON)
        assert response.status_code == 400

    post()


# ------------------------------------------------------------------ the first-run page (anyone, on an empty site)


def test_the_first_run_page_refuses_every_hostile_body_in_chinese_and_makes_no_account(production):
    """Anyone on the hall's network reaches it before the director's account exists."""
    c = Client(raise_request_exception=False)
    page = c.get(reverse("setup")).content.decode()
    [(path, form)] = [
        (path, form) for path, form in forms_of(reverse("setup"), page) if path == reverse("setup")
    ]
    assert {"username", "password1", "password2"} <= set(form.fields)
    check = Sweep(unchanged=lambda: not get_user_model().objects.exists())
    for label, kwargs in bodies(form):
        check.request(c, "anonymous", "post", path, label, **kwargs)
    check.check()


# --- issue 29's 500s: a digit int() refuses, and two requests that create one thing at once -----------------


@pytest.mark.parametrize("page", ["desk-table-cards", "desk-score-sheets"])
def test_a_table_number_that_is_a_superscript_digit_is_the_whole_round(match, director, page):
    c = Client()
    c.force_login(director)
    url = reverse(page, args=[match.round.tournament.slug, match.round.number])
    assert c.get(url + "?table=²").status_code == 200


def test_a_posted_match_that_is_a_superscript_digit_is_no_table(match, director):
    c = Client()
    c.force_login(director)
    url = reverse("desk-issue-cards", args=[match.round.tournament.slug, match.round.number])
    assert c.post(url, {"match": "²"}).status_code == 404


@pytest.mark.parametrize("create", ["create_judge", "create_director_account"])
def test_a_double_tapped_new_account_is_refused_as_taken_not_a_500(db, monkeypatch, create):
    """Both taps pass the check before either commits; PostgreSQL's unique index then refused the second."""
    from tournaments.people import accounts as people
    from tournaments.people.errors import PeopleError

    getattr(people, create)("twice")
    monkeypatch.setattr(people, "require_free", lambda username: None)  # as the second tap found it
    with pytest.raises(PeopleError) as refused:
        getattr(people, create)("twice")
    assert refused.value.status == 409 and "twice" in refused.value.message


def test_two_series_of_one_address_saved_at_once_get_two_addresses(db, monkeypatch):
    """The second found the address free before the first committed: a unique violation, a 500. (Two names that
    read alike in pinyin share an address; one name twice is refused: tests/table/test_double_rulings.py.)"""
    from tournaments.season import services as season

    first = season.save_series("春季联赛", [10, 8], None, True, [])
    real = season.unique_slug
    answers = iter([first.slug])
    monkeypatch.setattr(season, "unique_slug", lambda name, model: next(answers, None) or real(name, model))
    second = season.save_series("春季连赛", [10, 8], None, True, [])
    assert second.slug != first.slug and second.pk != first.pk
