"""Playwright driving Debian's chromium-headless-shell (else its chromium) against the live test server; screenshots (SCREENSHOTS=1) go to test-output/."""

from __future__ import annotations

import os
import shutil
import threading
from pathlib import Path

import pytest
from django.core.servers.basehttp import ThreadedWSGIServer
from django.test.testcases import LiveServerThread

from tests.browser import shots

# Playwright's sync API runs an event loop in this thread; the ORM calls made by fixtures are still synchronous.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


class OneRequestAtATime(ThreadedWSGIServer):
    """The live server, answering one request at a time. Its threads share the test's one in-memory SQLite
    connection, so two requests at once (a reloaded page's journal and the old page's retry, say) would race on that
    connection's transaction state, which a real server (a connection per thread) never does. Reading requests stays
    threaded, so a browser's idle pre-opened socket blocks nothing."""

    def set_app(self, application):
        lock = threading.Lock()

        def one_at_a_time(environ, start_response):
            with lock:
                return application(environ, start_response)

        super().set_app(one_at_a_time)


LiveServerThread.server_class = OneRequestAtATime

# Debian's chromium-headless-shell, Chromium's old headless mode as a program of its own: the tests see the same
# Blink, V8 and DevTools protocol as in the full chromium, without its browser process's windowing, profile and
# extension machinery, which costs about a fifth of the browser tests' CPU. The full chromium, else; CHROMIUM_BIN
# names another.
CHROMIUM = (
    os.environ.get("CHROMIUM_BIN")
    or shutil.which("chromium-headless-shell")
    or shutil.which("chromium")
    or "/usr/bin/chromium-headless-shell"
)


# The names some tests open instead of 127.0.0.1, mapped to it: no other address is opened by those names.
HOST_RULES = "MAP hall.test 127.0.0.1,MAP lan.test 127.0.0.1"


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/browser" in str(item.fspath):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.fail(
            "no chromium: `make test` installs Debian's chromium-headless-shell package (or set CHROMIUM_BIN)"
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                # The hall's and a club LAN's names (test_table_last_mile, test_offline_journal's plain-http
                # test) found at the test server: plain-http addresses that are not the loopback's, in this
                # browser rather than in one launched for them (a browser's launch costs more than its contexts).
                f"--host-resolver-rules={HOST_RULES}",
            ],
        )
        yield browser
        browser.close()


@pytest.fixture
def page(browser, live_server):
    """A fresh tablet-sized page; ``page.goto_path('/x/')`` opens a path on the live server."""
    context = browser.new_context(viewport={"width": 1024, "height": 768}, locale="zh-CN")
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.goto_path = lambda path: page.goto(live_server.url + path)
    yield page
    context.close()


@pytest.fixture
def screenshot(request):
    """Save a screenshot under test-output/screenshots/<test name>-<label>.png (with SCREENSHOTS=1)."""

    def take(page, label: str) -> Path:
        path = shots.OUTPUT / f"{request.node.name}-{label}.png"
        shots.save(page, path, full_page=True)
        return path

    return take
