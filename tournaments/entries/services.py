"""Entries on line on the database: open a tournament for entries, take an entry (once per form, whatever the
taps), withdraw one (the first waiting entry takes its place), approve or refuse one, mark its fee paid, and
close entries, the accepted entries becoming the tournament's pairs through the import's own service.

Every write takes the tournament's row lock first (``finishing.lock_open``, as pairing a round and adding a
pair do), so places are counted and given one entry at a time and a closing sees every entry made before it.
A refusal is an ``EntryError`` carrying the user's message and an HTTP status.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.competition.finishing import lock_open
from tournaments.competition.free_text import text_problem
from tournaments.league.errors import TeamError
from tournaments.models import Entry, EntryWindow, Pair, Team, Tournament
from tournaments.people.registry import clean_name, playing
from tournaments.teams.services import TeamEntry, add_team
from tournaments.workbook import importing

LIVE = (Entry.State.PENDING, Entry.State.ACCEPTED, Entry.State.WAITING)


class EntryError(Exception):
    """A write refused; ``message`` is for the player or the director (translated), ``status`` for the page."""

    def __init__(self, message: str, status: int = 409) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


@dataclass(frozen=True)
class EntryForm:
    """What a pair types on the entry form (cleaned); a team types its captain and its pairs instead of two
    players."""

    name: str
    player1: str
    player2: str
    club: str
    contact: str
    captain: str = ""
    roster: tuple[tuple[str, str], ...] = ()

    @property
    def names(self) -> list[str]:
        return [n for pair in self.roster for n in pair] if self.roster else [self.player1, self.player2]


def window_of(tournament: Tournament) -> EntryWindow | None:
    return EntryWindow.objects.filter(tournament=tournament).first()


def why_closed(window: EntryWindow | None, at: datetime | None = None) -> str | None:
    """Why the entry form takes no entry now, in one sentence; None when it is open."""
    if window is None:
        return _("This tournament does not take entries on line.")
    if window.closed_at is not None:
        return _("Entries are closed.")
    if window.closes_at is not None and (at or timezone.now()) >= window.closes_at:
        return _("Entries closed at %(when)s.") % {
            "when": timezone.localtime(window.closes_at).strftime("%Y-%m-%d %H:%M")
        }
    return None


def places_taken(tournament: Tournament) -> int:
    return tournament.entries.filter(state=Entry.State.ACCEPTED).count()


def waiting_list(tournament: Tournament) -> list[Entry]:
    return list(tournament.entries.filter(state=Entry.State.WAITING).order_by("pk"))


def waiting_position(entry: Entry) -> int | None:
    """The entry's place on the waiting list (1: the next to be given a place), or None when not waiting."""
    if entry.state != Entry.State.WAITING:
        return None
    return entry.tournament.entries.filter(state=Entry.State.WAITING, pk__lt=entry.pk).count() + 1


@transaction.atomic
def open_entries(
    tournament: Tournament,
    *,
    capacity: int,
    closes_at: datetime | None = None,
    approval: bool = False,
    fee: str = "",
    by=None,
) -> EntryWindow:
    """Open the tournament for entries, or change its settings while open. A capacity raised gives the waiting
    entries places in order; a capacity below the places already given is refused (nobody loses a place)."""
    tournament = lock_open(tournament.pk)
    if capacity < 2 or capacity > 2000:
        raise EntryError(_("The places must be between 2 and 2000."), 400)
    if problem := text_problem(fee, 100):
        raise EntryError(problem, 400)
    window = window_of(tournament)
    if window is not None and window.closed_at is not None:
        raise EntryError(_("Entries are closed: the entries are the tournament's pairs now."))
    taken = places_taken(tournament)
    if capacity < taken:
        raise EntryError(
            _("%(n)s entries already have a place: the places cannot be fewer.") % {"n": taken}, 400
        )
    if window is None:
        window = EntryWindow(tournament=tournament, opened_by=by)
    window.capacity, window.closes_at, window.approval, window.fee = (
        capacity,
        closes_at,
        approval,
        fee.strip(),
    )
    window.save()
    _fill_places(tournament, window)
    return window


def _fill_places(tournament: Tournament, window: EntryWindow) -> list[Entry]:
    """Give free places to the waiting entries, first come first served; the entries promoted."""
    free = window.capacity - places_taken(tournament)
    promoted = waiting_list(tournament)[: max(free, 0)]
    now = timezone.now()
    for entry in promoted:
        entry.state, entry.promoted_at = Entry.State.ACCEPTED, now
        entry.save(update_fields=["state", "promoted_at"])
    return promoted


def form_problem(tournament: Tournament, form: EntryForm) -> str | None:
    """Why this pair (or team) cannot enter — a name already entered, a player twice or already entered —
    checked against the live entries and the tournament's pairs and teams as the import checks a file's rows;
    None when it can."""
    names = [clean_name(n) for n in form.names]
    if len(set(names)) < len(names):
        return _("The two players must be different.") if not form.roster else _("A player is named twice.")
    live = tournament.entries.filter(state__in=LIVE)
    taken_names = live.filter(name=form.name).exists() or tournament.pairs.filter(name=form.name).exists()
    if taken_names or tournament.teams.filter(name=form.name).exists():
        return _("A pair called %(name)s has already entered.") % {"name": form.name}
    taken = playing(tournament)
    for entry in live:
        taken.update(dict.fromkeys(entry.names, entry.name))
    for player in names:
        if player in taken:
            return _("%(player)s has already entered, in %(pair)s.") % {
                "player": player,
                "pair": taken[player],
            }
    return None


@transaction.atomic
def submit_entry(tournament: Tournament, form: EntryForm, key: str) -> tuple[Entry, bool]:
    """Take an entry: accepted while places are left (awaiting approval when the director approves each),
    else on the waiting list. The form's ``key`` makes it once: the same key again returns the entry it made
    (and False), whatever else was posted."""
    tournament = lock_open(tournament.pk)
    known = tournament.entries.filter(key=key).first()
    if known is not None:
        return known, False
    window = window_of(tournament)
    if reason := why_closed(window):
        raise EntryError(reason, 409 if window else 404)
    assert window is not None
    if problem := form_problem(tournament, form):
        raise EntryError(problem, 400)
    if window.approval:
        state = Entry.State.PENDING
    elif places_taken(tournament) < window.capacity:
        state = Entry.State.ACCEPTED
    else:
        state = Entry.State.WAITING
    entry = Entry.objects.create(
        tournament=tournament,
        key=key,
        state=state,
        name=form.name,
        player1=form.player1,
        player2=form.player2,
        club=form.club,
        contact=form.contact,
        captain=form.captain,
        roster=[list(pair) for pair in form.roster],
    )
    return entry, True


def _locked_entry(entry: Entry) -> tuple[Tournament, EntryWindow, Entry]:
    tournament = lock_open(entry.tournament_id)
    window = window_of(tournament)
    entry = Entry.objects.get(pk=entry.pk)
    if window is None or window.closed_at is not None:
        raise EntryError(_("Entries are closed: the pair's place is settled at the desk now."))
    return tournament, window, entry


@transaction.atomic
def withdraw_entry(entry: Entry) -> Entry | None:
    """Withdraw the entry (from its own page or at the desk); a place it held goes to the first waiting entry,
    which is returned (its page says it has a place)."""
    tournament, window, entry = _locked_entry(entry)
    if not entry.is_live:
        raise EntryError(_("This entry is withdrawn already."))
    held = entry.state == Entry.State.ACCEPTED
    entry.state, entry.withdrawn_at = Entry.State.WITHDRAWN, timezone.now()
    entry.save(update_fields=["state", "withdrawn_at"])
    if not held:
        return None
    promoted = _fill_places(tournament, window)
    return promoted[0] if promoted else None


@transaction.atomic
def decide_entry(entry: Entry, accept: bool) -> Entry:
    """The director approves an entry awaiting approval (a place if one is free, else the waiting list, in the
    order the entries came) or refuses it."""
    tournament, window, entry = _locked_entry(entry)
    if entry.state != Entry.State.PENDING:
        raise EntryError(_("This entry is not awaiting approval."))
    if not accept:
        entry.state = Entry.State.REFUSED
    elif places_taken(tournament) < window.capacity and not tournament.entries.filter(
        state=Entry.State.WAITING, pk__lt=entry.pk
    ):
        entry.state = Entry.State.ACCEPTED
    else:
        entry.state = Entry.State.WAITING
    entry.save(update_fields=["state"])
    return entry


@transaction.atomic
def mark_paid(entry: Entry, paid: bool, by=None) -> Entry:
    """The entry's fee taken (at the desk or at check-in), or that taken back when tapped by mistake."""
    lock_open(entry.tournament_id)
    entry = Entry.objects.get(pk=entry.pk)
    entry.paid_at, entry.paid_by = (timezone.now(), by) if paid else (None, None)
    entry.save(update_fields=["paid_at", "paid_by"])
    return entry


def why_not_close(tournament: Tournament) -> str | None:
    window = window_of(tournament)
    if window is None:
        return _("This tournament does not take entries on line.")
    if window.closed_at is not None:
        return _("Entries are closed already.")
    pending = tournament.entries.filter(state=Entry.State.PENDING).count()
    if pending:
        return _("%(n)s entries await approval: accept or refuse them first.") % {"n": pending}
    if not tournament.entries.filter(state=Entry.State.ACCEPTED).exists():
        return _("No entry has a place yet.")
    return None


@transaction.atomic
def close_entries(tournament: Tournament, by=None) -> list[Pair | Team]:
    """Close entries: the accepted entries, in the order they came, become the tournament's pairs (seeded after
    the pairs already there) through the import's service, after the import's checks of names and players — or
    in a team event its teams, through the desk's own ``add_team``; the waiting list stays as it is, each
    entry's page saying it got no place. One problem refuses the whole closing."""
    tournament = lock_open(tournament.pk)
    if reason := why_not_close(tournament):
        raise EntryError(reason)
    accepted = list(tournament.entries.filter(state=Entry.State.ACCEPTED).order_by("pk"))
    teams = [e for e in accepted if e.roster]
    pairs = [e for e in accepted if not e.roster]
    made: list[Pair | Team] = [*_pairs_from(tournament, pairs)]
    for entry in teams:
        try:
            entry.team = add_team(
                tournament, TeamEntry(entry.name, [tuple(p) for p in entry.roster], entry.club)
            )
        except TeamError as exc:
            raise EntryError(f"{entry.name}: {exc.message}") from None
        entry.save(update_fields=["team"])
        made.append(entry.team)
    window = window_of(tournament)
    assert window is not None
    window.closed_at, window.closed_by = timezone.now(), by
    window.save(update_fields=["closed_at", "closed_by"])
    return made


def _pairs_from(tournament: Tournament, accepted: list[Entry]) -> list[Pair]:
    if not accepted:
        return []
    rows = [
        importing.Entry(row=n, pair=e.name, player1=e.player1, player2=e.player2, club=e.club)
        for n, e in enumerate(accepted, start=1)
    ]
    if problem := importing.rows_problem(tournament, rows):
        raise EntryError(problem)
    try:
        pairs = importing.import_entries(tournament, rows)
    except importing.ImportFileError as exc:
        raise EntryError(str(exc)) from None
    for entry, pair in zip(accepted, pairs, strict=True):
        entry.pair = pair
        entry.save(update_fields=["pair"])
    return pairs
