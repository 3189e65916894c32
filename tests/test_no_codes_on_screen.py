"""Nothing on screen in codes or letters: every page of the judge's flow, in Chinese and in English, says words —
no violation, penalty, preset, state or outcome code, no lone seat letter (N, W, S, E), side (NS, EW) or trump
code — and a card the notation cannot read is one sentence in the judge's language naming the bad token."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from html.parser import HTMLParser

import pytest
from django.db import transaction
from django.test import Client
from django.urls import reverse
from django.utils import translation

from rules.messages import _TEMPLATES as VIOLATION_TEMPLATES
from rules.ruleset import PRESETS
from rules.scoring import PENALTY_CODES, PENALTY_FOR_VIOLATION
from tests.scenes import build_scene
from tournaments.competition import display
from tournaments.competition.accounts import create_director
from tournaments.models import PENALTY_LABELS, Deal, Match
from tournaments.scoring.quick_totals import LAST_LEADS

pytestmark = pytest.mark.django_db

LANGS = {"zh": "zh-hans", "en": "en"}
VIOLATION_CODES = sorted(set(VIOLATION_TEMPLATES) | set(PENALTY_FOR_VIOLATION))
OUTCOMES = ("banker_holds", "takeover", "match_won")
CODES = sorted(
    {
        *VIOLATION_CODES,
        *PENALTY_CODES,
        *PRESETS,
        *Deal.State.values,
        *Match.State.values,
        *Match.EndedBy.values,
        *OUTCOMES,
        *LAST_LEADS,
    }
)
# A seat, a side or a trump written as its code: a token standing alone (not part of a word or of a card).
LONE = re.compile(r"(?<![A-Za-z0-9_♠♥♣♦-])(N|W|S|E|NS|EW|NT|H|C|D)(?![A-Za-z0-9_-])")


def code_leaks(text: str, lang: str) -> list[str]:
    """Internal codes in visible text. In English a code that is itself plain English (``revoke``, ``recording``)
    says the right thing, so only codes no one writes in prose (``revoke_suit``, ``jj-competition``) count."""
    found = []
    for code in CODES:
        if lang == "en" and "_" not in code and "-" not in code:
            continue
        if re.search(rf"(?<![A-Za-z_-]){re.escape(code)}(?![A-Za-z_-])", text):
            found.append(code)
    return found


def lone_seats(text: str) -> list[str]:
    """Lone seat letters, side codes or trump codes, with a little context to find them."""
    return [text[max(m.start() - 12, 0) : m.end() + 12] for m in LONE.finditer(text)]


class Visible(HTMLParser):
    """The text a reader sees: text outside scripts and styles, button and field words, hover titles."""

    SKIP = {"script", "style", "head", "template"}

    def __init__(self) -> None:
        super().__init__()
        self.depth = 0
        self.parts: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag in self.SKIP:
            self.depth += 1
        if tag == "input" and a.get("type") in ("submit", "button", "reset") and a.get("value"):
            self.parts.append(a["value"])
        for key in ("title", "aria-label", "placeholder"):
            if a.get(key):
                self.parts.append(a[key])

    def handle_endtag(self, tag):
        if tag in self.SKIP:
            self.depth -= 1

    def handle_data(self, data):
        if not self.depth and data.strip():
            self.parts.append(data.strip())


def visible(html: str) -> str:
    parser = Visible()
    parser.feed(html)
    return "\n".join(parser.parts)


# The deal state's words: what the trick-entry script puts on screen (codes beside them are for the script).
SHOWN_KEYS = {"name", "player", "face", "short", "state_label", "trump_label", "label", "level"}


def shown_in_state(value, key: str = "") -> Iterator[str]:
    if isinstance(value, dict):
        for k, v in value.items():
            yield from shown_in_state(v, k)
    elif isinstance(value, list):
        for v in value:
            yield from shown_in_state(v, key)
    elif isinstance(value, str) and key in SHOWN_KEYS:
        yield value


@pytest.fixture(scope="module")
def scene(django_db_setup, django_db_blocker):
    """Built once for the module (its tests only read it, or are refused) in a transaction each test's own nests
    in, rolled back after the last."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield build_scene()
        transaction.set_rollback(True)


def judge_client(scene, lang: str) -> Client:
    c = Client()
    c.force_login(scene.judge)
    c.cookies["django_language"] = LANGS[lang]
    return c


def pages(scene) -> dict[str, str]:
    slug = scene.tournament.slug
    return {
        "match": reverse("match", args=[scene.played.pk]),
        "match without deals": reverse("match", args=[scene.fresh.pk]),
        "new deal": reverse("new_deal", args=[scene.fresh.pk]),
        "deal entry": reverse("deal", args=[scene.open_deal.pk]),
        "deal entry, all tricks": reverse("deal", args=[scene.complete_deal.pk]),
        "review": reverse("review", args=[scene.open_deal.pk]),
        "review, confirmed": reverse("review", args=[scene.confirmed.pk]),
        "quick entry": reverse("quick_entry", args=[scene.fresh.pk]),
        "deal log": reverse("deal-log", args=[slug, scene.played.pk]),
        "tournament": reverse("tournament", args=[slug]),
        "round": reverse("round", args=[slug, 1]),
        "results": reverse("results", args=[slug]),
        "standings": reverse("standings", args=[slug]),
    }


@pytest.mark.parametrize("lang", LANGS)
def test_every_page_of_the_judges_flow_says_words(scene, lang):
    c = judge_client(scene, lang)
    for name, url in pages(scene).items():
        response = c.get(url)
        assert response.status_code == 200, name
        text = visible(response.content.decode())
        assert not code_leaks(text, lang), (name, code_leaks(text, lang))
        assert not lone_seats(text), (name, lone_seats(text))


@pytest.mark.parametrize("lang", LANGS)
def test_the_directors_match_page_says_words_too(scene, lang):
    """The TD's match page adds the history of changes: plays, tricks and penalties in words as well."""
    c = judge_client(scene, lang)
    c.force_login(create_director("td", "director-pass-1"))
    html = c.get(reverse("match", args=[scene.played.pk])).content.decode()
    assert 'class="history"' in html
    text = visible(html)
    assert not code_leaks(text, lang), code_leaks(text, lang)
    assert not lone_seats(text), lone_seats(text)


@pytest.mark.parametrize("lang", LANGS)
def test_the_deal_state_the_script_draws_says_words(scene, lang):
    c = judge_client(scene, lang)
    for deal in (scene.open_deal, scene.complete_deal, scene.confirmed):
        state = c.get(reverse("deal_state", args=[deal.pk])).json()
        page = c.get(reverse("deal", args=[deal.pk])).content.decode()
        labels = json.loads(
            re.search(r'<script id="deal-labels" type="application/json">(.*?)</script>', page)[1]
        )
        words = list(shown_in_state(state))
        assert words
        for text in [*words, *labels.values()]:
            assert not code_leaks(text, lang), text
            assert not lone_seats(text), text


@pytest.mark.parametrize("lang", LANGS)
def test_the_review_names_violations_and_penalties_in_words(scene, lang):
    text = visible(
        judge_client(scene, lang).get(reverse("review", args=[scene.open_deal.pk])).content.decode()
    )
    with translation.override(LANGS[lang]):
        assert display.violation_name("revoke_suit") in text
        assert str(PENALTY_LABELS["revoke"]) in text
    assert ("跟错" if lang == "zh" else "revoke") in text


@pytest.mark.parametrize(
    "lang, words",
    [("zh", ("“XZ”", "牌")), ("en", ("“XZ”", "card"))],
)
def test_an_unreadable_card_is_one_sentence_naming_it(scene, lang, words):
    c = judge_client(scene, lang)
    deal = scene.open_deal
    deal.refresh_from_db()
    response = c.post(
        reverse("deal-play", args=[deal.pk]),
        {"cards": "SA XZ", "version": deal.version},
        HTTP_ACCEPT="application/json",
    )
    assert response.status_code == 400
    message = response.json()["message"]
    for word in words:
        assert word in message, message
    assert "cannot read card" not in message  # the engine's English stays in the engine
    assert len(re.findall(r"[.。!！?？]", message)) == 1 and message[-1] in ".。", message
    if lang == "zh":
        assert not re.search(r"[A-Za-z]{3,}", message), message


def test_every_code_has_words_in_both_languages():
    for lang in LANGS.values():
        with translation.override(lang):
            for code in VIOLATION_CODES:
                assert display.violation_name(code) and display.violation_name(code) != code
            for name in PRESETS:
                assert display.preset_name(name) and display.preset_name(name) != name
    with translation.override("zh-hans"):
        assert display.violation_name("revoke_suit") == "跟错（未跟花色）"
        assert display.preset_name("standard") == "标准规则"
