"""The team rows' part of the public cache: a saved or deleted team, zone, fixture, line-up or table renews its
tournament's public generation (``tournaments.public.generation``), as the pairs' rows do."""

from __future__ import annotations

from django.db.models.signals import post_delete, post_save

from tournaments.models import (
    LineUp,
    Round,
    Team,
    TeamEvent,
    TeamMatch,
    TeamPair,
    TeamTable,
    Tournament,
    Zone,
)
from tournaments.public.generation import bump, slugs


def scope_of(instance) -> list[str]:
    if isinstance(instance, Team | Zone | TeamEvent):
        return slugs(Tournament, "slug", instance.tournament_id)
    if isinstance(instance, TeamMatch):
        return slugs(Round, "tournament__slug", instance.round_id)
    if isinstance(instance, LineUp | TeamTable):
        return slugs(TeamMatch, "round__tournament__slug", instance.team_match_id)
    return slugs(Team, "tournament__slug", instance.team_id)  # a roster's pair


def changed(sender, instance, **kwargs) -> None:
    bump(scope_of(instance))


def connect() -> None:
    """Called from the app's ``ready``, beside the pairs' rows."""
    for model in (TeamEvent, Zone, Team, TeamPair, TeamMatch, LineUp, TeamTable):
        post_save.connect(changed, sender=model, dispatch_uid=f"public-gen-save-{model.__name__}")
        post_delete.connect(changed, sender=model, dispatch_uid=f"public-gen-delete-{model.__name__}")
