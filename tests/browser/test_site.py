"""The site in a real browser: Chinese first, English one click away, a judge logs in."""

from __future__ import annotations

import pytest

from tests.browser.helpers import expect, login
from tournaments.setup.demo import create_demo

pytestmark = pytest.mark.django_db(transaction=True)


def test_home_in_chinese_then_english(page, screenshot):
    create_demo()
    page.goto_path("/")
    assert page.locator("html").get_attribute("lang") == "zh-hans"
    expect(page.get_by_role("link", name="演示赛")).to_be_visible()
    screenshot(page, "home-zh")
    page.get_by_role("button", name="English").click()
    page.wait_for_load_state()
    assert page.locator("html").get_attribute("lang") == "en"
    expect(page.get_by_role("heading", name="Tournaments")).to_be_visible()
    screenshot(page, "home-en")


def test_a_judge_logs_in_shown_by_their_name_and_opens_the_tournament(page, screenshot):
    create_demo()
    login(page, "judge1", "demo-judge1-2026")
    expect(page.locator(".who")).to_have_text("刘明")
    page.get_by_role("link", name="演示赛").click()
    expect(page.get_by_role("heading", name="演示赛")).to_be_visible()
    expect(page.get_by_text("东风队").first).to_be_visible()
    screenshot(page, "tournament")
