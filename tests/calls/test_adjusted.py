"""Adjusted results: a forfeit win, both sides losing, assigned levels and a void deal, each with its reason;
the match, the standings, the pages and the workbook follow, and a withdrawn adjustment gives the played result
back."""

from __future__ import annotations

import io

import openpyxl
import pytest
from django.urls import reverse

from tests.table.helpers import confirmed_deal
from tournaments.adjusted import awarding
from tournaments.models import Adjustment, Match
from tournaments.scoring.errors import PermissionRefused, RecordingError
from tournaments.scoring.fold import match_summary, recompute_match
from tournaments.standings.compute import compute_standings, deal_totals

pytestmark = pytest.mark.django_db


def line_of(tournament, pair):
    return next(line for line in compute_standings(tournament) if line.pair == pair)


def award(match, director, kind, **extra) -> Match:
    awarding.award(match, director, kind=kind, reason=extra.pop("reason", "裁判长判定"), **extra)
    return Match.objects.get(pk=match.pk)


def test_a_forfeit_win_finishes_the_match_for_that_side(match, director):
    m = award(match, director, "forfeit", side="EW")
    assert (m.state, m.ended_by, m.winner, m.forfeited_by) == ("finished", "forfeit", match.pair_ew, "NS")
    t = match.round.tournament
    assert line_of(t, match.pair_ew).wins == 1 and line_of(t, match.pair_ns).losses == 1


def test_both_sides_lose_gives_each_pair_a_loss_not_a_draw(match, director):
    m = award(match, director, "both_lose", reason="双方均迟到超过30分钟")
    assert (m.state, m.ended_by, m.winner) == ("finished", "adjusted", None)
    t = match.round.tournament
    for pair in (match.pair_ns, match.pair_ew):
        line = line_of(t, pair)
        assert (line.losses, line.draws, line.match_points) == (1, 0, t.points_loss)


def test_assigned_levels_set_the_levels_and_the_higher_level_wins(match, director):
    m = award(match, director, "levels", level_ns="5", level_ew="9")
    assert (m.level_ns, m.level_ew, m.winner, m.ended_by) == ("5", "9", match.pair_ew, "adjusted")


def test_equal_assigned_levels_are_a_draw(match, director):
    m = award(match, director, "levels", level_ns="7", level_ew="7")
    assert m.winner is None and line_of(match.round.tournament, match.pair_ns).draws == 1


def test_a_void_deal_no_longer_counts_in_the_match(match, director):
    deal = confirmed_deal(match, director)
    assert match_summary(match)["deals"] and deal_totals([match.pk])
    m = award(match, director, "void_deal", deal_number=deal.number)
    assert not match_summary(m)["deals"] and deal_totals([match.pk]) == {}
    assert (m.level_ns, m.level_ew) == ("2", "2")
    assert Adjustment.objects.get().deal == deal


def test_an_adjusted_result_stands_when_the_match_is_folded_again(match, director):
    award(match, director, "both_lose")
    recompute_match(match)
    assert Match.objects.get(pk=match.pk).ended_by == "adjusted"


def test_withdrawing_an_adjustment_gives_the_played_result_back(match, director):
    award(match, director, "forfeit", side="NS")
    awarding.withdraw(Adjustment.objects.get(), director)
    m = Match.objects.get(pk=match.pk)
    assert (m.state, m.winner, m.forfeited_by) == ("scheduled", None, "")
    assert Adjustment.objects.get().withdrawn_by == director


@pytest.mark.parametrize(
    ("kind", "extra"),
    [
        ("forfeit", {}),
        ("levels", {"level_ns": "5"}),
        ("void_deal", {"deal_number": 3}),
        ("nope", {}),
    ],
)
def test_an_adjustment_missing_what_its_kind_needs_is_refused_and_nothing_changes(
    match, director, kind, extra
):
    with pytest.raises(RecordingError):
        award(match, director, kind, **extra)
    assert not Adjustment.objects.exists() and Match.objects.get(pk=match.pk).state == "scheduled"


def test_an_adjustment_needs_a_reason(match, director):
    with pytest.raises(RecordingError):
        award(match, director, "both_lose", reason="  ")


def test_only_the_director_adjusts_a_result(match, judge):
    with pytest.raises(PermissionRefused):
        award(match, judge, "both_lose")


def test_the_match_page_the_standings_and_the_workbook_mark_an_adjusted_result(client, match, director):
    award(match, director, "both_lose", reason="双方缺席")
    t = match.round.tournament
    client.cookies["django_language"] = "en"
    page = client.get(reverse("match", args=[match.pk])).content.decode()
    assert "Adjusted by the director" in page and "双方缺席" in page
    assert "adjusted result" in client.get(reverse("standings", args=[t.slug])).content.decode()
    client.force_login(director)
    book = openpyxl.load_workbook(io.BytesIO(client.get(reverse("desk-export", args=[t.slug])).content))
    sheet = book.worksheets[0]
    header = [c.value for c in sheet[1]]
    column = header.index("adjusted result")
    assert [row[column].value for row in sheet.iter_rows(min_row=2)] == ["yes", "yes"]
    results = [c.value for sheet in book.worksheets for row in sheet.iter_rows() for c in row]
    assert "adjusted by the director" in results


def test_the_adjust_page_awards_a_forfeit_and_withdraws_it(client, match, director):
    client.force_login(director)
    t = match.round.tournament
    url = reverse("desk-adjust", args=[t.slug, match.pk])
    assert client.get(url).status_code == 200
    answer = client.post(url, {"kind": "forfeit", "side": "NS", "reason": "东西方未到"})
    assert answer.status_code == 302 and Match.objects.get(pk=match.pk).winner == match.pair_ns
    adjustment = Adjustment.objects.get()
    client.post(reverse("desk-adjustment-withdraw", args=[t.slug, adjustment.pk]))
    assert Match.objects.get(pk=match.pk).winner is None


def test_a_refused_adjustment_is_a_form_error_in_the_directors_language(client, match, director):
    client.force_login(director)
    url = reverse("desk-adjust", args=[match.round.tournament.slug, match.pk])
    answer = client.post(url, {"kind": "levels", "reason": "x"})
    assert answer.status_code == 400 and "请选择双方的级数。" in answer.content.decode()


ADJUST_PAGES = [
    ("get", "desk-adjust", "match"),
    ("post", "desk-adjust", "match"),
    ("post", "desk-adjustment-withdraw", "a"),
]


@pytest.mark.parametrize(("method", "name", "target"), ADJUST_PAGES)
def test_the_adjusted_results_pages_need_the_director(client, match, judge, director, method, name, target):
    award(match, director, "both_lose")
    t = match.round.tournament
    pk = match.pk if target == "match" else Adjustment.objects.get().pk
    url = reverse(name, args=[t.slug, pk])
    answer = getattr(client, method)(url, {"kind": "forfeit", "side": "NS", "reason": "x"})
    assert answer.status_code == 302 and answer["Location"].startswith(reverse("login"))
    client.force_login(judge)
    assert getattr(client, method)(url, {"kind": "forfeit", "side": "NS", "reason": "x"}).status_code == 403
    assert Adjustment.objects.get().kind == "both_lose" and Adjustment.objects.get().withdrawn_at is None
