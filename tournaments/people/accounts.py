"""The accounts of a tournament's people at the desk: their captains' accounts (give or link, new password,
remove), the judges' accounts (create, reset a password, deactivate, put at a table) and another director's account.

One function per write, each in one transaction, shared by the desk's pages, commands and tests. A refusal is a
``PeopleError`` carrying the TD's message and an HTTP status. Passwords are made by ``secrets`` (through
Django's ``get_random_string``) and stored by ``set_password``: the clear text is returned once, to be shown
once, and never kept.
"""

from __future__ import annotations

from contextlib import contextmanager
from importlib import import_module

from django.conf import settings
from django.contrib.auth import SESSION_KEY, get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.crypto import get_random_string
from django.utils.translation import gettext as _

from tournaments.competition import access
from tournaments.models import Match, Membership, Pair, Role, Tournament
from tournaments.people.errors import PeopleError

# No 0/O, 1/l/I: the password is read off paper at the table.
PASSWORD_CHARS = "abcdefghijkmnpqrstuvwxyz23456789"
PASSWORD_LENGTH = 12


# --- accounts ----------------------------------------------------------------------------------------------


def new_password() -> str:
    """A fresh password for a judge or a captain, easy to copy from paper (``secrets`` underneath)."""
    return get_random_string(PASSWORD_LENGTH, PASSWORD_CHARS)


def account_named(username: str):
    """The account with this user name, whatever its case (user names are unique that way here), or None."""
    return get_user_model().objects.filter(username__iexact=username).first()


def new_account(username: str, name: str) -> tuple[AbstractBaseUser, str]:
    """A new account and its password (to be shown once: only its hash is stored)."""
    password = new_password()
    account = get_user_model()(username=username, first_name=name)
    account.set_password(password)
    account.save()
    return account, password


def end_sessions(account) -> int:
    """End every session signed in as the account (on every tablet and phone); how many.

    The sessions are the session store's rows (``SESSION_ENGINE`` keeps them in the database), each read with
    Django's own decoding and ended by deleting it: a cookie naming a deleted session is nobody's. Left alone,
    a deactivated judge's session was only refused while the account was off, and worked again once it was back.
    """
    model = import_module(settings.SESSION_ENGINE).SessionStore.get_model_class()
    signed_in = str(account.pk)
    ended = [
        row.pk
        for row in model.objects.filter(expire_date__gt=timezone.now()).iterator()
        if row.get_decoded().get(SESSION_KEY) == signed_in
    ]
    model.objects.filter(pk__in=ended).delete()
    return len(ended)


def replace_password(account) -> str:
    """A new password for the account (returned to be shown once); the old one stops working at once, and so
    does every session signed in with it (Django would refuse them for the changed hash only while it stays)."""
    password = new_password()
    account.set_password(password)
    account.save(update_fields=["password"])
    end_sessions(account)
    return password


# --- captains' accounts ------------------------------------------------------------------------------------


def captain_problem(pair: Pair, account) -> str:
    """Why ``account`` cannot be the pair's captain's account ('' when it can): a TD's or a judge's account
    has wider powers and is managed elsewhere, and one account captains one pair of a tournament."""
    if not access.is_captain_account(account):
        return _("The user name %(name)s belongs to a judge or a director.") % {
            "name": account.get_username()
        }
    other = account.captained_pairs.filter(tournament=pair.tournament_id).exclude(pk=pair.pk).first()
    if other is not None:
        return _("%(name)s is already the captain's account of %(pair)s.") % {
            "name": account.get_username(),
            "pair": other.name,
        }
    return ""


def _locked_pair(pair: Pair) -> Pair:
    """The pair's row locked, its captain read with it: only the pair is locked (``of``), since PostgreSQL cannot
    lock the nullable side of the outer join a pair without a captain needs."""
    return Pair.objects.select_for_update(of=("self",)).select_related("captain").get(pk=pair.pk)


def _save_captain(pair: Pair, account, by) -> None:
    """The pair's history keeps who (``by``) changed its captain's account and when."""
    pair.captain = account
    if by is not None:
        pair._history_user = by
    pair.save(update_fields=["captain"])


def require_no_captain(pair: Pair) -> None:
    """A captain has one account: another is given only once the first is removed (a stale page may still ask)."""
    if pair.captain_id is not None:
        raise PeopleError(
            _("%(pair)s's captain already has an account: remove it first.") % {"pair": pair.name}, status=409
        )


@transaction.atomic
def give_captain_account(
    pair: Pair, username: str, name: str = "", by=None
) -> tuple[AbstractBaseUser, str | None]:
    """The pair's captain gets an account to log in with and confirm the pair's deals: a new one, returned with
    its password (shown once), or, when the user name is a captain's existing account (another tournament's),
    that account linked, its password unchanged (None)."""
    pair = _locked_pair(pair)
    require_no_captain(pair)
    account, password = account_named(username), None
    if account is None:
        account, password = new_account(username, name)
    elif problem := captain_problem(pair, account):
        raise PeopleError(problem, status=409)
    _save_captain(pair, account, by)
    return account, password


def _captain(pair: Pair):
    """The pair's captain's account, which the desk may manage."""
    if pair.captain is None:
        raise PeopleError(_("%(pair)s's captain has no account.") % {"pair": pair.name}, status=409)
    if not access.is_captain_account(pair.captain):
        raise PeopleError(_("Only a captain's account is managed here."), status=403)
    return pair.captain


@transaction.atomic
def reset_captain_password(pair: Pair) -> tuple[AbstractBaseUser, str]:
    """A new password for the pair's captain (the old one stops working at once): the account and it."""
    account = _captain(_locked_pair(pair))
    return account, replace_password(account)


@transaction.atomic
def remove_captain_account(pair: Pair, by=None) -> AbstractBaseUser:
    """The pair has no captain's account any more: it no longer confirms the pair's deals. The account itself
    stays (it may captain pairs of other tournaments, and can be given back by its user name)."""
    pair = _locked_pair(pair)
    account = pair.captain
    if account is None:
        raise PeopleError(_("%(pair)s's captain has no account.") % {"pair": pair.name}, status=409)
    _save_captain(pair, None, by)
    return account


# --- judges ------------------------------------------------------------------------------------------------


def require_free(username: str) -> None:
    """A new account's user name must be nobody's, whatever its case."""
    if account_named(username) is not None:
        raise PeopleError(_("The user name %(name)s is taken.") % {"name": username}, status=409)


@contextmanager
def free_name(username: str):
    """The account made inside is refused as taken when another request made it first: a double-tapped "add"
    passes both checks before either commits, and PostgreSQL's unique index refuses the second (a savepoint,
    so the transaction goes on to answer)."""
    require_free(username)
    try:
        with transaction.atomic():
            yield
    except IntegrityError:
        raise PeopleError(_("The user name %(name)s is taken.") % {"name": username}, status=409) from None


@transaction.atomic
def create_judge(username: str, name: str = "") -> tuple[AbstractBaseUser, str]:
    """A new judge account; returns it and its password (shown once, never stored in clear)."""
    with free_name(username):
        account, password = new_account(username, name)
    access.add_to_group(account, access.JUDGE_GROUP)
    return account, password


def _judge(account):
    if not access.is_judge_account(account):
        raise PeopleError(_("Only a judge's account is managed here."), status=403)
    return account


@transaction.atomic
def reset_password(account) -> str:
    """A new password for a judge who lost theirs; the old one stops working at once."""
    return replace_password(_judge(account))


@transaction.atomic
def set_active(account, active: bool) -> None:
    """Deactivate a judge (they can no longer log in, their sessions end, and they are not offered for a table)
    or bring them back (to log in again with their password)."""
    _judge(account)
    account.is_active = active
    account.save(update_fields=["is_active"])
    if not active:
        end_sessions(account)


@transaction.atomic
def assign_judge(match: Match, judge, by) -> Match:
    """Put a judge at a table (or none), before or after its round is published. The match's history records
    who changed it and when."""
    if judge is not None and not access.judge_accounts().filter(pk=judge.pk).exists():
        raise PeopleError(_("Choose an active judge."))
    match = get_object_or_404(Match.objects.select_for_update(), pk=match.pk)
    if match.judge_id == getattr(judge, "pk", None):
        return match
    match.judge = judge
    match.version += 1
    match._history_user = by
    match.save(update_fields=["judge", "version"])
    return match


# --- directors ---------------------------------------------------------------------------------------------


@transaction.atomic
def create_director_account(username: str, name: str = "", tournament=None) -> tuple[AbstractBaseUser, str]:
    """Another director's account (a second desk on the day): a director of the tournament's organisation, or the
    tournament's chief director when it belongs to none (never the site's admin); returns it and its password,
    shown once as a judge's is. Each director then changes their own password."""
    password = new_password()
    with free_name(username):
        account = get_user_model().objects.create_user(username=username, password=password, first_name=name)
    if tournament is not None and tournament.organisation_id is not None:
        Membership.objects.create(
            organisation_id=tournament.organisation_id, user=account, role=Role.DIRECTOR
        )
    elif tournament is not None:
        Tournament.objects.filter(pk=tournament.pk).update(chief_director=account)
    return account, password
