"""Who may do what: the tournament director (TD) writes everything; a judge writes the matches assigned to them."""

from __future__ import annotations

from django.contrib.auth.models import Group

DIRECTOR_GROUP = "director"
JUDGE_GROUP = "judge"


def is_director(user) -> bool:
    """A TD: a superuser or a member of the director group."""
    if not getattr(user, "is_authenticated", False):
        return False
    return user.is_superuser or user.groups.filter(name=DIRECTOR_GROUP).exists()


def is_judge(user) -> bool:
    if not getattr(user, "is_authenticated", False):
        return False
    return user.groups.filter(name=JUDGE_GROUP).exists()


def add_to_group(user, name: str) -> None:
    group, _created = Group.objects.get_or_create(name=name)
    user.groups.add(group)
