"""A duplicate board at the table (RULES §14.2, §14.6): checked before it starts, its trump called when marked
``called``, the banker's buried cards held, every play judged against the board's hands — a card the seat does not
hold refused as entered, naming the card and the seat; a revoke saved and flagged at the play that commits it."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from referee.table.recording import boards, deal_entry
from referee.table.screens.deal_state import current_deal_state, deal_state
from rules.boards import deal_board
from rules.cards import CARD_TEXT, parse_cards
from rules.simulate import simulate_from_hands
from tests.table.board_scene import SEED, build_board_scene
from tests.table.helpers import JSON, as_user, key, play_through_service, record_play, with_a_revoke
from tournaments.models import Deal
from tournaments.scoring.errors import RecordingError

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def in_english():
    """The service's refusals read in English here (the site's default is Chinese; the page test checks both)."""
    with translation.override("en"):
        yield


@pytest.fixture
def scene():
    return build_board_scene()


def started(scene, number: int = 1) -> Deal:
    return boards.start_board(scene.match, scene.judge, board_number=number, checked=True)


def board_record(deal: Deal, seed: int = 3) -> dict:
    """A legal play of the deal's board from its hands (the banker buries at random)."""
    board = deal_board(SEED, deal.board.number)
    return simulate_from_hands(
        "standard",
        board.hands,
        board.kitty,
        banker=deal.banker,
        level=deal.level,
        trump=deal.trump,
        seed=seed,
    )


def with_kitty(deal: Deal, record: dict) -> Deal:
    return deal_entry.set_kitty(deal, deal.match.judge, record["kitty"], version=deal.version)


def test_a_board_starts_only_once_the_judge_confirms_the_check(scene):
    with pytest.raises(RecordingError, match="Check the board"):
        boards.start_board(scene.match, scene.judge, board_number=1, checked=False)
    deal = started(scene)
    board = scene.boards[1]
    assert (deal.board_id, deal.banker, deal.level, deal.trump) == (
        board.pk,
        board.banker,
        board.level,
        board.trump,
    )
    assert deal.start_levels == {"NS": board.level, "EW": board.level}


def test_a_page_drawn_for_another_board_or_a_second_start_is_refused(scene):
    with pytest.raises(RecordingError, match="Board 1 is the board to play now"):
        boards.start_board(scene.match, scene.judge, board_number=2, checked=True)
    started(scene)
    with pytest.raises(RecordingError, match="Finish and submit the board"):
        started(scene)


def test_a_called_board_takes_the_trump_the_round_of_shows_fixes(scene):
    first = started(scene)
    first.delete()  # board 2 (marked called) is the next once board 1 is gone from this table
    deal_board_1 = scene.boards[1]
    scene.match.deals.all().delete()
    board = scene.boards[2]
    from referee.table.screens.board_check import possible_shows

    order = boards.calling_order(board)
    options = {seat: possible_shows(board, seat) for seat in order}
    shower = next(seat for seat in order if options[seat])
    shows = [(seat, options[seat][0][0] if seat == shower else "") for seat in order]
    expected = boards.call_trump(
        board.banker, board.level, 2, board.fallback, [(s, parse_cards(c)) for s, c in shows]
    ).trump
    from tournaments.models import ArtificialScore

    ArtificialScore.objects.create(
        match=scene.match, board=deal_board_1
    )  # board 1 scored apart: board 2 is next
    deal = boards.start_board(scene.match, scene.judge, board_number=2, checked=True, shows=shows)
    assert deal.trump == expected and deal.trump_calls == [[s, c] for s, c in shows]


def test_a_show_of_cards_the_seat_does_not_hold_is_refused_naming_the_seat(scene):
    from tournaments.models import ArtificialScore

    ArtificialScore.objects.create(match=scene.match, board=scene.boards[1])
    board = scene.boards[2]
    order = boards.calling_order(board)
    held = set(parse_cards(board.hands[order[0]]))
    level_card = next(c for c in range(52) if CARD_TEXT[c][1] == board.level and c not in held)
    shows = [(seat, CARD_TEXT[level_card] if seat == order[0] else "") for seat in order]
    with pytest.raises(RecordingError, match="does not hold"):
        boards.start_board(scene.match, scene.judge, board_number=2, checked=True, shows=shows)


def test_no_play_is_taken_before_the_buried_cards_and_a_card_not_held_cannot_be_buried(scene):
    deal = started(scene)
    with pytest.raises(RecordingError, match="buried first"):
        plays_check(deal, scene, "SA")
    foreign = next(
        c
        for c in range(54)
        if c not in parse_cards(scene.boards[1].hands[deal.banker] + " " + scene.boards[1].kitty)
    )
    record = board_record(deal)
    bad = " ".join([CARD_TEXT[foreign], *record["kitty"].split()[1:]])
    with pytest.raises(RecordingError, match="cannot be buried"):
        deal_entry.set_kitty(deal, scene.judge, bad, version=deal.version)


def plays_check(deal, scene, cards):
    from referee.table.recording import play as plays

    deal.refresh_from_db()
    return plays.check(deal, scene.judge, cards=cards, version=deal.version)


@pytest.mark.parametrize(
    ("language", "seat_words"),
    [
        ("zh-hans", {"N": "北家", "W": "西家", "S": "南家", "E": "东家"}),
        ("en", {"N": "North", "W": "West", "S": "South", "E": "East"}),
    ],
)
def test_a_card_the_seat_does_not_hold_is_refused_as_entered_naming_card_and_seat(
    scene, language, seat_words
):
    deal = started(scene)
    deal = with_kitty(deal, board_record(deal))
    held = set(parse_cards(current_hand(deal, deal.banker)))
    foreign = next(c for c in range(52) if c not in held)
    client = as_user(scene.judge)
    client.cookies["django_language"] = language
    answer = client.post(
        reverse("deal-play", args=[deal.pk]),
        {"cards": CARD_TEXT[foreign], "seat": deal.banker, "version": deal.version, "idempotency_key": key()},
        **JSON,
    ).json()
    assert not answer["ok"] and not answer.get("forceable")
    assert seat_words[deal.banker] in answer["message"]
    from rules.messages import show

    assert show((foreign,)) in answer["message"]
    assert not deal.tricks.exists()
    if language == "zh-hans":
        assert not any(letter in answer["message"] for letter in (" N ", " W ", " S ", " E "))


def current_hand(deal: Deal, seat: str) -> str:
    state = current_deal_state(Deal.objects.get(pk=deal.pk), deal.match.judge)
    return " ".join(text for text, n in state["board"]["held"][seat].items() for _ in range(n))


def test_the_picker_offers_only_the_cards_the_seat_to_play_still_holds(scene):
    deal = started(scene)
    state = current_deal_state(Deal.objects.get(pk=deal.pk), scene.judge)
    offered = sorted(c["code"] for row in state["picker"] for c in row["cards"] for _ in range(c["left"]))
    board = scene.boards[1]
    assert state["board"]["needs_kitty"] and len(offered) == 33  # the banker buries from hand and kitty
    assert offered == sorted((board.hands[board.banker] + " " + board.kitty).split())
    record = board_record(deal)
    deal = with_kitty(deal, record)
    play_through_service(deal, scene.judge, record, upto=1)
    state = current_deal_state(Deal.objects.get(pk=deal.pk), scene.judge)
    due = state["next_seat"]
    offered = sorted(c["code"] for row in state["picker"] for c in row["cards"] for _ in range(c["left"]))
    start = sorted(record["hands"][due].split())
    played = dict(record["tricks"][0]["plays"])[due].split()
    for card in played:
        start.remove(card)
    assert offered == sorted(start) and len(offered) == 25 - len(played)


def test_a_revoke_is_saved_and_flagged_at_the_play_that_commits_it(scene):
    deal = started(scene)
    record = None
    for seed in range(40):
        found = with_a_revoke(board_record(deal, seed))
        if found:
            record, seat, trick = found
            break
    assert record is not None
    deal = with_kitty(deal, record)
    play_through_service(deal, scene.judge, record, upto=trick)
    for s, cards in record["tricks"][trick]["plays"]:
        deal.refresh_from_db()
        snap = record_play(deal, scene.judge, cards=cards, seat=s, version=deal.version)  # the play's answer
        state = deal_state(snap.deal, scene.judge, snap)
        revokes = [v for v in state["violations"] if v["code"] == "revoke_suit"]
        if s == seat:
            assert [(v["trick"], v["seat"], v["new"]) for v in revokes] == [(trick, seat, True)]
            break
        assert not revokes


def test_a_whole_board_played_from_its_hands_is_judged_without_fault(scene):
    deal = started(scene)
    record = board_record(deal)
    deal = with_kitty(deal, record)
    play_through_service(deal, scene.judge, record)
    state = current_deal_state(Deal.objects.get(pk=deal.pk), scene.judge)
    assert state["complete"] and not state["violations"]
    assert all(not held for held in state["board"]["held"].values())
