"""Small services shared by the pages, the management commands and the tests."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.competition.access import DIRECTOR_GROUP, TABLE_ACCOUNT_PREFIX, add_to_group
from tournaments.models import Match, Pair, Player


def site_is_new() -> bool:
    """True on an empty database: nobody can log in yet, so the home page offers the director's account."""
    return not get_user_model().objects.exists()


def display_name(account) -> str:
    """How an account is named on the desk's pages: the display name, else the user name; a table device's
    account by its table (``table:<round>:<table>:<random>``), never by its internal name."""
    name = account.get_username()
    if name.startswith(TABLE_ACCOUNT_PREFIX):
        parts = name.split(":")
        return _("the device at table %(table)s") % {"table": parts[2] if len(parts) > 2 else "?"}
    return account.get_full_name() or name


@transaction.atomic
def create_director(username: str, password: str, email: str = ""):
    """The TD's account: staff (admin pages), superuser, and in the director group."""
    user = get_user_model().objects.create_superuser(username=username, email=email, password=password)
    add_to_group(user, DIRECTOR_GROUP)
    return user


def seat_table(rnd, table: int, judge, names: tuple[str, str] = ("NS", "EW")):
    """A match at ``table`` between two new pairs named ``names`` (players ``…a``/``…b``), for the benchmarks,
    the load test and the tests that need a table without a draw."""
    pairs = [
        Pair.objects.create(
            tournament=rnd.tournament,
            name=name,
            player1=Player.objects.create(name=f"{name}a"),
            player2=Player.objects.create(name=f"{name}b"),
        )
        for name in names
    ]
    return Match.objects.create(round=rnd, table=table, pair_ns=pairs[0], pair_ew=pairs[1], judge=judge)
