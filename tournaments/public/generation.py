"""Each tournament's public “generation”: a token in the shared cache that changes whenever what its public
pages show changes, so a cached page is found only while it is still true.

The token lives in Django's cache (``CACHES``), which every server process shares — a file cache on one machine,
Redis across machines — so a write on one process is seen by all at once. A bump writes a fresh random token
(no read-modify-write, so two bumps never race into one), after the write's transaction commits; a token lost to
eviction is replaced by a fresh one, never by an old value. The writes are caught by ``post_save``/``post_delete``
on the models the public pages read, so every service, the admin and the commands bump without knowing.
"""

from __future__ import annotations

import secrets

from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import post_delete, post_init, post_save

from tournaments.models import Bye, Deal, Match, Pair, Player, Round, Seating, Tournament

EVERY_TOURNAMENT = "all"  # players and accounts are shared by tournaments: their change bumps this one
TIMEOUT = None  # tokens never expire by time; eviction only makes a fresh one


def key(scope: int | str) -> str:
    return f"public-gen:{scope}"


def tokens(tournament_pk: int) -> str:
    """The current tokens of this tournament and of every tournament, in one cache read."""
    keys = [key(EVERY_TOURNAMENT), key(tournament_pk)]
    found = cache.get_many(keys)
    for k in keys:
        if k not in found:
            found[k] = fresh()
            if not cache.add(k, found[k], TIMEOUT):  # another process made it first: use theirs
                found[k] = cache.get(k, found[k])
    return "-".join(found[k] for k in keys)


def fresh() -> str:
    return secrets.token_hex(8)


def bump(scope: int | str | None) -> None:
    """A new token for the tournament (or for every tournament) now, and again once the current transaction
    commits: a page built from the rows before the commit, under the first new token, is never asked for again
    (and a test's transaction, which never commits, still sees its writes)."""
    if scope is None:
        return
    cache.set(key(scope), fresh(), TIMEOUT)
    if transaction.get_connection().in_atomic_block:
        transaction.on_commit(lambda: cache.set(key(scope), fresh(), TIMEOUT))


# --- which tournament a saved row belongs to ------------------------------------------------------------------


def of_round(round_id: int | None) -> int | None:
    return Round.objects.filter(pk=round_id).values_list("tournament_id", flat=True).first()


def of_match(match_id: int | None) -> int | None:
    return Match.objects.filter(pk=match_id).values_list("round__tournament_id", flat=True).first()


def scope_of(instance) -> int | str | None:
    if isinstance(instance, Tournament):
        return instance.pk
    if isinstance(instance, Pair):
        return instance.tournament_id
    if isinstance(instance, Round):
        return instance.tournament_id
    if isinstance(instance, Match | Bye | Seating):
        return of_round(instance.round_id)
    if isinstance(instance, Deal):
        return of_match(instance.match_id)
    return EVERY_TOURNAMENT  # a player, an account


# --- the signals ----------------------------------------------------------------------------------------------


def shows(deal: Deal) -> bool:
    """A deal counts on the public pages once confirmed; one leaving that state (reopened) counts too. Deals
    being recorded change with every play and are never shown, so they never bump."""
    return deal.state == Deal.State.CONFIRMED or getattr(deal, "_loaded_state", None) == Deal.State.CONFIRMED


def remember_state(sender, instance: Deal, **kwargs) -> None:
    instance._loaded_state = instance.__dict__.get("state")


def changed(sender, instance, **kwargs) -> None:
    if isinstance(instance, Deal) and kwargs.get("signal") is post_save and not shows(instance):
        return
    if sender is get_user_model() and kwargs.get("update_fields") == frozenset({"last_login"}):
        return  # a log-in changes no page
    bump(scope_of(instance))


def connect() -> None:
    """Called from the app's ``ready``."""
    post_init.connect(remember_state, sender=Deal, dispatch_uid="public-gen-deal-state")
    for model in (Tournament, Pair, Player, Round, Match, Bye, Seating, Deal, get_user_model()):
        post_save.connect(changed, sender=model, dispatch_uid=f"public-gen-save-{model.__name__}")
        post_delete.connect(changed, sender=model, dispatch_uid=f"public-gen-delete-{model.__name__}")
