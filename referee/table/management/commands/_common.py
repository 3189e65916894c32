"""What the table-side commands share: the operator account and reading a match."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import CommandError

from tournaments.competition.access import is_director
from tournaments.models import Match


def operator(username: str | None):
    """The account the command acts as: the one named, else the first director."""
    User = get_user_model()
    if username:
        try:
            return User.objects.get(username=username)
        except User.DoesNotExist:
            raise CommandError(f"no account named {username!r}") from None
    user = next((u for u in User.objects.order_by("pk").iterator() if is_director(u)), None)
    if user is None:
        raise CommandError("no director account: create one first (the home page, or createsuperuser)")
    return user


def get_match(match_id: int) -> Match:
    try:
        return Match.objects.select_related("round__tournament", "pair_ns", "pair_ew").get(pk=match_id)
    except Match.DoesNotExist:
        raise CommandError(f"no match with id {match_id}") from None
