"""Printed boards (issue 40 item 2): a dealing sheet a board (the four hands in canonical order, the kitty, the
fingerprint's first 8 digits), board labels and each table's movement card; the director's alone until the
session is over. And the table's pages around a board: the board page, the table link, a fouled board's call."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from referee.table.recording import boards
from rules.movement import mitchell
from tests.table.board_scene import build_board_scene
from tests.table.helpers import as_user, key
from tournaments.calls import rulings as call_rulings
from tournaments.competition.accounts import create_director
from tournaments.models import ArtificialScore, Deal, TableCall

pytestmark = pytest.mark.django_db

PAGES = ("board-dealing-sheets", "board-labels", "board-movement-cards")


@pytest.fixture
def scene():
    return build_board_scene()


@pytest.fixture
def td(scene):
    return create_director("td", "director-pass-1")


def get(user, name, scene, language="zh-hans"):
    client = as_user(user)
    client.cookies["django_language"] = language
    return client.get(reverse(name, args=[scene.tournament.slug]))


@pytest.mark.parametrize("name", PAGES)
def test_the_printed_boards_are_the_directors_until_the_session_is_over(scene, td, name):
    assert get(td, name, scene).status_code == 200
    assert get(scene.judge, name, scene).status_code == 403
    assert get(None, name, scene).status_code in (403, 302)
    scene.tournament.finished_at = timezone.now()  # the session is over: anyone who may read it may print
    scene.tournament.save(update_fields=["finished_at"])
    assert get(scene.judge, name, scene).status_code == 200


def test_a_dealing_sheet_a_board_shows_its_hands_in_deck_order_kitty_and_short_fingerprint(scene, td):
    page = get(td, "board-dealing-sheets", scene).content.decode()
    assert page.count('class="print-page deal-sheet"') == 8
    board = scene.boards[3]
    assert board.fingerprint[:8] in page and board.fingerprint[8:16] not in page
    spades = [t[1:].replace("T", "10") for t in board.hands["N"].split() if t[0] == "S"]
    assert "♠ " + " ".join(spades) in page  # the hand's spades low to high, in deck order
    for seat in ("北", "西", "南", "东"):
        assert f"<h3>{seat}</h3>" in page


def test_each_tables_movement_card_follows_the_mitchell_round_by_round(scene, td):
    page = get(td, "board-movement-cards", scene, "en").content.decode()
    rounds = mitchell(4, 2)
    assert page.count('class="print-page movement-card"') == 4
    for row in rounds:
        for s in row:
            assert f'<tr data-round="{s.round}"><td>{s.round}</td><td>{s.table}</td>' in page
    first = rounds[0][0]
    assert f"<td>{first.boards[0]}, {first.boards[1]}</td>" in page


def test_the_board_page_and_the_table_link_open_the_current_board(scene):
    client = as_user(scene.judge)
    page = client.get(reverse("board", args=[scene.match.pk]))
    assert page.status_code == 200 and scene.boards[1].fingerprint[:8] in page.content.decode()
    assert as_user(scene.other_judge).get(reverse("board", args=[scene.match.pk])).status_code in (403, 404)
    answer = client.post(
        reverse("board", args=[scene.match.pk]), {"board": "1", "checked": "1", "idempotency_key": key()}
    )
    deal = Deal.objects.get(match=scene.match)
    assert answer.status_code == 302 and answer["Location"] == reverse("deal", args=[deal.pk])
    assert client.get(reverse("board", args=[scene.match.pk]))["Location"] == reverse("deal", args=[deal.pk])


@pytest.mark.parametrize("hostile", ["abc", "99999999999", "-1", "2", "１", "1\x00"])
def test_a_board_number_not_the_current_boards_is_refused_in_a_sentence(scene, hostile):
    client = as_user(scene.judge)
    client.cookies["django_language"] = "en"
    fields = {"board": hostile, "checked": "1", "idempotency_key": key()}
    answer = client.post(reverse("board", args=[scene.match.pk]), fields)
    assert answer.status_code == 409 and b"Board 1 is the board to play now" in answer.content
    assert not Deal.objects.exists()


def test_a_fouled_board_is_a_referee_call_and_the_ruling_scores_it_apart(scene, td):
    boards.start_board(scene.match, scene.judge, board_number=1, checked=True)
    client = as_user(scene.judge)
    client.post(reverse("table-call", args=[scene.match.pk]), {"reason": "fouled", "note": "北家 24 张"})
    call = TableCall.objects.get(match=scene.match)
    assert call.board == scene.boards[1] and call.reason == TableCall.Reason.FOULED
    call_rulings.resolve(call, td, ruling="污牌，本桌另计", action=TableCall.Action.FOULED)
    score = ArtificialScore.objects.get(match=scene.match, board=scene.boards[1])
    assert score.fouled and not Deal.objects.filter(match=scene.match, board=scene.boards[1]).exists()
    assert boards.current_board(scene.match) == scene.boards[2]


def test_a_table_of_another_format_cannot_call_a_fouled_board(match):
    answer = as_user(match.judge).post(reverse("table-call", args=[match.pk]), {"reason": "fouled"})
    assert answer.status_code == 302 and not TableCall.objects.exists()
