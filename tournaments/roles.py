"""Who may do what: the tournament director (TD) writes everything; a judge writes the matches assigned to them."""

from __future__ import annotations

from django.contrib.auth.models import Group

DIRECTOR_GROUP = "director"
JUDGE_GROUP = "judge"


def group_names(user) -> frozenset[str]:
    """The user's groups, read once per user object (a request asks several times)."""
    cached = getattr(user, "_group_names", None)
    if cached is None:
        cached = frozenset(user.groups.values_list("name", flat=True))
        user._group_names = cached
    return cached


def is_director(user) -> bool:
    """A TD: a superuser or a member of the director group."""
    if not getattr(user, "is_authenticated", False):
        return False
    return user.is_superuser or DIRECTOR_GROUP in group_names(user)


def is_judge(user) -> bool:
    if not getattr(user, "is_authenticated", False):
        return False
    return JUDGE_GROUP in group_names(user)


def add_to_group(user, name: str) -> None:
    group, _created = Group.objects.get_or_create(name=name)
    user.groups.add(group)
    user.__dict__.pop("_group_names", None)
