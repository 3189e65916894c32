"""Steps the browser tests share (fixtures stay in conftest.py)."""

from __future__ import annotations


def login(page, username: str, password: str) -> None:
    page.goto_path("/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("form.form button[type=submit]")
    page.wait_for_url(lambda url: "/login/" not in url)


def wait_for_version(page, version: int) -> None:
    """Wait until the deal page shows ``version`` (a selector: the Content-Security-Policy forbids eval)."""
    page.locator(f"#deal-app[data-version='{version}']").wait_for(state="attached")
