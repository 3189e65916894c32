"""Traditional Chinese (zh-hant): its catalogue is made from the zh-hans one by ``manage.py make_zh_hant`` and kept
in step with it, the card terms come out as reviewed, and a page in zh-hant shows no simplified-only character."""

from __future__ import annotations

import re

import polib
import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from lxml import html as lxml_html

from referee.table.recording.words import violation_message
from referee.traditional import (
    SIMPLIFIED,
    TRADITIONAL,
    catalogue_text,
    converter,
    kept_characters,
    overrides,
    to_traditional,
)
from tests.desk.helpers import play
from tournaments.models import Match, Pair, Player, Round, Tournament

CJK = re.compile(r"[\u4e00-\u9fff]")


def simplified_only(text: str) -> set[str]:
    """The characters OpenCC would change (simplified forms), but for those the reviewed terms keep."""
    kept = kept_characters()
    return {ch for ch in set(CJK.findall(text)) if converter().convert(ch) != ch and ch not in kept}


def test_the_zh_hant_catalogue_is_what_make_zh_hant_makes_of_the_zh_hans_one():
    assert TRADITIONAL.read_text(encoding="utf-8") == catalogue_text(), (
        "locale/zh_Hant is out of step with locale/zh_Hans: run `manage.py make_zh_hant` and compilemessages"
    )


def test_the_zh_hant_catalogue_translates_every_entry_of_the_zh_hans_one_in_traditional_characters():
    simplified, traditional = polib.pofile(str(SIMPLIFIED)), polib.pofile(str(TRADITIONAL))
    assert {e.msgid for e in traditional} == {e.msgid for e in simplified}
    assert not traditional.untranslated_entries()
    left = {e.msgid: simplified_only(e.msgstr) for e in traditional if simplified_only(e.msgstr)}
    assert not left, left


@pytest.mark.parametrize(
    ("simplified", "traditional"),
    [
        ("拖拉机：主牌、扣底、庄家和闲家", "拖拉機：主牌、扣底、莊家和閒家"),
        ("本轮仍是草稿：裁判长发布对阵后才能录入。", "本輪仍是草稿：裁判長發布對陣後才能錄入。"),
        ("请在记分台用这台设备登录账号", "請在記分台用這台設備登錄帳號"),
        ("红桃、方块、级牌、甩牌；十分钟", "紅桃、方塊、級牌、甩牌；十分鐘"),
    ],
)
def test_the_card_and_site_terms_come_out_as_reviewed(simplified, traditional):
    assert to_traditional(simplified) == traditional
    assert set(overrides()) >= {"拖拉机", "主牌", "扣底"}


def test_the_engines_chinese_messages_are_in_traditional_characters_on_a_zh_hant_page():
    violation = {"message": "N held ♠A but did not follow spades", "message_zh": "N持有 ♠A，却没有跟出黑桃"}
    with translation.override("zh-hant"):
        text = violation_message(violation)
    assert text == "北家持有 ♠A，卻沒有跟出黑桃" and not simplified_only(text)
    with translation.override("zh-hans"):
        assert violation_message(violation) == "北家持有 ♠A，却没有跟出黑桃"


@pytest.fixture
def traditional_event(db, director):
    """A tournament named in traditional characters: two rounds, one finished, one under way."""
    t = Tournament.objects.create(name="香港公開賽", slug="hk-open", ruleset={"preset": "standard"})
    pairs = [
        Pair.objects.create(
            tournament=t, name=f"隊{n}", player1=Player.objects.create(name=f"陳{n}"),
            player2=Player.objects.create(name=f"黃{n}"), seed=n,
        )
        for n in range(1, 5)
    ]  # fmt: skip
    r1 = Round.objects.create(tournament=t, number=1, state=Round.State.FINISHED)
    play(r1, 1, pairs[0], pairs[1], pairs[0], "5", "2")
    play(r1, 2, pairs[2], pairs[3], None, "4", "4")
    r2 = Round.objects.create(tournament=t, number=2, state=Round.State.PUBLISHED)
    Match.objects.create(round=r2, table=1, pair_ns=pairs[0], pair_ew=pairs[2], state=Match.State.IN_PROGRESS)
    return t


def page_text(content: bytes) -> str:
    """What a reader sees and hears: the text and the titles, labels and placeholders, but for the parts marked
    as another language (the switch's 简体中文)."""
    tree = lxml_html.fromstring(content)
    for node in tree.xpath('//body//*[@lang and @lang != "zh-hant"] | //script | //style'):
        node.drop_tree()
    attributes = tree.xpath("//@title | //@aria-label | //@placeholder | //@alt")
    return tree.text_content() + " ".join(attributes)


@pytest.mark.django_db
def test_a_tournaments_public_pages_in_zh_hant_have_no_simplified_only_text(traditional_event):
    t = traditional_event
    client = Client()
    client.cookies["django_language"] = "zh-hant"
    urls = [
        reverse("home"),
        reverse("login"),
        reverse("tournament", args=[t.slug]),
        reverse("standings", args=[t.slug]),
        reverse("round", args=[t.slug, 1]),
        reverse("results", args=[t.slug]),
        reverse("tournament", args=["no-such-event"]),
    ]
    for url in urls:
        response = client.get(url)
        assert response.status_code in (200, 404), url
        assert response.content.decode().count('lang="zh-hant"') >= 1, url
        text = page_text(response.content)
        assert CJK.search(text), url
        assert not simplified_only(text), (url, simplified_only(text))


@pytest.mark.django_db
def test_the_language_switch_offers_traditional_chinese_and_remembers_it(traditional_event):
    client = Client()
    home = client.get(reverse("home")).content.decode()
    assert 'value="zh-hant"' in home and "繁體中文" in home
    client.post(reverse("set_language"), {"language": "zh-hant", "next": "/"})
    assert '<html lang="zh-hant">' in client.get(reverse("home")).content.decode()
