"""Fixtures of the desk's tests beyond the project's (tests/conftest.py)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from tournaments.models import Pair


@pytest.fixture
def captain(match):
    user = get_user_model().objects.create_user(username="captain", password="captain-pass-1")
    Pair.objects.filter(pk=match.pair_ns_id).update(captain=user)
    return user
