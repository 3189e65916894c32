"""The address of each action on a deal or a match by the action's name, for tests that go through several (one
named URL each: ``referee/table/urls.py``)."""

from __future__ import annotations

from django.urls import reverse

DEAL_ACTIONS = (
    "play",
    "undo",
    "undo_trick",
    "kitty",
    "penalty",
    "remove_penalty",
    "played",
    "apply",
    "dismiss",
    "undismiss",
    "out_of_turn",
    "winner",
    "given_back",
    "submit",
    "confirm",
    "reopen",
    "pin_confirm",
)
MATCH_ACTIONS = ("call-time", "forfeit")


def deal_url(deal_id: int, action: str) -> str:
    """``/deal/<id>/<action>/`` by its URL's name (``deal-undo-trick`` for ``undo_trick``)."""
    return reverse("deal-" + action.replace("_", "-"), args=[deal_id])


def match_url(match_id: int, action: str) -> str:
    return reverse("match-" + action, args=[match_id])
