"""Who is signed in (``referee/auth.py``): Django's session store and model backend sign a judge in, expire a
session and sign out a deactivated account; a session signed in under the backend's name stays signed in."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import BACKEND_SESSION_KEY, get_user_model
from django.contrib.sessions.models import Session
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from referee.table.recording.deal_entry import start_deal

pytestmark = pytest.mark.django_db


@pytest.fixture
def state_url(match, judge):
    return reverse("deal_state", args=[start_deal(match, judge, trump="S", declarer="N").pk])


def logged_in(judge) -> Client:
    client = Client()
    answer = client.post(reverse("login"), {"username": judge.username, "password": "judge-pass-1"})
    assert answer.status_code == 302
    return client


def test_a_judge_who_logs_in_is_read_back_by_the_model_backend_on_the_next_request(judge, state_url):
    client = logged_in(judge)
    assert client.session[BACKEND_SESSION_KEY] == "referee.auth.ModelBackend"
    answer = client.get(state_url, HTTP_ACCEPT="application/json")
    assert answer.status_code == 200 and answer.json()["deal"]["state"] == "recording"


def test_an_expired_session_is_no_session(judge, state_url):
    client = logged_in(judge)
    Session.objects.filter(session_key=client.session.session_key).update(
        expire_date=timezone.now() - timedelta(seconds=1)
    )
    answer = client.get(state_url)
    assert answer.status_code == 302 and answer["Location"].startswith(reverse("login"))


def test_a_deactivated_account_is_signed_out_at_its_next_request(judge, state_url):
    client = logged_in(judge)
    get_user_model().objects.filter(pk=judge.pk).update(is_active=False)
    answer = client.get(state_url)
    assert answer.status_code == 302 and answer["Location"].startswith(reverse("login"))


def test_a_session_of_a_deleted_account_is_signed_out(make_judge, state_url):
    gone = make_judge("gone")
    client = logged_in(gone)
    gone.delete()
    assert client.get(state_url).status_code == 302
