"""A club day under load and abuse: login throttling, error logs, security headers, the CSP and body limits."""

from __future__ import annotations

import logging
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.utils import get_random_secret_key
from django.test import Client, override_settings
from django.urls import include, path, reverse

from referee.security import client_address
from referee.table.recording.deal_entry import start_deal

ROOT = Path(__file__).resolve().parent.parent
JSON = {"HTTP_ACCEPT": "application/json"}
STRONG_KEY = get_random_secret_key()  # made afresh: a key written here would be public


def boom(request):
    raise ZeroDivisionError("the scorer divided by zero")


# This module is also a URLconf (the site's pages plus one that fails) for the logging tests.
urlpatterns = [path("boom/", boom), path("", include("referee.urls"))]


def chinese(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "zh-hans"


def log_in(client, username, password, address="10.0.0.1", **headers):
    data = {"username": username, "password": password}
    return client.post(reverse("login"), data, REMOTE_ADDR=address, **headers)


def is_logged_in(client) -> bool:
    return "_auth_user_id" in client.session


# ── 1. login throttling ─────────────────────────────────────────────────────────────────────────────────────


@pytest.mark.django_db
def test_five_wrong_passwords_lock_the_account_even_against_the_right_one(client, judge):
    chinese(client)
    for _ in range(4):
        response = log_in(client, "judge", "wrong-password")
        assert response.status_code == 200 and "登录已暂停" not in response.content.decode()
    locked = log_in(client, "judge", "wrong-password")
    assert locked.status_code == 429
    html = locked.content.decode()
    assert "登录失败次数过多" in html and "15 分钟" in html and 'class="error"' in html
    assert '<html lang="zh-hans">' in html and 'name="password"' in html  # the login page, styled, in Chinese

    refused = log_in(client, "judge", "judge-pass-1")
    assert refused.status_code == 429 and "登录已暂停" in refused.content.decode()
    assert not is_logged_in(client)


@pytest.mark.django_db
def test_the_account_stays_locked_from_another_address(client, judge):
    for n in range(5):
        log_in(client, "judge", "wrong-password", address=f"10.0.1.{n}")
    assert log_in(client, "judge", "judge-pass-1", address="10.0.2.1").status_code == 429
    assert not is_logged_in(client)


@pytest.mark.django_db
def test_one_address_guessing_many_accounts_is_locked_but_others_are_not(client, judge, director):
    for n in range(5):
        log_in(client, f"guess{n}", "wrong-password", address="10.0.3.3")
    assert log_in(client, "td", "director-pass-1", address="10.0.3.3").status_code == 429
    assert not is_logged_in(client)
    other = Client()
    assert log_in(other, "td", "director-pass-1", address="10.0.3.4").status_code == 302
    assert is_logged_in(other)


@pytest.mark.django_db
def test_lock_message_follows_the_language(client, judge):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    for _ in range(5):
        response = log_in(client, "judge", "wrong-password")
    assert "Too many failed log-ins" in response.content.decode()
    assert "paused for 15 minutes" in response.content.decode()


@pytest.mark.django_db
def test_a_successful_login_clears_the_count(client, judge):
    for _ in range(4):
        log_in(client, "judge", "wrong-password")
    assert log_in(client, "judge", "judge-pass-1").status_code == 302
    client.logout()
    for _ in range(4):
        log_in(client, "judge", "wrong-password")
    assert log_in(client, "judge", "judge-pass-1").status_code == 302


@pytest.mark.django_db
def test_a_captains_log_in_between_guesses_does_not_clear_the_directors_count(client, director):
    """A success cleared the failures of every account from its address: 10 × (4 guesses at the director's
    password, then a captain at the same table logs in) was 40 guesses and never a lock-out."""
    get_user_model().objects.create_user(username="captain", password="captain-pass-1")
    answers = []
    for _ in range(10):
        for _ in range(4):
            answers.append(log_in(client, "td", "wrong-password").status_code)
        assert log_in(Client(), "captain", "captain-pass-1").status_code in (302, 429)
    assert 429 in answers and answers.index(429) == 4  # the fifth guess at the director's password
    assert log_in(Client(), "td", "director-pass-1", address="10.0.9.9").status_code == 429  # the account too


@pytest.mark.django_db
def test_a_log_in_clears_its_own_accounts_failures_and_not_the_other_names_from_its_address(client, judge):
    """The judge's success forgets the judge's typos, not the four other names guessed from that address."""
    get_user_model().objects.create_user(username="captain", password="captain-pass-1")
    for n in range(2):
        log_in(client, "judge", "wrong-password")
        log_in(client, f"guess{n}", "wrong-password")
    assert log_in(client, "judge", "judge-pass-1").status_code == 302
    other = Client()
    for name in ("nobody", "no-one"):
        assert log_in(other, name, "wrong-password").status_code == 200  # the address's third and fourth
    assert log_in(other, "captain", "wrong-password").status_code == 429  # ... and its fifth
    assert log_in(Client(), "judge", "judge-pass-1", address="10.0.9.9").status_code == 302  # not the judge


@pytest.mark.django_db
@pytest.mark.parametrize("page", ["login", "admin:login"])
def test_an_overlong_user_name_is_counted_as_a_failed_log_in_not_a_500(page, judge):
    """django-axes stores the name in 255 characters: on PostgreSQL 256 were a DataError and the guess went
    uncounted. The name is counted under its first 150 characters (no account's name is longer)."""
    from axes.models import AccessAttempt

    client = Client(raise_request_exception=False)
    name = "管" * 300
    for n in range(5):
        data = {"username": name + str(n), "password": "wrong-password"}
        response = client.post(reverse(page), data, REMOTE_ADDR="10.0.4.4")
        assert response.status_code == (429 if n == 4 else 200)
    [attempt] = AccessAttempt.objects.all()
    assert attempt.username == "管" * 150 and attempt.failures_since_start == 5


def test_client_address_trusts_the_proxy_only_behind_one(rf):
    request = rf.get("/", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="6.6.6.6, 192.168.1.20")
    with override_settings(BEHIND_PROXY=False, TRUSTED_PROXIES=["10.0.0.0/24"]):
        assert client_address(request) == "10.0.0.2"
    with override_settings(BEHIND_PROXY=True, TRUSTED_PROXIES=["10.0.0.0/24"]):
        assert client_address(request) == "192.168.1.20"


@pytest.mark.parametrize("trusted", [["127.0.0.1", "::1"], ["10.0.0.3"], ["not an address"], []])
def test_a_forwarded_address_from_a_client_that_is_not_a_trusted_proxy_counts_nothing(rf, trusted):
    request = rf.get("/", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="192.168.1.20")
    with override_settings(BEHIND_PROXY=True, TRUSTED_PROXIES=trusted):
        assert client_address(request) == "10.0.0.2"


# ── 2. logging ──────────────────────────────────────────────────────────────────────────────────────────────


@pytest.mark.urls("tests.test_security")
def test_a_failing_view_is_a_500_and_an_error_record_with_its_traceback(caplog):
    client = Client(raise_request_exception=False)
    with caplog.at_level(logging.ERROR, logger="django.request"):
        response = client.get("/boom/")
    assert response.status_code == 500
    [record] = [r for r in caplog.records if r.name == "django.request"]
    assert record.levelno == logging.ERROR and record.exc_info[0] is ZeroDivisionError


FAIL_ONE_REQUEST = """
import django
from django.test import Client, override_settings
django.setup()
with override_settings(ROOT_URLCONF="tests.test_security"):
    print(Client(raise_request_exception=False).get("/boom/").status_code)
"""


def test_without_debug_errors_go_to_stderr_and_the_log_file(tmp_path):
    log_file = tmp_path / "referee.log"
    env = {
        **os.environ,
        "DEBUG": "0",
        "SECRET_KEY": STRONG_KEY,
        "ALLOWED_HOSTS": "testserver",
        "LOG_FILE": str(log_file),
        "DJANGO_SETTINGS_MODULE": "referee.settings",
    }
    result = subprocess.run(
        [sys.executable, "-c", FAIL_ONE_REQUEST],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.stdout.strip() == "500", result.stderr
    for text in (result.stderr, log_file.read_text(encoding="utf-8")):
        assert "ERROR django.request" in text
        assert "Traceback (most recent call last)" in text
        assert "ZeroDivisionError: the scorer divided by zero" in text


# ── 4. and 5. security headers and the Content-Security-Policy ──────────────────────────────────────────────


@pytest.fixture
def pages(client, tournament, round1, match, judge, director):
    """Every kind of page: public, a judge's, the director's, Django's admin, a 404, a refusal."""
    deal = start_deal(match, judge, trump="S", declarer="N")
    slug = tournament.slug
    anonymous = [
        reverse("home"),
        reverse("login"),
        reverse("tournament", args=[slug]),
        reverse("standings", args=[slug]),
        reverse("round", args=[slug, 1]),
        reverse("results", args=[slug]),
        reverse("admin:login"),
        "/no-such-page/",
    ]
    judged = [reverse("home"), reverse("match", args=[match.pk]), reverse("deal", args=[deal.pk])]
    directed = [reverse("desk", args=[slug]), reverse("desk-round", args=[slug, 1]), reverse("admin:index")]
    return (
        [(None, url) for url in anonymous]
        + [(judge, url) for url in judged]
        + [(director, url) for url in directed]
    )


INLINE_SCRIPT = re.compile(r"<script\b(?![^>]*\bsrc=)(?![^>]*type=\"application/json\")[^>]*>", re.I)
INLINE_HANDLER = re.compile(r"<[^>]*\son[a-z]+\s*=", re.I)
INLINE_STYLE = re.compile(r"<[^>]*\sstyle\s*=|<style\b", re.I)


def test_every_page_carries_the_csp_and_security_headers_and_no_inline_script(client, pages):
    for user, url in pages:
        client.logout()
        if user:
            client.force_login(user)
        response = client.get(url)
        assert response.status_code in (200, 404), (url, response.status_code)
        policy = response["Content-Security-Policy"]
        assert "default-src 'self'" in policy and "script-src 'self'" in policy, url
        assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
        assert response["X-Frame-Options"] == "DENY"
        assert response["X-Content-Type-Options"] == "nosniff"
        assert response["Referrer-Policy"] == "same-origin"
        if url.startswith("/admin"):
            continue  # Django's admin is Django's; it sends only external scripts, the policy holds it to that
        html = response.content.decode()
        assert not INLINE_SCRIPT.search(html), url
        assert not INLINE_HANDLER.search(html), url
        assert not INLINE_STYLE.search(html), url


def template_files() -> list[Path]:
    return sorted(p for p in ROOT.glob("**/templates/**/*.html") if ".venv" not in p.parts)


@pytest.mark.parametrize("template", template_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_template_has_an_inline_script_handler_or_style(template):
    text = template.read_text(encoding="utf-8")
    assert not INLINE_SCRIPT.search(text), "move the script into static/js/ and load it with src="
    assert not INLINE_HANDLER.search(text), "attach the handler from a static/js/ file instead of on…="
    assert not INLINE_STYLE.search(text), "use a class from static/css/ instead of style="
    assert "javascript:" not in text


def test_the_template_scan_would_see_an_inline_script():
    assert INLINE_SCRIPT.search("<p><script>alert(1)</script>")
    assert not INLINE_SCRIPT.search('<script src="/static/js/site.js" defer></script>')
    assert INLINE_HANDLER.search('<button type="button" onclick="window.print()">')
    assert INLINE_STYLE.search('<td style="color: red">')


# ── 6. request body size ────────────────────────────────────────────────────────────────────────────────────


class Unreadable:
    """A request body that fails the test if anything reads it."""

    def read(self, *args):
        raise AssertionError("the body was read")

    readline = read


def post_declared(client, url, size, **extra):
    """POST declaring ``size`` bytes of body without sending them: only Content-Length is looked at."""
    return client.generic(
        "POST",
        url,
        b"",
        content_type="application/x-www-form-urlencoded",
        CONTENT_LENGTH=str(size),
        **{"wsgi.input": Unreadable()},
        **extra,
    )


@pytest.mark.django_db
def test_anonymous_request_over_64_kb_is_refused_unread(client):
    chinese(client)
    response = post_declared(client, reverse("login"), 64 * 1024 + 1)
    assert response.status_code == 413
    html = response.content.decode()
    assert "请求太大" in html and "64.0" in html and 'class="error"' in html


@pytest.mark.django_db
def test_anonymous_small_request_goes_through(client):
    response = client.post(reverse("login"), {"username": "x", "password": "y" * 60_000})
    assert response.status_code == 200


@pytest.mark.django_db
def test_signed_in_limit_is_2_mb(client, director, tournament):
    client.force_login(director)
    url = reverse("desk-import", args=[tournament.slug])
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    refused = post_declared(client, url, 2 * 1024 * 1024 + 1)
    assert refused.status_code == 413 and "at most 2.0" in refused.content.decode()
    upload = b"pair,player1,player2,club\n" + b"x" * 1_500_000
    from django.core.files.uploadedfile import SimpleUploadedFile

    accepted = client.post(url, {"file": SimpleUploadedFile("pairs.csv", upload, content_type="text/csv")})
    assert accepted.status_code == 200  # past the middleware: the import's own 1 MB check answers


def test_upload_limits_sit_under_the_signed_in_limit():
    assert settings.DATA_UPLOAD_MAX_MEMORY_SIZE <= settings.REQUEST_MAX_BYTES_SIGNED_IN
    assert settings.FILE_UPLOAD_MAX_MEMORY_SIZE <= settings.REQUEST_MAX_BYTES_SIGNED_IN
    assert settings.REQUEST_MAX_BYTES_ANONYMOUS < settings.REQUEST_MAX_BYTES_SIGNED_IN


# ── 5. headers ──────────────────────────────────────────────────────────────────────────────────────────────


@pytest.mark.django_db
@pytest.mark.parametrize(
    "header", ["HTTP_USER_AGENT", "HTTP_ACCEPT", "HTTP_REFERER", "HTTP_X_IDEMPOTENCY_KEY"]
)
def test_a_header_with_a_nul_character_is_refused_before_a_failed_log_in_stores_it(client, judge, header):
    """django-axes stores a failed log-in's user agent and Accept header, and PostgreSQL cannot store NUL: a 500
    for anyone on the hall's network. HTTP forbids NUL in a header, so no client sends one."""
    from axes.models import AccessAttempt, AccessFailureLog

    chinese(client)
    response = client.post(
        reverse("login"), {"username": "judge", "password": "wrong-password"}, **{header: "text/html\x00"}
    )
    assert response.status_code == 400 and "页面提交的内容无法识别。" in response.content.decode()
    assert not AccessAttempt.objects.exists() and not AccessFailureLog.objects.exists()
    assert client.get("/", **{header: "\x00"}).status_code == 400


@pytest.mark.django_db
def test_headers_a_browser_sends_pass(client, judge):
    headers = {
        "HTTP_USER_AGENT": "Mozilla/5.0 (Linux; Android 14) 平板 ÿ",
        "HTTP_ACCEPT": "text/html,*/*;q=0.8",
    }
    assert log_in(client, "judge", "judge-pass-1", **headers).status_code == 302


@pytest.mark.django_db
@pytest.mark.parametrize("debug", [True, False])
@pytest.mark.parametrize("charset", ["utf-16", "utf-32", "cp500", "rot13", "hex", "latin-1"])
def test_a_form_posted_in_another_charset_than_utf8_is_a_400_with_or_without_debug(judge, charset, debug):
    """Django refuses such a form (BadRequest); under DEBUG its debug page read the form again and failed: a 500
    from `make run`."""
    client = Client(raise_request_exception=False)
    chinese(client)
    kind = f"application/x-www-form-urlencoded; charset={charset}"
    with override_settings(DEBUG=debug):
        page = client.generic("POST", reverse("login"), b"username=judge&password=x", content_type=kind)
        script = client.generic(
            "POST", reverse("login"), b"username=judge&password=x", content_type=kind, **JSON
        )
    assert page.status_code == 400 and "页面提交的内容无法识别。" in page.content.decode()
    assert script.status_code == 400 and script.json()["error"] == "bad_request"


@pytest.mark.django_db
@pytest.mark.parametrize("charset", ["utf-8", "UTF-8", "x-no-such-charset"])
def test_a_form_posted_in_utf8_or_an_unknown_charset_is_read(judge, charset):
    """An unknown charset is ignored (read as UTF-8), as Django ignores it."""
    client = Client()
    kind = f"application/x-www-form-urlencoded; charset={charset}"
    body = b"username=judge&password=judge-pass-1"
    assert client.generic("POST", reverse("login"), body, content_type=kind).status_code == 302


@pytest.mark.django_db
@pytest.mark.parametrize("query", ["q=%00", "slug=a%00b", "%00=1", "o=1&e=%00"])
def test_a_query_string_with_a_nul_character_is_refused_on_every_page(client, director, query):
    """PostgreSQL cannot compare text with a NUL: the admin's list filters and search gave it a 500."""
    client.force_login(director)
    for page in ("/", "/admin/tournaments/tournament/", "/admin/auth/user/", "/admin/axes/accessattempt/"):
        assert client.get(f"{page}?{query}").status_code == 400, page
    assert client.get("/admin/tournaments/tournament/?q=a").status_code == 200
    assert client.get("/admin/tournaments/tournament/?q=a%2500").status_code == 200  # a percent sign, no NUL
