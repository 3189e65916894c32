"""Finishing a tournament at the desk: refused while anything is open (the refusal names it), who finished it and
when, every desk write refused while it is finished and working again once it is reopened, and the desk's and the
public's pages in both languages."""

from __future__ import annotations

import io

import openpyxl
import pytest
from django.urls import reverse
from django.utils import timezone, translation

from tests.desk.helpers import deal, finish, settings_data
from tournaments.checkin.forfeits import publish_round
from tournaments.competition.finishing import (
    FinishError,
    TournamentFinished,
    finish_tournament,
    finishing_log,
    reopen_tournament,
    why_not_finish,
)
from tournaments.models import Deal, Pair, Round, Tournament
from tournaments.pairing.services import (
    delete_draft_round,
    pair_round,
    set_bye_points,
    set_round_matches,
    swap_pairs,
    unpublish_round,
)
from tournaments.people.pairs import PairEntry, delete_pair, save_pair, set_withdrawn, why_not_delete_pair
from tournaments.setup.services import save_settings
from tournaments.workbook.export import write_workbook
from tournaments.workbook.importing import Entry, import_entries

pytestmark = pytest.mark.django_db


def en(client):
    client.cookies["django_language"] = "en"
    return client


@pytest.fixture
def day(tournament, make_pair):
    """Five pairs (one withdrawn after round 1), round 1 published with two tables and a bye, both tables
    finished: a tournament the director may finish."""
    tournament.num_rounds = 3
    tournament.save()
    pairs = [make_pair() for _ in range(5)]
    rnd = pair_round(tournament)
    publish_round(rnd)
    for m in rnd.matches.all():
        finish(m, m.pair_ns, "5", "3")
    set_withdrawn(pairs[0], True)
    return tournament


def finished(day, director) -> Tournament:
    return finish_tournament(day, director)


# --- when a tournament may be finished ---------------------------------------------------------------------


def test_finishing_is_refused_before_any_round_is_paired(tournament, director):
    with translation.override("en"), pytest.raises(FinishError, match="No round is paired yet."):
        finish_tournament(tournament, director)
    assert not Tournament.objects.get(pk=tournament.pk).is_finished


def test_finishing_is_refused_while_a_round_is_a_draft_and_the_refusal_names_it(day, director):
    pair_round(day)
    with translation.override("zh-hans"), pytest.raises(FinishError) as refused:
        finish_tournament(day, director)
    assert refused.value.message == "第 2 轮仍是草稿。" and refused.value.status == 409
    with translation.override("en"):
        assert why_not_finish(day) == "Round 2 is still a draft."
    assert not Tournament.objects.get(pk=day.pk).is_finished


def test_finishing_is_refused_while_a_table_plays_and_the_refusal_names_the_first_open_table(day, director):
    rnd = day.rounds.get()
    Round.objects.filter(pk=rnd.pk).update(state=Round.State.PUBLISHED)
    rnd.matches.update(state="in_progress")
    with translation.override("zh-hans"), pytest.raises(FinishError, match="^第 1 轮第 1 桌尚未结束。$"):
        finish_tournament(day, director)
    rnd.matches.filter(table=1).update(state="finished")
    with translation.override("en"):
        assert why_not_finish(day) == "Round 1, table 2 is not finished yet."


def test_finishing_is_refused_while_a_deal_waits_for_confirmation(day, director):
    m = day.rounds.get().matches.get(table=2)
    deal(m, 1, "N", 40, "banker_holds")
    deal(m, 2, "E", 40, "banker_holds", state=Deal.State.SUBMITTED)
    with (
        translation.override("zh-hans"),
        pytest.raises(FinishError, match="^第 1 轮第 2 桌的第 2 副牌尚待确认。$"),
    ):
        finish_tournament(day, director)
    Deal.objects.filter(match=m, number=2).update(state=Deal.State.CONFIRMED)
    assert finish_tournament(day, director).is_finished


def test_a_deal_left_open_in_a_forfeited_match_does_not_keep_the_tournament_open(day, director):
    """A pair that left mid-deal forfeits: the half-entered deal never counts, and cannot be submitted."""
    m = day.rounds.get().matches.get(table=1)
    deal(m, 1, "N", 40, "banker_holds", state=Deal.State.RECORDING)
    assert why_not_finish(day) is None


def test_finishing_records_who_and_when_and_the_history_keeps_each_finish_and_reopening(day, director):
    t = finish_tournament(day, director)
    t.refresh_from_db()
    assert t.is_finished and t.finished_by == director and t.finished_at is not None
    row = t.history.latest()
    assert (row.history_user, row.finished_at) == (director, t.finished_at)
    with pytest.raises(FinishError):
        finish_tournament(t, director)  # finished already
    reopen_tournament(t, director, "late correction: table 2's score sheet")
    t.refresh_from_db()
    assert not t.is_finished and t.finished_by is None
    finish_tournament(t, director)
    log = finishing_log(t)
    assert [step.finished for step in log] == [True, False, True]
    assert [step.by for step in log] == [director] * 3
    assert log[1].reason == "late correction: table 2's score sheet" and log[0].reason == ""


def test_reopening_is_refused_when_the_tournament_is_not_finished(day, director):
    with translation.override("zh-hans"), pytest.raises(FinishError, match="^赛事尚未结束。$"):
        reopen_tournament(day, director)


# --- every desk write refuses a finished tournament, and works again once it is reopened ----------------------


def latest(t: Tournament) -> Round:
    return t.rounds.order_by("-number").first()


def pair_round_two(t: Tournament) -> Round:
    return pair_round(t)


def published_round_two(t: Tournament) -> Round:
    rnd = pair_round(t)
    publish_round(rnd)
    return rnd


def active_pks(t: Tournament) -> list[int]:
    return list(t.pairs.filter(withdrawn=False).order_by("seed").values_list("pk", flat=True))


# (name, write, ready): ``write`` is refused while the tournament is finished (whatever else it would need: the
# guard comes first) and done once it is reopened, after ``ready`` set up what it needs (a draft to edit …).
DESK_WRITES = [
    ("pair the next round", lambda t: pair_round(t), None),
    (
        "edit a draft's tables",
        lambda t: set_round_matches(
            latest(t), [(active_pks(t)[0], active_pks(t)[1], None)], active_pks(t)[2:]
        ),
        pair_round_two,
    ),
    ("swap two pairs of a draft", lambda t: swap_pairs(latest(t), *active_pks(t)[:2]), pair_round_two),
    ("publish a draft", lambda t: publish_round(latest(t)), pair_round_two),
    ("take a round back to draft", lambda t: unpublish_round(latest(t)), published_round_two),
    ("discard a draft", lambda t: delete_draft_round(latest(t)), pair_round_two),
    ("give a bye other points", lambda t: set_bye_points(t.rounds.get(number=1).byes.get(), 1), None),
    ("add a pair", lambda t: save_pair(t, PairEntry("新队", "王一", "李二")), None),
    (
        "edit a pair",
        lambda t: save_pair(t, PairEntry("更名队", "王一", "李二"), t.pairs.order_by("seed")[1]),
        None,
    ),
    ("withdraw a pair", lambda t: set_withdrawn(t.pairs.get(seed=2), True), None),
    ("reinstate a pair", lambda t: set_withdrawn(t.pairs.get(seed=1), False), None),
    ("import pairs", lambda t: import_entries(t, [Entry(2, "导入队", "甲", "乙", "")]), None),
    ("change the ruleset", lambda t: save_settings(t, {"preset": "jj-competition"}, None), None),
    ("change the match points", lambda t: save_settings(with_points(t), t.ruleset, None), None),
    ("change the tie-breaks", lambda t: save_settings(with_tie_breaks(t), t.ruleset, None), None),
]


def with_points(t: Tournament) -> Tournament:
    t.points_win = 3
    return t


def with_tie_breaks(t: Tournament) -> Tournament:
    t.tie_breaks = ["buchholz"]
    return t


def saved(t: Tournament) -> tuple:
    """What a refused write must leave as it was: the tournament's settings, rounds, byes and pairs."""
    t = Tournament.objects.get(pk=t.pk)
    return (
        (t.ruleset, t.points_win, t.tie_breaks, t.finished_at),
        list(t.rounds.order_by("number").values_list("number", "state")),
        list(Round.objects.filter(tournament=t).values_list("byes__pair", "byes__points")),
        list(Pair.objects.filter(tournament=t).order_by("pk").values_list("name", "seed", "withdrawn")),
        list(t.rounds.values_list("matches__table", "matches__pair_ns", "matches__pair_ew")),
    )


@pytest.mark.parametrize(("name", "write", "ready"), DESK_WRITES, ids=[name for name, _w, _r in DESK_WRITES])
def test_every_desk_write_is_refused_while_the_tournament_is_finished_and_works_once_reopened(
    day, director, name, write, ready
):
    finished(day, director)
    before = saved(day)
    with translation.override("zh-hans"), pytest.raises(TournamentFinished) as refused:
        write(Tournament.objects.get(pk=day.pk))
    assert refused.value.message == "赛事已结束：成绩已定，不能再修改。" and refused.value.status == 409
    assert saved(day) == before
    reopen_tournament(day, director)
    t = Tournament.objects.get(pk=day.pk)
    if ready is not None:
        ready(t)
    before = saved(day)
    write(Tournament.objects.get(pk=day.pk))
    assert saved(day) != before


def test_a_pair_never_placed_in_a_round_stays_while_finished_for_the_final_standings_list_it(day, director):
    late = save_pair(day, PairEntry("迟到队", "赵一", "钱二"))
    finished(day, director)
    with translation.override("zh-hans"), pytest.raises(TournamentFinished):
        delete_pair(late, director)
    assert Pair.objects.filter(pk=late.pk).exists()
    with translation.override("zh-hans"):
        assert why_not_delete_pair(Pair.objects.get(pk=late.pk)) == "赛事已结束：成绩已定，不能再修改。"
    reopen_tournament(day, director)
    delete_pair(late, director)
    assert not Pair.objects.filter(pk=late.pk).exists()


def test_a_finished_tournaments_name_and_public_switches_may_still_change(day, director):
    finished(day, director)
    t = Tournament.objects.get(pk=day.pk)
    t.name, t.public_deal_log = "春季赛（终）", False
    save_settings(t, t.ruleset, director)
    t = Tournament.objects.get(pk=day.pk)
    assert (t.name, t.public_deal_log, t.is_finished) == ("春季赛（终）", False, True)


def test_saving_settings_read_before_the_finish_keeps_the_finish(day, director):
    stale = Tournament.objects.get(pk=day.pk)
    finished(day, director)
    stale.venue = "北京"
    save_settings(stale, stale.ruleset, director)
    assert Tournament.objects.get(pk=day.pk).is_finished


def test_the_desk_commands_refuse_a_finished_tournament(day, director, tmp_path):
    from django.core.management import CommandError, call_command

    finished(day, director)
    with translation.override("en"), pytest.raises(CommandError, match="The tournament is finished"):
        call_command("pair_round", day.slug, "2")
    path = tmp_path / "pairs.csv"
    path.write_text("pair,player1,player2,club\n新队,甲,乙,\n", encoding="utf-8")
    with translation.override("en"), pytest.raises(CommandError, match="The tournament is finished"):
        call_command("import_pairs", day.slug, str(path))


# --- the desk's pages -------------------------------------------------------------------------------------------


def test_the_director_finishes_from_the_desk_in_chinese(client, day, director):
    client.force_login(director)
    desk = reverse("desk", args=[day.slug])
    page = client.get(desk).content.decode()
    assert "结束赛事" in page and reverse("desk-finish", args=[day.slug]) in page
    confirm = client.get(reverse("desk-finish", args=[day.slug])).content.decode()
    assert "成绩即为最终成绩" in confirm and 'type="submit" class="primary">结束赛事' in confirm
    response = client.post(reverse("desk-finish", args=[day.slug]))
    assert response.status_code == 302 and response["Location"] == desk
    page = client.get(desk).content.decode()
    t = Tournament.objects.get(pk=day.pk)
    assert t.finished_by == director
    assert f"已于 {timezone.localtime(t.finished_at):%Y-%m-%d %H:%M} 由 td 结束：成绩已定。" in page
    assert reverse("desk-reopen", args=[day.slug]) in page and "重新开放" in page
    # What would be refused is not offered: pairing, the import, editing or withdrawing pairs.
    for gone in ("desk-pair-round", "desk-import", "desk-finish"):
        assert reverse(gone, args=[day.slug]) not in page
    assert reverse("desk-pair-edit", args=[day.slug, day.pairs.first().pk]) not in page


def test_the_director_finishes_from_the_desk_in_english(client, day, director):
    """The English words of the finish the browser's desk journey once clicked through (its claims, in Chinese,
    are the test above's)."""
    en(client).force_login(director)
    desk = reverse("desk", args=[day.slug])
    assert ">Finish the tournament</a>" in client.get(desk).content.decode()
    confirm = client.get(reverse("desk-finish", args=[day.slug])).content.decode()
    assert "Finish 春季赛?" in confirm and ">Finish the tournament</button>" in confirm
    assert client.post(reverse("desk-finish", args=[day.slug])).status_code == 302
    page = client.get(desk).content.decode()
    assert "by td: the results are final." in page and ">Reopen</a>" in page
    assert reverse("desk-pair-round", args=[day.slug]) not in page  # no round 2 offered


def test_the_finish_page_says_what_is_still_open_in_english(client, day, director):
    pair_round(day)
    en(client).force_login(director)
    page = client.get(reverse("desk-finish", args=[day.slug])).content.decode()
    assert "Round 2 is still a draft." in page and ">Finish the tournament</button>" not in page
    response = client.post(reverse("desk-finish", args=[day.slug]))
    assert response.status_code == 409 and "Round 2 is still a draft." in response.content.decode()
    assert not Tournament.objects.get(pk=day.pk).is_finished


def test_the_director_reopens_with_a_reason_and_the_desk_says_so(client, day, director):
    finished(day, director)
    en(client).force_login(director)
    page = client.get(reverse("desk-reopen", args=[day.slug])).content.decode()
    assert "Reopen 春季赛?" in page and "Finished on " in page and 'name="reason"' in page
    response = client.post(reverse("desk-reopen", args=[day.slug]), {"reason": "table 2 corrected"})
    assert response.status_code == 302
    assert not Tournament.objects.get(pk=day.pk).is_finished
    page = client.get(reverse("desk", args=[day.slug])).content.decode()
    assert "Reopened on " in page and "by td." in page and "“table 2 corrected”" in page
    assert ">Finish the tournament<" in page
    again = client.post(reverse("desk-reopen", args=[day.slug]))
    assert again.status_code == 409 and "The tournament is not finished." in again.content.decode()


def test_a_reopen_reason_with_a_nul_character_is_refused_and_nothing_changes(client, day, director):
    finished(day, director)
    client.force_login(director)
    response = client.post(reverse("desk-reopen", args=[day.slug]), {"reason": "a\x00b"})
    assert response.status_code == 400
    assert Tournament.objects.get(pk=day.pk).is_finished


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_a_desk_write_posted_from_an_old_page_gets_the_409_page_in_the_visitors_language(
    client, day, director, language
):
    finished(day, director)
    client.force_login(director)
    client.cookies["django_language"] = language
    response = client.post(reverse("desk-pair-round", args=[day.slug]))
    html = response.content.decode()
    assert response.status_code == 409
    if language == "en":
        assert "The tournament is finished: its results are final and can no longer be changed." in html
    else:
        assert "赛事已结束：成绩已定，不能再修改。" in html
    assert day.rounds.count() == 1
    withdraw = client.post(reverse("desk-pair-withdraw", args=[day.slug, day.pairs.get(seed=2).pk]))
    assert withdraw.status_code == 409 and not day.pairs.get(seed=2).withdrawn
    as_json = client.post(reverse("desk-publish-round", args=[day.slug, 1]), HTTP_ACCEPT="application/json")
    assert as_json.status_code == 409 and as_json.json()["error"] == "finished"


def test_the_settings_page_keeps_the_form_and_refuses_a_scoring_change_of_a_finished_tournament(
    client, day, director
):
    finished(day, director)
    en(client).force_login(director)
    url = reverse("desk-settings", args=[day.slug])
    assert "its ruleset, time limit, match points, bye points and tie-breaks stay as they are" in (
        client.get(url).content.decode()
    )
    response = client.post(url, settings_data(day, points_win="3"))
    assert response.status_code == 409
    assert (
        "can no longer be changed" in response.content.decode() and 'value="3"' in response.content.decode()
    )
    assert Tournament.objects.get(pk=day.pk).points_win == 2
    renamed = client.post(url, settings_data(day, name="Spring, final"))
    assert renamed.status_code == 302 and Tournament.objects.get(pk=day.pk).name == "Spring, final"


def test_a_ruleset_change_of_a_finished_tournament_is_refused_at_once_not_after_the_rescoring_question(
    client, day, director
):
    deal(day.rounds.get().matches.get(table=1), 1, "N", 40, "banker_holds")
    finished(day, director)
    en(client).force_login(director)
    response = client.post(
        reverse("desk-settings", args=[day.slug]), settings_data(day, preset="jj-competition")
    )
    assert response.status_code == 409 and 'name="confirm_rescore"' not in response.content.decode()
    assert Tournament.objects.get(pk=day.pk).ruleset == {"preset": "standard"}


def test_the_round_and_pairs_pages_of_a_finished_tournament_offer_no_change(client, day, director):
    finished(day, director)
    client.force_login(director)
    page = client.get(reverse("desk-round", args=[day.slug, 1])).content.decode()
    assert "赛事已结束：成绩已定，不能再修改。" in page
    assert reverse("desk-unpublish-round", args=[day.slug, 1]) not in page and 'name="points"' not in page
    page = client.get(reverse("desk-pairs", args=[day.slug])).content.decode()
    assert reverse("desk-pair-add", args=[day.slug]) not in page
    assert reverse("desk-pair-reinstate", args=[day.slug, day.pairs.get(seed=1).pk]) not in page


# --- the public's pages and the workbook ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "final", "live"), [("zh-hans", "最终排名", "排名"), ("en", "Final standings", "Standings")]
)
def test_the_public_pages_say_the_standings_are_final_once_finished(
    client, day, director, language, final, live
):
    client.cookies["django_language"] = language
    standings = reverse("standings", args=[day.slug])
    before = client.get(standings).content.decode()
    assert f"<h2>{live}</h2>" in before and "js/standings.js" in before and final not in before
    finished(day, director)
    after = client.get(standings).content.decode()
    assert f"<h2>{final}</h2>" in after and "js/standings.js" not in after and 'data-testid="final"' in after
    overview = client.get(reverse("tournament", args=[day.slug])).content.decode()
    assert final in overview and 'data-testid="final"' in overview
    after_round = "Standings after round 1" if language == "en" else "第 1 轮后排名"
    assert f"<h2>{after_round}</h2>" in client.get(standings + "?round=1").content.decode()


@pytest.mark.parametrize(("language", "title"), [("zh-hans", "最终排名"), ("en", "Final standings")])
def test_the_workbooks_standings_sheet_is_titled_final_once_finished(day, director, language, title):
    def sheets():
        out = io.BytesIO()
        with translation.override(language):
            write_workbook(Tournament.objects.get(pk=day.pk), out)
        out.seek(0)
        return openpyxl.load_workbook(out).sheetnames

    assert title not in sheets()
    finished(day, director)
    assert sheets()[0] == title
