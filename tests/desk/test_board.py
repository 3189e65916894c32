"""The director's table board (each table's state, in few queries), its refreshed rows, the confirmation queue, the
round's printables, and the styled refusals (403, 404, an out-of-date form) in both languages."""

from __future__ import annotations

import io
from datetime import timedelta

import openpyxl
import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.desk.helpers import deal, en
from tournaments.board import state as board
from tournaments.models import Deal, Match, Penalty, Player, Round, Ruling


@pytest.fixture
def day(tournament, make_pair, make_judge):
    """Round 1 published with ``n`` tables, each with its own judge (a function: build(n))."""

    def build(n: int = 7) -> Round:
        rnd = Round.objects.create(tournament=tournament, number=1, state=Round.State.PUBLISHED)
        for table in range(1, n + 1):
            Match.objects.create(
                round=rnd,
                table=table,
                pair_ns=make_pair(),
                pair_ew=make_pair(),
                judge=make_judge(f"j{table}"),
            )
        return rnd

    return build


def at(rnd: Round, table: int) -> Match:
    return rnd.matches.get(table=table)


def recording(match: Match, number: int = 1) -> Deal:
    match.state = Match.State.IN_PROGRESS
    match.started_at = timezone.now() - timedelta(minutes=25)
    match.save()
    return Deal.objects.create(match=match, number=number, banker="N", level="2", trump="S")


def played_ruling(d: Deal, trick: int = 2, seat: str = "W", code: str = "revoke_suit") -> Ruling:
    key = f"{trick}:{seat}:{code}"
    return Ruling.objects.create(
        deal=d, violation=key, kind=Ruling.Kind.PLAYED, trick=trick, seat=seat, code=code
    )


def states(rnd) -> dict[int, str]:
    return {row.match.table: row.state for row in board.table_board(rnd.tournament, rnd)}


# --- the board service ----------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_each_table_gets_the_state_that_most_needs_the_director(day):
    rnd = day(7)
    recording(at(rnd, 2), number=3)  # deal 3 being recorded
    deal(at(rnd, 3), 1, "N", 40, "banker_holds", state=Deal.State.SUBMITTED)  # waits for confirmation
    played_ruling(recording(at(rnd, 4)))  # a revoke recorded as played, nothing settles it
    m5 = at(rnd, 5)
    m5.state, m5.time_called_at = Match.State.IN_PROGRESS, timezone.now()
    m5.save()
    m6 = at(rnd, 6)
    m6.state = Match.State.FINISHED
    m6.save()
    deal(at(rnd, 7), 1, "N", 40, "banker_holds")  # between deals: one confirmed, none open
    Match.objects.filter(pk=at(rnd, 7).pk).update(state=Match.State.IN_PROGRESS)
    assert states(rnd) == {
        1: board.NOT_STARTED,
        2: board.PLAYING,
        3: board.WAITING,
        4: board.VIOLATION,
        5: board.TIME,
        6: board.FINISHED,
        7: board.PLAYING,
    }
    rows = {r.match.table: r for r in board.table_board(rnd.tournament, rnd)}
    assert rows[2].deal_number == 3 and rows[2].minutes_used == 25 and rows[2].last_entry is not None
    assert rows[7].deals_played == 1 and rows[7].deal_number is None


@pytest.mark.django_db
@pytest.mark.parametrize("settle", ["keyed penalty", "called penalty", "dismissal"])
def test_a_settled_violation_no_longer_flags_the_table(day, director, settle):
    rnd = day(1)
    d = recording(at(rnd, 1))
    ruling = played_ruling(d)
    assert states(rnd)[1] == board.VIOLATION
    if settle == "keyed penalty":
        Penalty.objects.create(deal=d, seat="W", code="revoke", trick=2, violation=ruling.violation)
    elif settle == "called penalty":
        Penalty.objects.create(deal=d, seat="W", code="revoke", trick=2)
    else:
        Ruling.objects.create(
            deal=d,
            violation=ruling.violation,
            kind=Ruling.Kind.DISMISSED,
            trick=2,
            seat="W",
            code="revoke_suit",
        )
    assert states(rnd)[1] == board.PLAYING


@pytest.mark.django_db
def test_a_penalty_called_for_another_seat_does_not_settle_the_violation(day):
    rnd = day(1)
    d = recording(at(rnd, 1))
    played_ruling(d)
    Penalty.objects.create(deal=d, seat="N", code="revoke", trick=2)
    assert states(rnd)[1] == board.VIOLATION


@pytest.mark.django_db
def test_the_board_reads_few_queries_however_many_tables(day, django_assert_max_num_queries):
    rnd = day(12)
    for table in range(1, 13):
        d = recording(at(rnd, table))
        if table % 3 == 0:
            played_ruling(d)
    with django_assert_max_num_queries(2):
        rows = board.table_board(rnd.tournament, rnd)
        text = [
            (r.match.pair_ns.player1.name, r.match.pair_ew.name, r.match.judge.username, r.label)
            for r in rows
        ]
    assert len(text) == 12


@pytest.mark.django_db
def test_the_board_page_reads_as_few_queries_with_many_tables(
    client, director, day, django_assert_max_num_queries
):
    rnd = day(12)
    client.force_login(director)
    url = reverse("desk-board-rows", args=[rnd.tournament.slug])
    client.get(url)
    with django_assert_max_num_queries(12):
        assert client.get(url).status_code == 200


@pytest.mark.django_db
def test_no_round_published_gives_an_empty_board(tournament):
    assert board.current_round(tournament) is None
    assert board.table_board(tournament, None) == []


@pytest.mark.django_db
def test_a_draft_round_is_not_on_the_board(day, tournament):
    day(2)
    Round.objects.create(tournament=tournament, number=2)
    assert board.current_round(tournament).number == 1


@pytest.mark.django_db
def test_the_time_limit_is_the_tournaments_else_the_rulesets(tournament):
    tournament.match_time_limit = 45
    assert board.time_limit(tournament) == 45
    tournament.match_time_limit = None
    tournament.ruleset = {"preset": "standard", "time_limit_minutes": 90}
    assert board.time_limit(tournament) == 90


@pytest.mark.parametrize(
    ("time_rule", "called", "late", "playing_on"),
    [
        ("higher_level", False, True, False),
        (
            "sudden_death",
            False,
            True,
            False,
        ),  # time is up and nobody called it yet: no overtime before a call
        ("sudden_death", True, False, True),
    ],
)
def test_a_table_past_its_limit_is_late_until_time_is_called_and_plays_on_only_after_the_call(
    day, tournament, time_rule, called, late, playing_on
):
    tournament.match_time_limit = None
    tournament.ruleset = {"preset": "standard", "time_limit_minutes": 20, "time_rule": time_rule}
    tournament.save()
    rnd = day(1)
    match = at(rnd, 1)
    recording(match)  # started 25 minutes ago
    if called:
        Match.objects.filter(pk=match.pk).update(time_called_at=timezone.now())
    row = board.table_board(tournament, rnd)[0]
    assert (row.over_time, row.in_overtime) == (late, playing_on)


# --- pages and permissions ------------------------------------------------------------------------------------


def _player_account(match: Match):
    user = get_user_model().objects.create_user(username="captain", password="x-pass-1")
    match.pair_ns.captain = user
    match.pair_ns.save()
    return user


PAGES = [
    ("desk-board", []),
    ("desk-board-rows", []),
    ("desk-queue", []),
    ("desk-table-cards", [1]),
    ("desk-score-sheets", [1]),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("name", "args"), PAGES)
@pytest.mark.parametrize(
    ("who", "status"), [("anonymous", 302), ("judge", 403), ("player", 403), ("director", 200)]
)
def test_only_the_director_opens_the_board_the_queue_and_the_printables(
    client, day, director, name, args, who, status
):
    rnd = day(2)
    users = {"judge": at(rnd, 1).judge, "player": _player_account(at(rnd, 1)), "director": director}
    if who in users:
        client.force_login(users[who])
    response = client.get(reverse(name, args=[rnd.tournament.slug, *args]))
    assert response.status_code == status
    if status == 403:
        assert "<html" in response.content.decode() and "site.css" in response.content.decode()


@pytest.mark.django_db
def test_the_board_page_shows_every_table_and_filters_by_state(client, director, day):
    rnd = day(3)
    recording(at(rnd, 2), number=4)
    client.force_login(director)
    en(client)
    url = reverse("desk-board", args=[rnd.tournament.slug])
    html = client.get(url).content.decode()
    assert "js/board.js" in html and 'data-refresh="5"' in html
    assert all(at(rnd, t).pair_ns.name in html for t in (1, 2, 3))
    assert "deal 4 in progress" in html and "not started" in html
    assert reverse("match", args=[at(rnd, 2).pk]) in html
    filtered = client.get(url + "?state=playing").content.decode()
    assert at(rnd, 2).pair_ns.name in filtered and at(rnd, 1).pair_ns.name not in filtered
    assert client.get(url + "?state=<script>").status_code == 200  # an unknown filter shows every table


@pytest.mark.django_db
def test_the_refresh_endpoint_answers_the_live_part_alone(client, director, day):
    rnd = day(2)
    client.force_login(director)
    en(client)
    url = reverse("desk-board-rows", args=[rnd.tournament.slug])
    html = client.get(url).content.decode()
    assert "<html" not in html and "<tbody>" in html and at(rnd, 1).pair_ns.name in html
    recording(at(rnd, 1))
    assert 'data-state="playing"' in client.get(url).content.decode()
    only = client.get(url + "?state=not_started").content.decode()
    assert at(rnd, 2).pair_ns.name in only and at(rnd, 1).pair_ns.name not in only


@pytest.mark.django_db
def test_the_queue_lists_waiting_deals_and_the_desk_counts_them(client, director, day):
    rnd = day(2)
    waiting = deal(at(rnd, 1), 1, "N", 40, "banker_holds", state=Deal.State.SUBMITTED)
    deal(at(rnd, 2), 1, "N", 40, "banker_holds")  # confirmed: not in the queue
    client.force_login(director)
    en(client)
    slug = rnd.tournament.slug
    html = client.get(reverse("desk-queue", args=[slug])).content.decode()
    assert reverse("review", args=[waiting.pk]) + "?from=queue" in html
    assert html.count("data-deal=") == 1 and "banker holds" in html
    assert "1 deal waiting for confirmation" in client.get(reverse("desk", args=[slug])).content.decode()
    assert (
        "1 deal waiting for confirmation" in client.get(reverse("desk-board", args=[slug])).content.decode()
    )


@pytest.mark.django_db
def test_confirming_from_the_queue_comes_back_to_the_queue(client, director, day, judge):
    rnd = day(1)
    m = at(rnd, 1)
    d = deal(m, 1, "N", 40, "banker_holds", state=Deal.State.SUBMITTED)
    d.submitted_by = m.judge
    d.save()
    client.force_login(director)
    review = client.get(reverse("review", args=[d.pk]) + "?from=queue").content.decode()
    assert 'name="next" value="queue"' in review
    response = client.post(reverse("deal-confirm", args=[d.pk]), {"version": d.version, "next": "queue"})
    assert response.status_code == 302 and response["Location"] == reverse(
        "desk-queue", args=[rnd.tournament.slug]
    )
    d.refresh_from_db()
    assert d.state == Deal.State.CONFIRMED


@pytest.mark.django_db
def test_a_judge_is_named_by_display_name_on_the_board_cards_queue_review_and_workbook(client, director, day):
    rnd = day(1)
    m = at(rnd, 1)
    m.judge.first_name = "王裁判"
    m.judge.save()
    d = deal(m, 1, "N", 40, "banker_holds", state=Deal.State.SUBMITTED)
    d.submitted_by = m.judge
    d.save()
    client.force_login(director)
    slug = rnd.tournament.slug
    for url in (
        reverse("desk-board", args=[slug]),
        reverse("desk-board-rows", args=[slug]),
        reverse("desk-table-cards", args=[slug, 1]),
        reverse("desk-queue", args=[slug]),
        reverse("review", args=[d.pk]),
    ):
        html = client.get(url).content.decode()
        assert "王裁判" in html and ">j1<" not in html and "j1 " not in html, url
    book = openpyxl.load_workbook(io.BytesIO(client.get(reverse("desk-export", args=[slug])).content))
    rounds = book["轮次"]  # the rounds sheet, its judge last
    assert [row[-1] for row in rounds.iter_rows(min_row=2, values_only=True)] == ["王裁判"]


@pytest.mark.django_db
def test_the_queue_is_empty_when_nothing_waits(client, director, tournament):
    client.force_login(director)
    en(client)
    assert "No deal is waiting" in client.get(reverse("desk-queue", args=[tournament.slug])).content.decode()


# --- printables -----------------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_table_card_per_match_names_every_seat_in_words(client, director, day):
    rnd = day(2)
    client.force_login(director)
    en(client)
    html = client.get(reverse("desk-table-cards", args=[rnd.tournament.slug, 1])).content.decode()
    assert html.count('class="print-page table-card"') == 2
    m = at(rnd, 2)
    for seat, player in (
        ("North", m.pair_ns.player1),
        ("South", m.pair_ns.player2),
        ("East", m.pair_ew.player1),
    ):
        assert f"<dt>{seat}</dt><dd>{player.name}</dd>" in html
    assert "Table 2" in html and "Round 1" in html and "<dt>N</dt>" not in html
    one = client.get(reverse("desk-table-cards", args=[rnd.tournament.slug, 1]) + "?table=2").content.decode()
    assert one.count('class="print-page table-card"') == 1 and m.pair_ew.name in one


@pytest.mark.django_db
def test_a_score_sheet_has_a_row_per_deal_and_both_signatures(client, director, day):
    rnd = day(1)
    client.force_login(director)
    zh = client.get(reverse("desk-score-sheets", args=[rnd.tournament.slug, 1])).content.decode()
    assert "北" in zh and "签名" in zh
    en(client)
    html = client.get(reverse("desk-score-sheets", args=[rnd.tournament.slug, 1])).content.decode()
    for column in ("deal", "banker", "level", "trump", "attackers' points", "kitty", "result"):
        assert f"<th>{column}</th>" in html
    assert html.count("<tr><td>") == board.SCORE_SHEET_ROWS
    assert "North–South signature" in html and "East–West signature" in html
    assert at(rnd, 1).pair_ns.player2.name in html


@pytest.mark.django_db
def test_printables_of_a_draft_round_or_a_missing_one_are_not_found(client, director, tournament, make_pair):
    Round.objects.create(tournament=tournament, number=1)
    client.force_login(director)
    assert client.get(reverse("desk-table-cards", args=[tournament.slug, 1])).status_code == 404
    assert client.get(reverse("desk-score-sheets", args=[tournament.slug, 9])).status_code == 404


@pytest.mark.django_db
def test_the_round_page_links_its_printables(client, director, day):
    rnd = day(1)
    client.force_login(director)
    html = client.get(reverse("desk-round", args=[rnd.tournament.slug, 1])).content.decode()
    assert reverse("desk-table-cards", args=[rnd.tournament.slug, 1]) in html
    assert reverse("desk-score-sheets", args=[rnd.tournament.slug, 1]) in html


# --- styled refusals ------------------------------------------------------------------------------------------

REFUSALS = {
    "zh-hans": ("无权操作", "返回首页"),
    "en": ("Not allowed", "Back to the start"),
}


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_a_judge_opening_the_desk_gets_the_styled_refusal_in_their_language(
    client, judge, tournament, language
):
    client.cookies["django_language"] = language
    client.force_login(judge)
    response = client.get(reverse("desk", args=[tournament.slug]))
    html = response.content.decode()
    assert response.status_code == 403
    assert all(text in html for text in REFUSALS[language]) and "site.css" in html
    assert "403 Forbidden" not in html


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "words"), [("zh-hans", "没有这个页面"), ("en", "There is no such page")]
)
def test_a_missing_page_is_friendly_with_a_way_back(client, tournament, language, words):
    client.cookies["django_language"] = language
    response = client.get(f"/t/{tournament.slug}/no-such-page/", HTTP_REFERER="http://testserver/somewhere/")
    html = response.content.decode()
    assert response.status_code == 404 and words in html and "site.css" in html
    assert 'href="http://testserver/somewhere/"' in html  # back to the page they came from
    assert f'href="{tournament.get_absolute_url()}"' in html and tournament.name in html
    assert f'href="{reverse("home")}"' in html


@pytest.mark.django_db
def test_a_missing_page_offers_no_foreign_referer_and_no_hidden_tournament(client, tournament):
    tournament.is_public = False
    tournament.save()
    html = client.get(f"/t/{tournament.slug}/x/", HTTP_REFERER="https://evil.example/").content.decode()
    assert "evil.example" not in html and tournament.name not in html


@pytest.mark.django_db
def test_a_missing_object_in_a_desk_view_is_the_styled_404(client, director):
    client.force_login(director)
    en(client)
    response = client.get(reverse("desk-board", args=["no-such-event"]))
    assert response.status_code == 404 and "There is no such page" in response.content.decode()


@pytest.mark.django_db
def test_json_callers_keep_json_refusals(client, judge, tournament):
    client.force_login(judge)
    response = client.get(reverse("desk", args=[tournament.slug]), HTTP_ACCEPT="application/json")
    assert response.status_code == 403 and response.json()["error"] == "forbidden"
    response = client.get("/deal/999999/state/", HTTP_ACCEPT="application/json")
    assert response.status_code == 404 and response.json()["error"] == "not_found"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "words"), [("zh-hans", "页面已过期"), ("en", "The page was out of date")]
)
def test_a_form_from_an_out_of_date_page_gets_the_styled_refusal(judge, language, words):
    client = Client(enforce_csrf_checks=True)
    client.cookies["django_language"] = language
    client.force_login(judge)
    response = client.post(reverse("logout"))
    html = response.content.decode()
    assert (
        response.status_code == 403 and words in html and "site.css" in html and "403 Forbidden" not in html
    )


@pytest.mark.django_db
def test_a_players_name_is_never_a_seat_letter_on_the_card(client, director, day):
    rnd = day(1)
    Player.objects.filter(pk=at(rnd, 1).pair_ns.player1_id).update(name="N")  # even a player called N
    client.force_login(director)
    html = client.get(reverse("desk-table-cards", args=[rnd.tournament.slug, 1])).content.decode()
    assert "<dt>北</dt><dd>N</dd>" in html


@pytest.mark.django_db
def test_after_a_time_call_the_boards_time_column_says_when_time_was_called(
    client, director, day, tournament
):
    tournament.match_time_limit = 20
    tournament.save()
    rnd = day(1)
    match = at(rnd, 1)
    recording(match)
    Match.objects.filter(pk=match.pk).update(time_called_at=timezone.now())
    client.force_login(director)
    page = client.get(reverse("desk-board-rows", args=[rnd.tournament.slug])).content.decode()
    called = timezone.localtime(Match.objects.get(pk=match.pk).time_called_at).strftime("%H:%M")
    assert 'data-testid="time-called"' in page and f"{called} 宣布时间到" in page and "/ 20 分钟" not in page
