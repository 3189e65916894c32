"""The director's whole day in a real browser, in Chinese, never opening /admin/: a new tournament from the home
page (the JJ competition preset, one setting changed), 16 pairs imported, 4 judges created (each password shown
once and used to log in), round 1 paired (Swiss) and published, the board followed while a judge on a phone
records a deal by quick entry, the deal confirmed from the queue, a pair withdrawn and its forfeit recorded, and
the workbook downloaded and read back. With SCREENSHOTS=1 (``shots``), every page the director sees is saved at
tablet (820 px) and desktop (1280 px) width, the judge's at phone width (390 px), under
test-output/screenshots/directors-day/; without, no picture is taken (pictures are for people to look at; the
test's claims are its assertions). The director logs in by session cookie; each judge by the form, with the
password the page showed."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from tests.browser import shots
from tests.browser.helpers import expect, login, sign_in
from tournaments.competition.accounts import create_director
from tournaments.models import Deal, Match, Pair, Tournament

pytestmark = pytest.mark.django_db(transaction=True)

PAIRS_FILE = Path(__file__).resolve().parents[2] / "fixtures" / "pairs-16.csv"
DESKTOP, TABLET, PHONE = 1280, 820, 390
SHOTS = shots.folder("directors-day")
JUDGES = [("wang", "王裁判"), ("li", "李裁判"), ("zhang", "张裁判"), ("zhao", "赵裁判")]


class Shots:
    """Full-page screenshots of each page at both of the director's widths, numbered in the day's order."""

    def __init__(self, folder: Path) -> None:
        self.folder, self.n = folder, 0

    def __call__(self, page, label: str, widths=(TABLET, DESKTOP)) -> None:
        self.n += 1
        if not shots.WANTED:
            return
        for width in widths:
            page.set_viewport_size({"width": width, "height": 900})
            shots.save(page, self.folder / f"{self.n:02d}-{label}-{width}.png", full_page=True)
        page.set_viewport_size({"width": DESKTOP, "height": 900})


def judge_page(browser, live_server, username: str, password: str):
    """The judge's own phone: another browser context, Chinese, 390 px wide, logged in."""
    context = browser.new_context(viewport={"width": PHONE, "height": 844}, locale="zh-CN")
    context.set_default_timeout(10_000)
    phone = context.new_page()
    phone.goto_path = lambda path: phone.goto(live_server.url + path)
    login(phone, username, password)
    return phone


def read_workbook(path: Path) -> dict[str, list[dict]]:
    """Each sheet as rows keyed by its (Chinese) header."""
    book = openpyxl.load_workbook(path, read_only=True)
    sheets = {}
    for ws in book.worksheets:
        header, *rows = ws.iter_rows(values_only=True)
        sheets[ws.title] = [dict(zip(header, row, strict=False)) for row in rows]
    return sheets


def test_a_director_runs_the_day_from_creation_to_the_workbook_without_the_admin(
    browser, page, live_server, tmp_path
):
    shot = Shots(SHOTS)
    seen: list[str] = []
    page.on("request", lambda request: seen.append(request.url))
    page.set_viewport_size({"width": DESKTOP, "height": 900})
    create_director("td", "director-pass-1")
    sign_in(page.context, live_server, "td")

    # A new tournament: the JJ competition preset, strikes to forfeit changed, quick entry allowed.
    page.goto_path("/")
    page.get_by_role("link", name="新建赛事").click()
    page.fill("input[name=name]", "十六对春季赛")
    page.fill("input[name=venue]", "朝阳棋牌俱乐部")
    page.select_option("select[name=format]", "swiss")
    page.fill("input[name=num_rounds]", "5")
    with page.expect_navigation():
        page.check("input[name=rules-preset][value=jj-competition]")
    page.check("input[name=quick_entry_allowed]")
    page.fill("input[name=rules-strikes_to_forfeit]", "2")
    shot(page, "new-tournament")
    page.get_by_role("button", name="创建赛事").click()
    page.wait_for_url("**/desk/")
    t = Tournament.objects.get(name="十六对春季赛")
    assert t.ruleset == {"preset": "jj-competition", "strikes_to_forfeit": 2} and t.quick_entry_allowed
    desk = page.url

    # 16 pairs of seven clubs from the sample file.
    page.locator(".actions").get_by_role("link", name="导入搭档").click()
    page.set_input_files("input[type=file]", str(PAIRS_FILE))
    page.get_by_role("button", name="预览").click()
    expect(page.locator("table.preview tbody tr")).to_have_count(16)
    shot(page, "import-preview")
    page.get_by_role("button", name="导入 16 对搭档").click()
    page.wait_for_url(desk)
    assert t.pairs.count() == 16
    shot(page, "desk-with-pairs")

    # Four judges, each password shown once.
    passwords = {}
    page.locator(".actions").get_by_role("link", name="裁判", exact=True).click()
    for username, name in JUDGES:
        page.get_by_role("link", name="创建裁判账号").click()
        page.fill("input[name=username]", username)
        page.fill("input[name=name]", name)
        page.get_by_role("button", name="创建账号").click()
        passwords[username] = page.locator("#password").inner_text().strip()
        if username == "wang":
            shot(page, "judge-password")
        page.get_by_role("link", name="返回裁判列表").click()
    expect(page.locator("table.judges tbody tr")).to_have_count(4)
    shot(page, "judges")

    # Round 1: paired (Swiss, 8 tables), checked and published.
    page.goto(desk)
    page.get_by_role("button", name="编排第 1 轮").click()
    expect(page.get_by_role("button", name="发布本轮")).to_be_visible()
    shot(page, "round-1-draft")
    page.get_by_role("button", name="发布本轮").click()
    expect(page.get_by_text("第 1 轮已发布。")).to_be_visible()
    round1 = t.rounds.get(number=1)
    assert round1.state == "published" and round1.matches.count() == 8
    shot(page, "round-1-published")

    # A judge at each of tables 1-4, by display name.
    page.goto(desk)
    page.locator(".actions").get_by_role("link", name="裁判", exact=True).click()
    page.get_by_role("link", name="第1轮").click()
    tables = {m.table: m for m in round1.matches.all()}
    for table, (_username, name) in enumerate(JUDGES, start=1):
        select = f"select[name=m{tables[table].pk}-judge]"
        page.select_option(select, label=name)
        page.locator("form.judge-pick", has=page.locator(select)).get_by_role("button", name="保存").click()
        expect(page.get_by_text(f"第{table}桌已保存。")).to_be_visible()
    shot(page, "table-judges")

    # The board, while 王裁判 records deal 1 of table 1 on a phone by quick entry.
    page.clock.install()
    page.goto(desk)
    page.get_by_role("link", name="牌桌看板").click()
    row = page.locator("tr[data-table='1']")
    assert row.get_attribute("data-state") == "not_started"
    expect(row).to_contain_text("王裁判")
    shot(page, "board")

    phone = judge_page(browser, live_server, "wang", passwords["wang"])
    phone.goto_path("/")
    mine = phone.locator("ul.my-matches li")
    expect(mine).to_have_count(1)
    expect(mine).to_contain_text("第1桌")
    shots.save(phone, SHOTS / f"judge-home-{PHONE}.png", full_page=True)
    mine.get_by_role("link").click()
    shots.save(phone, SHOTS / f"judge-match-{PHONE}.png", full_page=True)
    phone.get_by_role("link", name="快速录入").click()
    phone.locator("input[name=declarer][value=N]").check()
    phone.locator("label.trump-S").click()
    phone.fill("input[name=points]", "85")
    phone.fill("input[name=kitty_points]", "10")
    shots.save(phone, SHOTS / f"judge-quick-entry-{PHONE}.png", full_page=True)
    phone.get_by_role("button", name="提交本局").click()
    phone.wait_for_url(f"**/match/{tables[1].pk}/")
    expect(phone.locator("tr[data-deal='1'] .badge")).to_have_text("已提交")
    shots.save(phone, SHOTS / f"judge-submitted-{PHONE}.png", full_page=True)

    with page.expect_response(lambda r: "/desk/board/rows/" in r.url):
        page.clock.run_for(6_000)
    page.locator("tr[data-table='1'][data-state='waiting']").wait_for()
    expect(row.locator("[data-testid=table-state]")).to_have_text("1 副牌待确认")
    shot(page, "board-waiting")

    # Confirmed from the queue.
    page.goto(desk)
    page.get_by_test_id("waiting-count").click()
    expect(page.locator("tr[data-deal]")).to_have_count(1)
    shot(page, "queue")
    page.get_by_role("link", name="核对并确认").click()
    shot(page, "review")
    page.get_by_role("button", name="确认", exact=True).click()
    page.wait_for_url("**/desk/queue/")
    expect(page.locator("tr[data-deal]")).to_have_count(0)
    deal = Deal.objects.get(match=tables[1])
    assert deal.state == Deal.State.CONFIRMED and deal.confirmed_by.username == "td"

    # The judge sees deal 1 confirmed and starts deal 2 on the trick-entry page (the banker from the rotation).
    phone.reload()
    expect(phone.locator("tr[data-deal='1'] .badge")).to_have_text("已确认")
    phone.get_by_role("link", name="新的一局").click()
    expect(phone.locator("input[name=declarer]")).to_have_count(0)
    phone.locator("label.trump-H").click()
    shots.save(phone, SHOTS / f"judge-new-deal-{PHONE}.png", full_page=True)
    phone.get_by_role("button", name="开始本局").click()
    phone.wait_for_selector("#deal-app")
    shots.save(phone, SHOTS / f"judge-trick-entry-{PHONE}.png", full_page=True)
    phone.context.close()

    # A pair of table 2 withdraws; its forfeit recorded from the withdraw page, which the director lands back on.
    quitter, winner = tables[2].pair_ns, tables[2].pair_ew
    page.goto(desk)
    page.locator(".actions").get_by_role("link", name="搭档与选手").click()
    page.locator("table.pairs tr", has_text=quitter.name).get_by_role("link", name="退赛").click()
    shot(page, "withdraw-confirm")
    page.get_by_role("button", name="确认退赛").click()
    page.get_by_role("button", name=f"记录{quitter.name}弃权").click()
    page.wait_for_url(f"**/desk/pairs/{quitter.pk}/withdraw/")
    expect(page.get_by_text("该搭档已没有待进行的已发布对局。")).to_be_visible()
    expect(page.get_by_text(f"已记录弃权：{winner.name} 赢得本场。")).to_be_visible()
    shot(page, "forfeit-recorded")
    tables[2].refresh_from_db()
    assert (tables[2].state, tables[2].forfeited_by, tables[2].winner_id) == (
        Match.State.FINISHED,
        "NS",
        winner.pk,
    )
    assert Pair.objects.get(pk=quitter.pk).withdrawn

    # The workbook: the forfeit in the standings and results, the confirmed deal in the deals.
    page.goto(desk)
    with page.expect_download() as download:
        page.get_by_role("link", name="下载成绩表（Excel）").click()
    path = tmp_path / "workbook.xlsx"
    download.value.save_as(path)
    sheets = read_workbook(path)
    standings = sheets["排名"]
    assert len(standings) == 16
    top = standings[0]
    assert (top["队名"], top["胜"], top["比赛积分"]) == (winner.name, 1, 2)
    gone = next(row for row in standings if row["队名"] == quitter.name)
    assert (gone["负"], gone["已退赛"]) == (1, "是")
    rounds = {row["桌号"]: row for row in sheets["轮次"]}
    assert (rounds[2]["结果"], rounds[2]["结束方式"], rounds[2]["裁判"]) == (
        f"{winner.name} 胜",
        "弃权",
        "李裁判",
    )
    assert (rounds[1]["状态"], rounds[1]["裁判"]) == ("进行中", "王裁判")
    (recorded,) = sheets["牌局"]
    assert (recorded["桌号"], recorded["牌局"], recorded["主"], recorded["抓分"], recorded["底牌分"]) == (
        1,
        1,
        "♠",
        85,
        10,
    )

    page.goto(desk)
    shot(page, "desk-end")
    assert not [url for url in seen if "/admin/" in url]
