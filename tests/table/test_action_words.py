"""Every table action says what went in (issue 30 item 7: each said only 已保存): the page's message after a
form post, and the trick-entry script's words for the same actions, in the active language."""

from __future__ import annotations

import pytest
from django.utils import translation

from referee.table.recording import deal_entry
from referee.table.screens.labels import done_words, entry_labels
from tests.action_urls import deal_url
from tests.table.helpers import as_user, confirmed_deal
from tournaments.scoring import corrections


def posted(client, deal, action: str, **fields):
    """A form post of a deal action (not the script's JSON), followed to the page it lands on."""
    deal.refresh_from_db()
    fields["version"] = deal.version
    return client.post(deal_url(deal.pk, action), fields, follow=True)


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


@pytest.fixture
def submitted(match, judge, director):
    """Deal 1 confirmed, reopened by the director and submitted again by the table's judge."""
    deal = confirmed_deal(match, director)
    corrections.reopen_deal(deal, director, version=deal.version, reason="check the kitty")
    deal.refresh_from_db()
    deal_entry.submit_deal(deal, judge, version=deal.version)
    deal.refresh_from_db()
    return deal


def test_a_confirmation_and_a_reopening_each_say_what_was_done_in_chinese(submitted, director):
    client = as_user(director)
    assert "本局已确认。" in messages_of(posted(client, submitted, "confirm"))
    assert "本局已重新打开。" in messages_of(posted(client, submitted, "reopen", reason="复核底牌"))


def test_a_confirmation_says_what_was_done_in_english(submitted, director):
    client = as_user(director)
    client.cookies["django_language"] = "en"
    assert "The deal is confirmed." in messages_of(posted(client, submitted, "confirm"))


def test_the_entry_script_words_each_action_apart_and_in_chinese_by_default():
    with translation.override("zh-hans"):
        labels = entry_labels()
        words = done_words()
        assert {f"stored_{action}": sentence for action, sentence in words.items()}.items() <= labels.items()
    assert len(set(words.values())) == len(words)  # no two actions say the same thing
    assert "已保存。" not in words.values()
    assert all(not any("a" <= ch <= "z" for ch in sentence) for sentence in words.values())
