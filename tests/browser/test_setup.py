"""Setting up in a real browser: the director creates a tournament from the home page with the JJ competition
preset and one setting changed (choosing a preset sends the form by the page's script, the tie-breaks move in
place), on a tablet in Chinese, and drags a tie-break to the top.

The English pages of the same flow are the same markup and script with other words: the Django client creates
the tournament in English and reads its words (tests/desk/test_setup.py,
``test_the_director_creates_a_tournament_with_an_override_stored_short_and_marked``). Deleting a tournament
created by mistake, server-drawn forms, is the Django client's in both languages, the wrong name's sentence
included (tests/desk/test_tournament_delete.py). The director logs in by session cookie (the log-in form is the
log-in page's tests')."""

from __future__ import annotations

import pytest

from tests.browser import shots
from tests.browser.helpers import expect, sign_in
from tournaments.competition.accounts import create_director
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)

WORDS = {
    "zh-hans": {
        "new": "新建赛事",
        "create": "创建赛事",
        "settings": "设置与规则",
        "strikes": "累计几次犯规判负",
    },
}

SHOTS = shots.folder("setup")


@pytest.mark.parametrize(("language", "width"), [("zh-hans", 820)])
def test_the_director_creates_a_tournament_with_a_preset_and_one_setting_changed(
    page, live_server, language, width
):
    words = WORDS[language]
    create_director("td", "director-pass-1")
    page.set_viewport_size({"width": width, "height": 900})
    page.context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    sign_in(page.context, live_server, "td")

    page.goto_path("/")
    page.get_by_role("link", name=words["new"]).click()
    page.wait_for_url("**/tournaments/new/")
    page.fill("input[name=name]", "Spring Cup 2026")
    page.fill("input[name=venue]", "朝阳棋牌俱乐部")
    page.select_option("select[name=format]", "swiss")
    page.fill("input[name=num_rounds]", "7")
    with page.expect_navigation():  # choosing a preset takes its settings (the script sends the form)
        page.check("input[name=rules-preset][value=jj-competition]")
    expect(page.locator("input[name=rules-preset][value=jj-competition]")).to_be_checked()
    assert page.input_value("input[name=name]") == "Spring Cup 2026"
    assert page.input_value("select[name=rules-target_level]") == "T"
    expect(page.locator(".setting.override")).to_have_count(0)

    page.fill("input[name=rules-strikes_to_forfeit]", "2")
    page.locator("[data-move=up]").nth(1).click()  # Buchholz above level difference, in place
    first = page.locator("ol.tie-breaks li input[type=hidden]").first
    assert first.get_attribute("value") == "buchholz"
    shots.save(page, SHOTS / f"new-{language}-{width}.png", full_page=True)

    page.get_by_role("button", name=words["create"]).click()
    page.wait_for_url("**/desk/")
    t = Tournament.objects.get(name="Spring Cup 2026")
    assert t.ruleset == {"preset": "jj-competition", "strikes_to_forfeit": 2}
    assert (t.format, t.num_rounds, t.tie_breaks[:2]) == ("swiss", 7, ["buchholz", "level_diff"])
    shots.save(page, SHOTS / f"desk-{language}-{width}.png", full_page=True)

    page.get_by_role("link", name=words["settings"]).click()
    page.wait_for_url("**/desk/settings/")
    changed = page.locator(".setting.override")
    expect(changed).to_have_count(1)
    expect(changed).to_contain_text(words["strikes"])
    changed.scroll_into_view_if_needed()
    shots.save(page, SHOTS / f"settings-{language}-{width}.png", full_page=True)


def test_a_tie_break_dragged_to_the_top_is_saved_first(page, live_server):
    create_director("td", "director-pass-1")
    sign_in(page.context, live_server, "td")
    page.goto_path("/tournaments/new/")
    page.fill("input[name=name]", "Drag Cup")
    order = page.locator("ol.tie-breaks li input[type=hidden]")
    last = order.nth(order.count() - 1).get_attribute("value")
    page.locator("ol.tie-breaks li").last.drag_to(page.locator("ol.tie-breaks li").first)
    assert order.first.get_attribute("value") == last
    page.get_by_role("button", name="创建赛事").click()
    page.wait_for_url("**/desk/")
    assert Tournament.objects.get(name="Drag Cup").tie_breaks[0] == last
