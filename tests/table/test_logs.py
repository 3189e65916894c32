"""The site's logs: no live table token in the access log or Django's lines, and a refusal the site meant (403)
in one line, not a traceback."""

from __future__ import annotations

import datetime
import io
import logging

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils.module_loading import import_string

from referee import serve
from tests.table.helpers import open_link
from tournaments.table_links import services

TOKEN = "Zq3kX9mB_tY7wQ2rL5nV8cD1fH4jK6pS0uE3gA9bT2x"


def test_the_access_log_of_make_serve_writes_no_table_token():
    from gunicorn.config import Config
    from gunicorn.glogging import Logger

    argv = serve.gunicorn_argv("127.0.0.1:8000")
    named = [a.split("=", 1)[1] for a in argv if a.startswith("--logger-class=")]
    logger_class = import_string(named[0]) if named else Logger
    config = Config()
    config.set("accesslog", "-")
    log = logger_class(config)
    out = io.StringIO()
    log.access_log.handlers = [logging.StreamHandler(out)]
    environ = {
        "REQUEST_METHOD": "GET",
        "RAW_URI": f"/k/{TOKEN}/",
        "PATH_INFO": f"/k/{TOKEN}/",
        "QUERY_STRING": "",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "10.0.0.7",
        "HTTP_REFERER": f"http://hall/k/{TOKEN}/",
    }
    response = type("Response", (), {"status": "302 Found", "sent": 0, "headers": []})()
    log.access(response, type("Request", (), {"headers": []})(), environ, datetime.timedelta(milliseconds=3))
    line = out.getvalue()
    assert "GET /k/" in line and TOKEN not in line


@pytest.fixture
def site_log():
    """A handler made as ``LOGGING`` makes the site's, with its filters, on the root logger: what it wrote."""
    config = settings.LOGGING
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(logging.Formatter(config["formatters"]["line"]["format"]))
    for name in config["handlers"]["stderr"].get("filters", []):
        handler.addFilter(import_string(config["filters"][name]["()"])())
    logging.getLogger().addHandler(handler)
    yield out
    logging.getLogger().removeHandler(handler)


@pytest.mark.django_db
def test_a_dead_table_link_leaves_no_token_in_the_sites_log(site_log):
    assert open_link(TOKEN)[0].status_code == 404
    written = site_log.getvalue()
    assert "/k/" in written and TOKEN not in written


@pytest.mark.django_db
def test_a_refusal_the_site_meant_is_one_line_in_the_log(site_log, match, other_match, director):
    device = open_link(services.issue_card(other_match, director).token)[1]
    assert device.get(reverse("new_deal", args=[match.pk])).status_code == 403
    lines = [line for line in site_log.getvalue().splitlines() if line.strip()]
    assert any("Forbidden" in line for line in lines)
    assert len(lines) == 1 and "Traceback" not in site_log.getvalue()
