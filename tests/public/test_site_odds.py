"""Small things a visitor's browser or a director meets: the site's icon at /favicon.ico."""

from __future__ import annotations

import pytest
from django.contrib.staticfiles import finders
from django.templatetags.static import static
from django.test import Client

pytestmark = pytest.mark.django_db


def test_the_favicon_address_leads_to_the_sites_icon(client: Client):
    answer = client.get("/favicon.ico")
    assert answer.status_code == 301 and answer["Location"] == static("favicon.svg")
    assert "<svg" in open(finders.find("favicon.svg"), encoding="utf-8").read()
