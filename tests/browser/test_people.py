"""The desk's people pages in a real browser, in Chinese, on a phone: the director adds a pair,
gives its captain an account and creates a judge (each password shown once), puts the judge at a table of the
published round, withdraws a pair, recording the forfeit of its open match (back on the withdraw page), and
deletes the pair added by mistake (the paired one's page says why it cannot be); a second director is created and
changes the password shown once.

On a phone only: a tablet's 820 px takes the same style rules as the 1024 px desktop the other desk tests use
(the site's narrow rules start at 640 px), the phone's the people tables stacked as cards. The director logs in
by session cookie; the second director by the form, with the password the page showed. Pictures only with
SCREENSHOTS=1 (``shots``)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from tests.browser import shots
from tests.browser.helpers import enter_pairs, expect, login, sign_in
from tournaments.checkin.forfeits import publish_round
from tournaments.competition.access import JUDGE_GROUP
from tournaments.competition.accounts import create_director
from tournaments.models import Match, Pair, Player, Tournament
from tournaments.pairing.services import pair_round

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 390, "height": 844}
SHOTS = shots.folder("people")


def spring_with_round_one() -> Match:
    """Four pairs, round 1 published: two matches not started."""
    t = Tournament.objects.create(name="春季赛", slug="spring", num_rounds=3)
    enter_pairs(t, ["东风队", "长城队", "黄河队", "梅花队"])
    rnd = pair_round(t)
    publish_round(rnd)
    return rnd.matches.get(table=1)


def test_the_director_adds_a_pair_creates_a_judge_seats_them_and_withdraws_a_pair(page, live_server):
    page.set_viewport_size(PHONE)

    def shot(label: str) -> None:
        shots.save(page, SHOTS / f"phone-{label}.png", full_page=True)

    create_director("td", "director-pass-1")
    table1 = spring_with_round_one()
    sign_in(page.context, live_server, "td")

    # A pair, entered late: the page says it plays from round 2.
    page.goto_path("/t/spring/desk/")
    page.locator(".actions").get_by_role("link", name="搭档与选手").click()
    page.get_by_role("link", name="添加搭档").click()
    expect(page.get_by_text("迟到报名：该搭档将参加第2轮的编排。")).to_be_visible()
    page.fill("input[name=name]", "红桃队")
    page.fill("input[name=player1]", "徐海涛")
    page.fill("input[name=player2]", "孙玉梅")
    page.fill("input[name=club]", "西城桥牌升级协会")
    shot("add-pair")
    page.get_by_role("button", name="添加该搭档").click()
    page.wait_for_url("**/desk/pairs/")
    expect(page.locator("table.pairs tr", has_text="红桃队")).to_be_visible()
    shot("pairs")

    # Its captain gets an account: the password is on the page once, the list names the account.
    page.locator("table.pairs tr", has_text="红桃队").get_by_role("link", name="无：开通账号").click()
    expect(page.get_by_role("heading", name="红桃队的队长账号")).to_be_visible()
    expect(page.locator("input[name=name]")).to_have_value("徐海涛")  # the first player, the captain
    page.fill("input[name=username]", "xu")
    shot("captain-form")
    page.get_by_role("button", name="为队长开通账号").click()
    captain_password = page.locator("#password").inner_text().strip()
    assert len(captain_password) == 12
    expect(page.get_by_text("此密码只显示这一次")).to_be_visible()
    captain = get_user_model().objects.get(username="xu")
    assert captain.check_password(captain_password) and Pair.objects.get(name="红桃队").captain == captain
    shot("captain-password")
    page.get_by_role("link", name="返回该搭档").click()
    expect(page.get_by_role("button", name="移除队长账号")).to_be_visible()
    assert captain_password not in page.content()
    page.get_by_role("link", name="返回搭档列表").click()
    expect(page.locator("table.pairs tr", has_text="红桃队").locator("td.captain")).to_have_text("xu")

    # A judge: the password is on the page once, and logs in.
    page.locator("nav.tnav").get_by_role("link", name="裁判", exact=True).click()
    page.get_by_role("link", name="创建裁判账号").click()
    page.fill("input[name=username]", "li")
    page.fill("input[name=name]", "李裁判")
    page.get_by_role("button", name="创建账号").click()
    password = page.locator("#password").inner_text().strip()
    assert len(password) == 12
    assert get_user_model().objects.get(username="li").check_password(password)
    expect(page.get_by_text("此密码只显示这一次")).to_be_visible()
    shot("judge-password")
    page.get_by_role("link", name="返回裁判列表").click()
    expect(page.locator("table.judges tr", has_text="李裁判")).to_be_visible()
    assert password not in page.content()
    shot("judges")

    # The judge at table 1 of the published round 1.
    page.get_by_role("link", name="第1轮").click()
    page.select_option(f"select[name=m{table1.pk}-judge]", label="李裁判")
    page.locator("form.judge-pick", has=page.locator(f"select[name=m{table1.pk}-judge]")).get_by_role(
        "button", name="保存"
    ).click()
    expect(page.get_by_text("第1桌已保存。")).to_be_visible()
    shot("table-judges")
    table1.refresh_from_db()
    assert table1.judge.username == "li" and table1.judge.groups.filter(name=JUDGE_GROUP).exists()
    assert table1.history.first().history_user.username == "td"

    # Withdraw a pair of table 1: confirm, then record its forfeit.
    quitter = table1.pair_ns.name
    page.goto_path("/t/spring/desk/pairs/")
    page.locator("table.pairs tr", has_text=quitter).get_by_role("link", name="退赛").click()
    expect(page.get_by_role("heading", name=f"让{quitter}退赛？")).to_be_visible()
    shot("withdraw-confirm")
    page.get_by_role("button", name="确认退赛").click()
    expect(page.get_by_role("heading", name=f"{quitter} 已退赛")).to_be_visible()
    shot("withdrawn")
    page.get_by_role("button", name=f"记录{quitter}弃权").click()
    page.wait_for_url("**/desk/pairs/*/withdraw/")  # back on the withdraw page, for the next forfeit
    expect(page.get_by_text(f"已记录弃权：{table1.pair_ew.name} 赢得本场。")).to_be_visible()
    table1.refresh_from_db()
    assert (table1.state, table1.forfeited_by, table1.winner_id) == (
        Match.State.FINISHED,
        "NS",
        table1.pair_ew_id,
    )
    shot("forfeit-recorded")

    # The pair added late was a mistake: never placed in a round, it is deleted; its captain's account stays. The
    # withdrawn pair played round 1: its page says to withdraw it instead, and offers no deletion.
    page.goto_path("/t/spring/desk/pairs/")
    page.locator("table.pairs tr", has_text=quitter).get_by_role("link", name="编辑").click()
    expect(page.get_by_test_id("delete-blocker")).to_have_text(
        f"{quitter} 已编入第 1 轮：编排过的搭档不能删除，请改为让其退赛。"
    )
    expect(page.get_by_role("link", name="删除该搭档")).to_have_count(0)
    shot("paired-pair-not-deleted")
    page.goto_path("/t/spring/desk/pairs/")
    page.locator("table.pairs tr", has_text="红桃队").get_by_role("link", name="编辑").click()
    expect(page.get_by_role("link", name="删除该搭档")).to_be_visible()
    shot("pair-page-delete-action")
    page.get_by_role("link", name="删除该搭档").click()
    expect(page.get_by_role("heading", name="删除红桃队？")).to_be_visible()
    expect(page.locator("dl.deletion")).to_contain_text("徐海涛")
    expect(page.locator("dl.deletion")).to_contain_text("xu")
    shot("delete-pair-confirm")
    page.get_by_role("button", name="删除搭档").click()
    page.wait_for_url("**/desk/pairs/")
    expect(page.get_by_text("红桃队 已删除。")).to_be_visible()
    expect(page.locator("table.pairs tr", has_text="红桃队")).to_have_count(0)
    shot("pair-deleted")
    assert not Pair.objects.filter(name="红桃队").exists()
    assert not Player.objects.filter(name__in=["徐海涛", "孙玉梅"]).exists()
    assert get_user_model().objects.filter(username="xu").exists()


def test_the_director_creates_a_second_director_who_changes_their_password(page, live_server):
    page.set_viewport_size(PHONE)
    create_director("td", "director-pass-1")
    spring_with_round_one()
    sign_in(page.context, live_server, "td")

    page.goto_path("/t/spring/desk/")
    page.locator(".actions").get_by_role("link", name="裁判长").click()
    expect(page.get_by_role("heading", name="裁判长")).to_be_visible()
    page.get_by_role("link", name="创建裁判长账号").click()
    page.fill("input[name=username]", "wang")
    page.fill("input[name=name]", "王主任")
    page.get_by_role("button", name="创建账号").click()
    password = page.locator("#password").inner_text().strip()
    assert len(password) == 12
    expect(page.get_by_text("此密码只显示这一次")).to_be_visible()
    shots.save(page, SHOTS / "phone-director-password.png", full_page=True)
    page.get_by_role("link", name="返回裁判长列表").click()
    expect(page.locator("table.directors tr", has_text="王主任")).to_be_visible()

    page.get_by_role("button", name="退出").click()
    login(page, "wang", password)
    page.locator(".site-header").get_by_role("link", name="王主任").click()
    expect(page.get_by_role("heading", name="修改我的密码")).to_be_visible()
    page.fill("input[name=old_password]", password)
    page.fill("input[name=new_password1]", "chunji-bei-2026")
    page.fill("input[name=new_password2]", "chunji-bei-2026")
    shots.save(page, SHOTS / "phone-password-change.png", full_page=True)
    page.get_by_role("button", name="修改密码").click()
    expect(page.get_by_text("你的密码已修改。")).to_be_visible()
    assert get_user_model().objects.get(username="wang").check_password("chunji-bei-2026")
