"""Entries made as a player makes them: the public form posted with its one-time key."""

from __future__ import annotations

from django.test import Client
from django.urls import reverse

from tournaments.entries.forms import new_key


def form_data(n: int, **changes) -> dict:
    data = {
        "name": f"红队{n}",
        "player1": f"张{n}",
        "player2": f"李{n}",
        "club": "朝阳俱乐部",
        "contact": f"1380000{n:04d}",
        "key": new_key(),
    }
    return {**data, **changes}


def enter(client: Client, slug: str, n: int, **changes):
    return client.post(reverse("enter", args=[slug]), form_data(n, **changes))
