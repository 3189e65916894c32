"""The server's side of the trick-entry page's offline journal: the winner the judge tapped offline checked
against the engine's (nothing written), a journal sent again in order stored once, and the service worker."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from rules.judge import judge as engine
from tests.table.helpers import act, as_user, key, posted_plays, simulated
from tournaments.models import Play, WriteReceipt

pytestmark = pytest.mark.django_db


def played(client, deal, record, n: int) -> None:
    """The record's first ``n`` plays, posted one by one with keys of their own."""
    for version, fields in enumerate(list(posted_plays(record))[:n]):
        answer = act(client, deal, "play", version=version, idempotency_key=key(), **fields)
        assert answer.status_code == 200, answer.json()["message"]


@pytest.fixture
def first_trick(deal, judge):
    """The judge's client, and the deal's record whose first trick is played; with its trick winners."""
    client = as_user(judge)
    record = simulated(deal)
    played(client, deal, record, 4)
    return client, [t.winner for t in engine(record).tricks]


def test_a_winner_tapped_offline_that_the_engine_agrees_with_is_answered_ok_and_writes_nothing(
    deal, first_trick
):
    client, winners = first_trick
    answer = act(client, deal, "winner", version=4, trick="0", seat=winners[0], idempotency_key=key())
    assert answer.status_code == 200
    body = answer.json()
    assert body["ok"] and body["agrees"] and body["winner"] == winners[0] and "notice" not in body
    deal.refresh_from_db()
    assert deal.version == 4 and body["state"]["deal"]["version"] == 4


def test_a_different_winner_comes_back_with_the_engines_and_a_one_sentence_notice(deal, first_trick):
    client, winners = first_trick
    english_client = Client()
    english_client.cookies["django_language"] = "en"
    english_client.force_login(deal.match.judge)
    wrong = next(seat for seat in "NWSE" if seat != winners[0])
    body = act(english_client, deal, "winner", version=4, trick="0", seat=wrong, idempotency_key=key()).json()
    assert body["ok"] and not body["agrees"] and body["winner"] == winners[0]
    names = {"N": "North", "W": "West", "S": "South", "E": "East"}
    assert body["notice"].startswith(f"Trick 1 was won by {names[winners[0]]}, not {names[wrong]}:")
    chinese = act(client, deal, "winner", version=4, trick="0", seat=wrong, idempotency_key=key()).json()
    assert chinese["notice"].startswith("第 1 墩由")


def test_the_winner_of_a_trick_not_finished_on_the_server_is_refused(deal, judge):
    client = as_user(judge)
    played(client, deal, simulated(deal), 3)
    answer = act(client, deal, "winner", version=3, trick="0", seat="N", idempotency_key=key())
    assert answer.status_code == 400
    assert "尚未出完" in answer.json()["message"]
    assert act(client, deal, "winner", version=3, trick="7", seat="N").status_code == 400


@pytest.mark.parametrize(
    "fields",
    [
        {"trick": "x", "seat": "N"},
        {"trick": "-1", "seat": "N"},
        {"trick": "1" * 40, "seat": "N"},
        {"trick": "0", "seat": "Q"},
        {"trick": "0"},
        {"seat": "N"},
        {},
    ],
)
def test_a_winner_posted_wrong_is_refused_in_one_sentence_never_a_500(deal, first_trick, fields):
    client, _winners = first_trick
    answer = act(client, deal, "winner", version=4, **fields)
    assert answer.status_code == 400
    assert answer.json()["message"].endswith("。")


def test_only_who_may_record_may_check_a_winner(deal, first_trick, make_judge):
    _client, winners = first_trick
    answer = act(as_user(make_judge("other")), deal, "winner", version=4, trick="0", seat=winners[0])
    assert answer.status_code == 403


def test_a_journal_sent_again_in_order_stores_each_play_once(deal, judge):
    """The device sends what it holds again (a reply lost, a reload): every key is answered from its receipt,
    whatever version the page now sends, and nothing is stored twice."""
    client = as_user(judge)
    sent = [(key(), fields) for fields in list(posted_plays(simulated(deal)))[:6]]
    for version, (k, fields) in enumerate(sent):
        assert act(client, deal, "play", version=version, idempotency_key=k, **fields).json()["ok"]
    for k, fields in sent:
        again = act(client, deal, "play", version=6, idempotency_key=k, **fields)
        assert again.status_code == 200 and again.json()["ok"]
    assert Play.objects.filter(trick__deal=deal).count() == 6
    assert WriteReceipt.objects.filter(user=judge, target=f"deal {deal.pk} play").count() == 6


def test_the_service_worker_is_served_at_the_root_for_the_whole_site_without_an_account(client):
    answer = client.get("/sw.js")
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/javascript")
    assert answer["Service-Worker-Allowed"] == "/"
    assert answer["Cache-Control"] == "no-cache"
    text = answer.content.decode()
    assert '"/static/js/deal.js"' in text and '"/static/js/journal.js"' in text
    assert 'var LOGOUT = "/logout/"' in text  # logging out forgets the pages kept
    assert reverse("service_worker") == "/sw.js"
    assert client.post("/sw.js").status_code == 405


def test_the_deal_page_loads_the_journal_and_its_words_before_the_entry_script(deal, judge):
    page = as_user(judge).get(reverse("deal", args=[deal.pk])).content.decode()
    assert page.index("js/journal.js") < page.index("js/deal.js")
    assert 'id="journal-labels"' in page and 'data-worker-url="/sw.js"' in page and 'id="journal-box"' in page
    words = json.loads(
        page.split('id="journal-labels" type="application/json">', 1)[1].split("</script>", 1)[0]
    )
    assert words["waiting"] == "等待发送：%(n)s 条"


def test_the_journals_words_on_the_deal_page_are_the_judges_language_english_too(deal, judge):
    """The journal's words (what the page shows beside a play kept on the device, a waiting seat's mark among
    them) come with the page in the judge's language: the browser's network-cut journey (test_table_done) walks
    the Chinese page only, so the English words are read here."""
    english = as_user(judge)
    english.cookies["django_language"] = "en"
    chinese = as_user(judge)
    words = {}
    for language, client in (("en", english), ("zh-hans", chinese)):
        page = client.get(reverse("deal", args=[deal.pk])).content.decode()
        words[language] = json.loads(
            page.split('id="journal-labels" type="application/json">', 1)[1].split("</script>", 1)[0]
        )
    assert words["en"]["unsent"] == "not sent yet" and words["zh-hans"]["unsent"] == "尚未发送"
    assert words["en"]["waiting"] == "Waiting to be sent: %(n)s"
    assert words["en"]["down"].startswith("No network: every entry is kept on this device")
