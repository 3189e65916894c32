"""What the desk's commands share: finding a tournament by its slug."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import CommandError

from tournaments.models import Tournament


def get_tournament(slug: str) -> Tournament:
    try:
        return Tournament.objects.get(slug=slug)
    except Tournament.DoesNotExist:
        raise CommandError(f"no tournament with slug {slug!r}") from None


def read_text(path: str) -> str:
    """A file the command was given, as text; CommandError naming it when it cannot be read."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CommandError(f"cannot read {path}: {exc}") from None
