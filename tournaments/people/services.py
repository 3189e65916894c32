"""The people of a tournament at the desk: pairs and their players (add, edit, withdraw, reinstate, late
entries, delete one entered by mistake), their captains' accounts (give, new password, remove), the judges'
accounts (create, reset a password, deactivate, put at a table) and another director's account.

One function per write, each in one transaction, shared by the desk's pages, commands and tests. A refusal is a
``PeopleError`` carrying the TD's message and an HTTP status. Passwords are made by ``secrets`` (through
Django's ``get_random_string``) and stored by ``set_password``: the clear text is returned once, to be shown
once, and never kept.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from importlib import import_module

from django.conf import settings
from django.contrib.auth import SESSION_KEY, get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.crypto import get_random_string
from django.utils.translation import gettext as _

from tournaments.competition import access
from tournaments.competition.accounts import create_director
from tournaments.competition.finishing import lock_open, refusal
from tournaments.models import Bye, Match, Pair, Player, Round, Seating, Tournament
from tournaments.season.registry import already_playing, forget_unused, player_for_pair

# No 0/O, 1/l/I: the password is read off paper at the table.
PASSWORD_CHARS = "abcdefghijkmnpqrstuvwxyz23456789"
PASSWORD_LENGTH = 12


class PeopleError(Exception):
    """A write the desk refuses; ``message`` is for the TD (translated), ``status`` for the page."""

    status = 400

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        if status is not None:
            self.status = status


# --- pairs and players -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PairEntry:
    """What the TD types for one pair (the form's cleaned data)."""

    name: str
    player1: str
    player2: str
    club: str = ""
    seed: int | None = None


def _check_entry(tournament: Tournament, entry: PairEntry, pair: Pair | None) -> None:
    """Checked again inside the transaction: the form's checks may be stale by the time it is saved."""
    others = tournament.pairs.exclude(pk=pair.pk) if pair else tournament.pairs.all()
    if others.filter(name=entry.name).exists():
        raise PeopleError(_("Another pair of this tournament is called %(name)s.") % {"name": entry.name})
    if entry.seed is not None and others.filter(seed=entry.seed).exists():
        raise PeopleError(_("Another pair has seed %(seed)s.") % {"seed": entry.seed})
    if entry.player1 == entry.player2:
        raise PeopleError(_("The two players must be different."))
    if taken := already_playing(tournament, [entry.player1, entry.player2], pair):
        raise PeopleError(taken)


@transaction.atomic
def save_pair(tournament: Tournament, entry: PairEntry, pair: Pair | None = None) -> Pair:
    """Add a pair (a late entry once rounds are paired) or change one: its name, club, seed and both players.

    The players are the registry's (``season.registry``): a name already known is that player, whatever pair or
    tournament they played in; a typo corrected on a player no other pair uses renames that player. Refused
    once the tournament is finished (``finishing.lock_open``)."""
    tournament = lock_open(tournament.pk)
    _check_entry(tournament, entry, pair)
    before = set() if pair is None else {pair.player1_id, pair.player2_id}
    if pair is None:
        pair = Pair(tournament=tournament)
    pair.player1 = player_for_pair(entry.player1, entry.club, pair.player1 if before else None, pair)
    pair.player2 = player_for_pair(entry.player2, entry.club, pair.player2 if before else None, pair)
    if pair.player1_id == pair.player2_id:
        raise PeopleError(_("The two players must be different."))
    pair.name, pair.club, pair.seed = entry.name, entry.club, entry.seed
    pair.save()
    forget_unused(before - {pair.player1_id, pair.player2_id})
    return pair


def late_entry_round(tournament: Tournament) -> int | None:
    """The round a pair added now first plays, or None before round 1 (it simply plays from the start).

    Swiss and manual rounds pair the active pairs of the moment, so a late entry enters the next round to be
    paired; a draft round already made leaves it out until the TD places it. A round robin's schedule is fixed
    at round 1, so a late entry there is never scheduled (0)."""
    last = tournament.rounds.order_by("-number").first()
    if last is None:
        return None
    if tournament.format == Tournament.Format.ROUND_ROBIN:
        return 0
    return last.number if last.state == Round.State.DRAFT else last.number + 1


def late_entry_note(tournament: Tournament) -> str:
    """One sentence for the add-a-pair page: when the new pair plays."""
    number = late_entry_round(tournament)
    if number is None:
        return ""
    if number == 0:
        return _("The round robin's schedule was fixed at round 1: a pair added now is not scheduled.")
    if number > tournament.rounds_planned:
        return _("Every round is paired: a pair added now plays no more rounds.")
    last = tournament.rounds.order_by("-number").first()
    start = tournament.bracket_start
    if start is not None and (number > start or number == start and last.state != Round.State.DRAFT):
        return _("The knockout's pairs are settled: a pair added now plays no more rounds.")
    if last.state == Round.State.DRAFT:
        return _(
            "Round %(n)s is a draft: place the new pair on its page, or it plays from round %(next)s."
        ) % {
            "n": number,
            "next": number + 1,
        }
    return _("A late entry: this pair enters the pairing of round %(n)s.") % {"n": number}


def open_matches(pair: Pair):
    """The pair's published matches not finished yet: what its withdrawal leaves to forfeit."""
    return (
        access.published(Match.objects.filter(pair_ns=pair) | Match.objects.filter(pair_ew=pair))
        .exclude(state=Match.State.FINISHED)
        .select_related("round", "pair_ns", "pair_ew")
        .order_by("round__number", "table")
    )


def rounds_placing(pair: Pair):
    """The rounds, draft or published, that place the pair: at a table (its match, or the seating that match
    keeps) or with a bye; by number."""
    return Round.objects.filter(
        Q(pk__in=Match.objects.filter(Q(pair_ns=pair) | Q(pair_ew=pair)).values("round"))
        | Q(pk__in=Seating.objects.filter(pair=pair).values("round"))
        | Q(pk__in=Bye.objects.filter(pair=pair).values("round"))
    ).order_by("number")


def draft_rounds_with(pair: Pair) -> list[int]:
    """Numbers of the draft rounds that seat the pair (or give it a bye): the TD changes those pairings."""
    return list(rounds_placing(pair).filter(state=Round.State.DRAFT).values_list("number", flat=True))


@transaction.atomic
def set_withdrawn(pair: Pair, withdrawn: bool, by=None) -> Pair:
    """Withdraw a pair (it keeps its results and is not paired again) or reinstate it (it is paired from the
    next round). Its open matches are not touched: the TD records each forfeit (``open_matches``). The pair's
    history keeps who (``by``) did it and when. Refused once the tournament is finished."""
    lock_open(pair.tournament_id)
    if pair.withdrawn == withdrawn:
        if withdrawn:
            raise PeopleError(_("%(pair)s has already withdrawn.") % {"pair": pair.name}, status=409)
        raise PeopleError(_("%(pair)s has not withdrawn.") % {"pair": pair.name}, status=409)
    pair.withdrawn = withdrawn
    if by is not None:
        pair._history_user = by
    pair.save(update_fields=["withdrawn"])
    return pair


# --- deleting a pair entered by mistake ---------------------------------------------------------------------


def why_not_delete_pair(pair: Pair) -> str | None:
    """Why the pair cannot be deleted, with what to do instead; None when it can: it has never been placed in a
    round (no table of a draft or published round, no bye), so nothing it played is lost, and the tournament is
    not finished (its final standings list the pair)."""
    if pair.tournament.is_finished:
        return refusal()
    placed = rounds_placing(pair)
    paired = placed.exclude(state=Round.State.DRAFT).first()
    if paired is not None:
        return _(
            "%(pair)s is paired in round %(n)s: a pair that has been paired is not deleted; withdraw it instead."
        ) % {"pair": pair.name, "n": paired.number}
    draft = placed.first()
    if draft is not None:
        return _("%(pair)s is placed in the draft of round %(n)s: edit or discard the draft first.") % {
            "pair": pair.name,
            "n": draft.number,
        }
    return None


def sharing_pairs(pair: Pair) -> list[tuple[Player, list[Pair]]]:
    """The pair's two players, each with the other pairs (of any tournament) that use it: a player with none is
    deleted with the pair, the others stay."""
    others = (
        Pair.objects.exclude(pk=pair.pk).select_related("tournament").order_by("tournament__name", "name")
    )
    return [
        (player, list(others.filter(Q(player1=player) | Q(player2=player))))
        for player in (pair.player1, pair.player2)
    ]


def delete_pairs(pairs: list[Pair], by=None) -> None:
    """Delete the pairs (each leaves a history record of who, ``by``, deleted it and when), then those of their
    players no pair uses any more. A captain's account is not touched: it is only no longer linked."""
    players = {pk for pair in pairs for pk in (pair.player1_id, pair.player2_id)}
    for pair in pairs:
        if by is not None:
            pair._history_user = by
        pair.delete()
    forget_unused(players)


@transaction.atomic
def delete_pair(pair: Pair, by=None) -> None:
    """Delete a pair entered by mistake (a typo in an import, a pair that never came), with its players no other
    pair uses, while it has never been placed in a round. Checked again under the tournament's lock, which
    pairing a round and adding a pair take too, and the pair's, so a pair paired a moment ago is not deleted. A
    finished tournament's pairs stay: its final standings list them."""
    lock_open(pair.tournament_id)
    locked = Pair.objects.select_for_update().filter(pk=pair.pk).first()
    if locked is None:
        raise PeopleError(_("%(name)s is already deleted.") % {"name": pair.name}, status=404)
    if reason := why_not_delete_pair(locked):
        raise PeopleError(reason, status=409)
    delete_pairs([locked], by)


# --- accounts ----------------------------------------------------------------------------------------------


def new_password() -> str:
    """A fresh password for a judge or a captain, easy to copy from paper (``secrets`` underneath)."""
    return get_random_string(PASSWORD_LENGTH, PASSWORD_CHARS)


def display_name(account) -> str:
    """How an account is named on the desk's pages: the display name, else the user name; a table device's
    account by its table (``table:<round>:<table>:<random>``), never by its internal name."""
    name = account.get_username()
    if name.startswith(access.TABLE_ACCOUNT_PREFIX):
        parts = name.split(":")
        return _("the device at table %(table)s") % {"table": parts[2] if len(parts) > 2 else "?"}
    return account.get_full_name() or name


def account_named(username: str):
    """The account with this user name, whatever its case (user names are unique that way here), or None."""
    return get_user_model().objects.filter(username__iexact=username).first()


def new_account(username: str, name: str) -> tuple[object, str]:
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
def give_captain_account(pair: Pair, username: str, name: str = "", by=None) -> tuple[object, str | None]:
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
def reset_captain_password(pair: Pair) -> tuple[object, str]:
    """A new password for the pair's captain (the old one stops working at once): the account and it."""
    account = _captain(_locked_pair(pair))
    return account, replace_password(account)


@transaction.atomic
def remove_captain_account(pair: Pair, by=None) -> object:
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
def create_judge(username: str, name: str = "") -> tuple[object, str]:
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
def create_director_account(username: str, name: str = "") -> tuple[object, str]:
    """Another director's account (a second desk on the day), with the first director's powers; returns it and
    its password, shown once as a judge's is. Each director then changes their own password."""
    password = new_password()
    with free_name(username):
        account = create_director(username, password)
    account.first_name = name
    account.save(update_fields=["first_name"])
    return account, password
