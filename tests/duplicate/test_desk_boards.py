"""The desk's side of a duplicate, as client tests on a 4-pair session (2 tables, 1 round of 2 boards): the setup
form, dealing, marking, importing a bad file, artificial scores, who may do them, and a record that is not the
board's refused."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from referee.table.recording.records import record_deal
from rules.simulate import simulate_from_hands
from tests.desk.helpers import settings_data
from tournaments.checkin.forfeits import publish_round
from tournaments.competition.accounts import create_director
from tournaments.duplicate.dealing import boards_file, deal_session
from tournaments.duplicate.movement import boards_of
from tournaments.models import Board, DuplicateEvent, Match, Pair, Player, Tournament
from tournaments.pairing.services import pair_round
from tournaments.scoring.errors import RecordingError

pytestmark = pytest.mark.django_db
ZH = {"accept-language": "zh-hans"}


@pytest.fixture
def director():
    return create_director("dup-desk-td", "dup-desk-director-1")


@pytest.fixture
def session(director) -> Tournament:
    t = Tournament.objects.create(name="复式", slug="dup4", format=Tournament.Format.DUPLICATE, num_rounds=1)
    DuplicateEvent.objects.create(tournament=t, boards_per_round=2)
    for i in range(1, 5):
        Pair.objects.create(
            tournament=t, name=f"P{i}", player1=Player.objects.create(name=f"A{i}"),
            player2=Player.objects.create(name=f"B{i}"),
        )  # fmt: skip
    return t


def desk(director) -> Client:
    c = Client()
    c.force_login(director)
    return c


def test_the_setup_form_creates_a_duplicate_with_its_boards_a_round(director):
    data = settings_data(
        name="秋季复式", format="duplicate", num_rounds=3, movement="mitchell", boards_per_round=3, start_date=None,
        end_date=None,
    )  # fmt: skip
    response = desk(director).post("/tournaments/new/", data, headers=ZH)
    assert response.status_code == 302, response.content.decode()[-3000:]
    event = DuplicateEvent.objects.get(tournament__name="秋季复式")
    assert (event.movement, event.boards_per_round, event.tournament.format) == ("mitchell", 3, "duplicate")


def test_the_director_deals_and_marks_a_board_and_the_seed_stays_secret(director, session):
    c = desk(director)
    assert c.post("/t/dup4/desk/boards/deal/").status_code == 302
    page = c.get("/t/dup4/desk/boards/", headers=ZH).content.decode()
    boards = list(Board.objects.of(session).order_by("number"))
    assert len(boards) == 4 and all(b.short_fingerprint in page for b in boards)
    seed = DuplicateEvent.objects.get(tournament=session).seed
    assert len(seed) == 64 and seed not in page  # secret until the session is over
    drawn, before = boards[0].trump, boards[0].fingerprint
    assert c.post("/t/dup4/desk/boards/1/mark/", {"trump": "called"}).status_code == 302
    boards[0].refresh_from_db()
    assert (boards[0].trump, boards[0].fallback) == ("called", drawn) and boards[0].fingerprint != before


def test_a_boards_file_with_one_altered_card_is_refused_naming_the_board_in_chinese(director, session):
    deal_session(session, director)
    data = boards_file(session).as_dict()
    hands = data["boards"][2]["hands"]  # board 3: North's first card and West's first card change hands
    n, w = hands["N"].split(), hands["W"].split()
    i, j = next((a, b) for a, x in enumerate(n) for b, y in enumerate(w) if x != y)
    n[i], w[j] = w[j], n[i]
    hands["N"], hands["W"] = " ".join(sorted(n)), " ".join(sorted(w))
    upload = SimpleUploadedFile("boards.json", json.dumps(data).encode(), "application/json")
    response = desk(director).post("/t/dup4/desk/boards/import/", {"file": upload}, headers=ZH, follow=True)
    assert "第3副牌被拒绝" in response.content.decode()


def test_an_artificial_score_finishes_the_tables_round_and_a_judge_may_not_give_one(director, session):
    deal_session(session, director)
    rnd = pair_round(session, 1)
    publish_round(rnd)
    match = Match.objects.get(round=rnd, table=1)
    judge = get_user_model().objects.create_user("dup-judge", password="dup-judge-pass-1")
    for n, board in enumerate(boards_of(match)):
        post = {"match": match.pk, "board": board.pk, "ns_fault": "none", "ew_fault": "at_fault"}
        refused = desk(judge).post("/t/dup4/desk/boards/artificial/", post)
        assert refused.status_code == 403 and match.artificial_scores.count() == n
        assert desk(director).post("/t/dup4/desk/boards/artificial/", post).status_code == 302
    match.refresh_from_db()
    assert match.state == Match.State.FINISHED and match.ended_by == Match.EndedBy.BOARDS


def test_a_record_where_a_seat_plays_another_hand_is_refused_naming_the_seat(director, session):
    deal_session(session, director)
    rnd = pair_round(session, 1)
    publish_round(rnd)
    match = Match.objects.get(round=rnd, table=2)
    board = boards_of(match)[0].engine_board
    hands = dict(board.hands)
    hands["E"], hands["W"] = hands["W"], hands["E"]  # East and West hold each other's cards
    record = simulate_from_hands(
        "standard", hands, board.kitty, banker=board.banker, level=board.level,
        trump=board.fallback or board.trump, seed=1,
    )  # fmt: skip
    with pytest.raises(RecordingError) as refused:
        record_deal(match, record, director)
    assert "did not play the board's hand" in refused.value.message or "打出的不是" in refused.value.message


@pytest.mark.parametrize("who", ["anonymous", "judge", "director"])
def test_only_the_director_downloads_and_imports_a_venues_results_file(director, session, who):
    deal_session(session, director)
    c = Client()
    if who == "judge":
        c.force_login(get_user_model().objects.create_user("dup-judge", password="dup-judge-pass-1"))
    elif who == "director":
        c.force_login(director)
    exported = c.get("/t/dup4/desk/boards/results.json")
    other = json.loads(desk(director).get("/t/dup4/desk/boards/results.json").content)
    other["venue"] = "乙馆"  # another venue that played the same boards (none played yet)
    upload = SimpleUploadedFile("b.json", json.dumps(other).encode(), content_type="application/json")
    c.post("/t/dup4/desk/boards/results/import/", {"file": upload}, headers=ZH)
    imported = list(session.venue_results.values_list("venue", flat=True))
    if who == "director":
        assert exported.status_code == 200 and json.loads(exported.content)["format"] == "tractor-results/1"
        assert imported == ["乙馆"]
        page = c.get("/t/dup4/desk/boards/", headers=ZH).content.decode()
        assert "乙馆" in page and 'data-testid="other-venues"' in page
    else:
        assert exported.status_code in (302, 403) and imported == []
