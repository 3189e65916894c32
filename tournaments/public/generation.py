"""Each tournament's public “generation”: a token in the shared cache that changes whenever what its public
pages show changes, so a cached page is found only while it is still true.

The token lives in Django's cache (``CACHES``), which every server process shares — a file cache on one machine,
Redis across machines — so a write on one process is seen by all at once. A bump writes a fresh random token
(no read-modify-write, so two bumps never race into one), after the write's transaction commits; a token lost to
eviction is replaced by a fresh one, never by an old value. The writes are caught by ``post_save``/``post_delete``
on the models the public pages read (the pairs' and the teams' rows), so every service, the admin and the commands
bump without knowing. These are the project's only signal receivers (``tests/test_no_hidden_work.py``): a
``pre_save`` reads, only when it matters, what a row was before the save (a deal leaving the shown states, a
tournament's old address), so nothing runs when a row is merely built.
"""

from __future__ import annotations

import hashlib
import secrets

from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import post_delete, post_save, pre_save

from tournaments.models import (
    ArtificialScore,
    Board,
    BoardRuling,
    Bye,
    Deal,
    DuplicateEvent,
    EntryWindow,
    LineUp,
    Match,
    Pair,
    Player,
    Round,
    Seating,
    Team,
    TeamEvent,
    TeamMatch,
    TeamPair,
    TeamTable,
    Tournament,
    VenueResults,
    Zone,
)

EVERY_TOURNAMENT = "all"  # players and accounts are shared by tournaments: their change bumps this one
TIMEOUT = None  # tokens never expire by time; eviction only makes a fresh one


def key(scope: str) -> str:
    """The cache key of a scope (a slug may be long: the key is its digest)."""
    return f"public-gen:{hashlib.blake2b(scope.encode(), digest_size=12).hexdigest()}"


def tokens(slug: str) -> str | None:
    """The current tokens of this tournament (by its address's slug: no database read) and of every tournament,
    in one cache read; None when the slug names no tournament."""
    keys = [key(EVERY_TOURNAMENT), key(f"t:{slug}")]
    found = cache.get_many(keys)
    for k in keys:
        if k not in found:
            if k != keys[0] and not Tournament.objects.filter(slug=slug).exists():
                return None  # no token for an address that names nothing (a scan fills no cache)
            found[k] = fresh()
            if not cache.add(k, found[k], TIMEOUT):  # another process made it first: use theirs
                found[k] = cache.get(k, found[k])
    return "-".join(found[k] for k in keys)


def fresh() -> str:
    return secrets.token_hex(8)


def bump(scopes: list[str]) -> None:
    """New tokens for these tournaments (or for every one) now, and again once the current transaction commits:
    a page built from the rows before the commit, under the first new token, is never asked for again (and a
    test's transaction, which never commits, still sees its writes)."""
    if not scopes:
        return

    def renew() -> None:
        cache.set_many({key(scope): fresh() for scope in scopes}, TIMEOUT)

    renew()
    if transaction.get_connection().in_atomic_block:
        transaction.on_commit(renew)


# --- which tournament a saved row belongs to ------------------------------------------------------------------


def slugs(rows, path: str, pk: int | None) -> list[str]:
    return [f"t:{slug}" for slug in rows.objects.filter(pk=pk).values_list(path, flat=True) if slug]


def scope_of(instance) -> list[str]:
    """The tournaments (by slug) whose public pages may show this row; a renamed address bumps both."""
    if isinstance(instance, Tournament):
        return sorted({f"t:{instance.slug}", f"t:{getattr(instance, '_old_slug', None) or instance.slug}"})
    if isinstance(instance, Pair | Round):
        return slugs(Tournament, "slug", instance.tournament_id)
    if isinstance(instance, Match | Bye | Seating):
        return slugs(Round, "tournament__slug", instance.round_id)
    if isinstance(instance, Deal):
        return slugs(Match, "round__tournament__slug", instance.match_id)
    if isinstance(instance, Team | Zone | TeamEvent | EntryWindow | Board | DuplicateEvent | VenueResults):
        return slugs(Tournament, "slug", instance.tournament_id)
    if isinstance(instance, ArtificialScore):
        return slugs(Match, "round__tournament__slug", instance.match_id)
    if isinstance(instance, TeamMatch):
        return slugs(Round, "tournament__slug", instance.round_id)
    if isinstance(instance, LineUp | TeamTable | BoardRuling):
        return slugs(TeamMatch, "round__tournament__slug", instance.team_match_id)
    if isinstance(instance, TeamPair):
        return slugs(Team, "tournament__slug", instance.team_id)  # a roster's pair
    return [EVERY_TOURNAMENT]  # a player, an account


# --- the signals ----------------------------------------------------------------------------------------------


SHOWN = (Deal.State.SUBMITTED, Deal.State.CONFIRMED)


def shows(deal: Deal) -> bool:
    """A deal counts on the public pages once submitted (the projector screen counts the deals waiting for
    confirmation) or confirmed; one leaving those states (reopened) counts too. Deals being recorded change with
    every play and are never shown, so they never bump."""
    return deal.state in SHOWN or getattr(deal, "_left_shown", False)


def before_save(sender, instance, **kwargs) -> None:
    """What the row was before this save, where the bump needs it: a deal saved while being recorded that was
    shown until now (reopened: one read, never on a play, which saves no deal), a tournament's old address."""
    if instance.pk is None or kwargs.get("raw"):
        return
    if isinstance(instance, Deal) and instance.state not in SHOWN:
        instance._left_shown = Deal.objects.filter(pk=instance.pk, state__in=SHOWN).exists()
    elif isinstance(instance, Tournament):
        instance._old_slug = Tournament.objects.filter(pk=instance.pk).values_list("slug", flat=True).first()


def changed(sender, instance, **kwargs) -> None:
    if isinstance(instance, Deal) and kwargs.get("signal") is post_save and not shows(instance):
        return
    if sender is get_user_model() and kwargs.get("update_fields") == frozenset({"last_login"}):
        return  # a log-in changes no page
    bump(scope_of(instance))


TEAM_ROWS = (TeamEvent, Zone, Team, TeamPair, TeamMatch, LineUp, TeamTable, BoardRuling)
DUPLICATE_ROWS = (DuplicateEvent, Board, ArtificialScore, VenueResults)


def connect() -> None:
    """Called from the app's ``ready``: the project's only receivers."""
    for noted in (Deal, Tournament):
        pre_save.connect(before_save, sender=noted, dispatch_uid=f"public-gen-before-{noted.__name__}")
    for model in (
        Tournament,
        Pair,
        Player,
        Round,
        Match,
        Bye,
        Seating,
        Deal,
        EntryWindow,
        get_user_model(),
        *TEAM_ROWS,
        *DUPLICATE_ROWS,
    ):
        post_save.connect(changed, sender=model, dispatch_uid=f"public-gen-save-{model.__name__}")
        post_delete.connect(changed, sender=model, dispatch_uid=f"public-gen-delete-{model.__name__}")
