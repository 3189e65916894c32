"""The judge's guide (issue 21, item 9): one printable page at /help/judge/, in Chinese and in English, with a
picture of each entry screen in the reader's language (committed under static/help/, each under 60 KB), linked
from the trick-entry page and the match page."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from referee.table.views import HELP_PICTURES
from tests.table.helpers import as_user

HELP = Path(settings.BASE_DIR) / "static" / "help"


@pytest.mark.parametrize(
    ("lang", "title", "words"),
    [
        ("zh-hans", "裁判指南：在牌桌上记录一局", ["SAAK 即 ♠A ♠A ♠K", "ＳＡＡＫ", "PIN", "二维码"]),
        (
            "en",
            "Judge's guide: recording a deal at the table",
            ["SAAK is ♠A ♠A ♠K", "ＳＡＡＫ", "PIN", "QR code"],
        ),
    ],
)
def test_the_guide_renders_in_either_language_with_its_pictures(client, db, lang, title, words):
    client.cookies["django_language"] = lang
    response = client.get(reverse("judge-guide"))
    page = response.content.decode()
    assert response.status_code == 200 and title.split("guide")[-1] in page
    assert all(w in page for w in words)
    suffix = "zh" if lang.startswith("zh") else "en"
    for name in HELP_PICTURES:
        assert f"/static/help/{name}-{suffix}.png" in page
    assert "/static/css/help.css" in page


@pytest.mark.parametrize("name", [f"{n}-{s}.png" for n in HELP_PICTURES for s in ("zh", "en")])
def test_each_picture_is_a_committed_png_under_60_kb(name):
    path = HELP / name
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) < 60_000, f"{name}: {len(data)} bytes"


def test_the_entry_page_and_the_match_page_link_to_the_guide(deal, judge):
    c = as_user(judge)
    guide = reverse("judge-guide")
    assert f'href="{guide}">帮助</a>' in c.get(reverse("deal", args=[deal.pk])).content.decode()
    assert f'href="{guide}">帮助</a>' in c.get(reverse("match", args=[deal.match_id])).content.decode()


def test_the_guide_prints_on_one_a4_page_by_its_own_style():
    css = (Path(settings.BASE_DIR) / "static" / "css" / "help.css").read_text()
    assert "@page { size: A4;" in css and "@media print" in css
