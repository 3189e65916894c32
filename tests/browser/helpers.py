"""Steps the browser tests share (fixtures stay in conftest.py)."""

from __future__ import annotations

from playwright.sync_api import expect

# A click that navigates returns before the next page is there: assertions about a page go through ``expect``,
# which waits for them (as long as the context's actions do), never through ``is_visible()`` or ``count()``.
expect.set_options(timeout=10_000)


def login(page, username: str, password: str) -> None:
    page.goto_path("/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("form.form button[type=submit]")
    page.wait_for_url(lambda url: "/login/" not in url)


def submit_then_open_the_match(page, button: str, deal_id: int, match_id: int) -> None:
    """Submit from the review: the judge lands on the deal's PIN form (the players may confirm there at once);
    the test goes on from the match page instead."""
    page.get_by_role("button", name=button).click()
    page.wait_for_url(f"**/deal/{deal_id}/review/#pin")
    expect(page.get_by_test_id("pin-confirm")).to_be_visible()
    page.goto_path(f"/match/{match_id}/")


def wait_for_version(page, version: int) -> None:
    """Wait until the deal page shows ``version`` (a selector: the Content-Security-Policy forbids eval)."""
    page.locator(f"#deal-app[data-version='{version}']").wait_for(state="attached")


def confirm_as_second_judge(page, match_id: int, levels_after: dict[str, str]) -> None:
    """Another judge (the demo's judge2) confirms deal 1 of the match; the match page then shows the levels the
    engine worked out (``levels_after``, 10 shown as "10") and the deal as confirmed."""
    page.context.clear_cookies()
    login(page, "judge2", "demo-judge2-2026")
    page.goto_path(f"/match/{match_id}/")
    page.locator("tr[data-deal='1']").get_by_role("button", name="确认").click()
    page.wait_for_url(f"**/match/{match_id}/")
    expect(page.locator("tr[data-deal='1'] .badge")).to_have_text("已确认")
    shown = {"T": "10"}
    for side in ("NS", "EW"):
        expect(page.get_by_test_id(f"level-{side}")).to_have_text(
            shown.get(levels_after[side], levels_after[side])
        )


def sign_in(where, server, username: str) -> None:
    """Sign ``username`` in by the session cookie Django's own test client makes (``force_login``), not the form:
    a form log-in is a page load, a POST and a redirect. ``where`` is a page or its browser context, ``server``
    the live server or its address. The form itself is still signed in through by the tests that use ``login``
    (test_site, test_judge, test_three_decks, the offline journal's plain-http test, the first log-ins with a
    password a page showed) and by the Django client tests of the login view."""
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test import Client

    client = Client()
    client.force_login(get_user_model().objects.get(username=username))
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    context = getattr(where, "context", where)  # a page's context, or the context itself
    url = getattr(server, "url", server)
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": url}])
