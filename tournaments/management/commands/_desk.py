"""What the desk's commands share: finding a tournament by its slug."""

from __future__ import annotations

from django.core.management.base import CommandError

from tournaments.models import Tournament


def get_tournament(slug: str) -> Tournament:
    try:
        return Tournament.objects.get(slug=slug)
    except Tournament.DoesNotExist:
        raise CommandError(f"no tournament with slug {slug!r}") from None
