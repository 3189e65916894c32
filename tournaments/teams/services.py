"""Team events at the desk and from the captains: the event's settings, teams and their rosters, a league's
fixtures (a double round robin per zone on match days), a team Swiss round, line-ups, the tables seated from
them, postponing a fixture.

One function per write, each in one transaction, shared by the pages, the commands and the tests. A refusal is a
``TeamError`` carrying the user's message and an HTTP status.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from rules.teams import MAX_ROSTER, MIN_ROSTER, double_round_robin, seat_tables
from tournaments.competition import access
from tournaments.competition.finishing import lock_open
from tournaments.duplicate.victory_table import VictoryTableError, check_rows
from tournaments.league.errors import TeamError
from tournaments.models import (
    LineUp,
    Match,
    Round,
    Team,
    TeamEvent,
    TeamMatch,
    TeamPair,
    TeamTable,
    Tournament,
    Zone,
)
from tournaments.people.accounts import account_named, free_name, new_account
from tournaments.people.errors import PeopleError
from tournaments.people.pairs import PairEntry, save_pair
from tournaments.teams.models import team_event


@transaction.atomic
def save_team_event(tournament: Tournament, **settings) -> TeamEvent:
    """The team settings of a tournament (made a team event by the first save); the tables per match cannot
    change once a fixture has tables seated."""
    tournament = lock_open(tournament.pk)
    event = team_event(tournament) or TeamEvent(tournament=tournament)
    if "tables" in settings and event.pk and settings["tables"] != event.tables:
        if TeamTable.objects.filter(team_match__round__tournament=tournament).exists():
            raise TeamError(_("The tables per team match cannot change once a team match is seated."), 409)
    if "victory_table" in settings:
        try:
            check_rows(settings["victory_table"])
        except VictoryTableError as exc:
            raise TeamError(exc.message) from exc
    clock = (event.first_deal_at, event.lineups_due_at)
    for name, value in settings.items():
        setattr(event, name, value)
    event.full_clean(exclude=["tournament"])
    event.save()
    if clock != (event.first_deal_at, event.lineups_due_at):
        redate_deadlines(tournament, event)
    return event


# --- teams -------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TeamEntry:
    """What the TD types for one team: its name, club, venue, zone and its pairs' two players each."""

    name: str
    pairs: Sequence[tuple[str, str]]
    club: str = ""
    venue: str = ""
    zone: str = ""
    seed: int | None = None


def zone_named(tournament: Tournament, name: str) -> Zone | None:
    if not name:
        return None
    zone, _created = Zone.objects.get_or_create(
        tournament=tournament, name=name, defaults={"order": tournament.zones.count() + 1}
    )
    return zone


@transaction.atomic
def add_team(tournament: Tournament, entry: TeamEntry) -> Team:
    """A new team with its roster: each pair entered as any pair (players from the registry), named after the
    team and its place on the roster."""
    tournament = lock_open(tournament.pk)
    if not MIN_ROSTER <= len(entry.pairs) <= MAX_ROSTER:
        raise TeamError(_("A team has %(low)s to %(high)s pairs.") % {"low": MIN_ROSTER, "high": MAX_ROSTER})
    if tournament.teams.filter(name=entry.name).exists():
        raise TeamError(_("Another team of this tournament is called %(name)s.") % {"name": entry.name})
    team = Team.objects.create(
        tournament=tournament,
        name=entry.name,
        club=entry.club,
        venue=entry.venue,
        zone=zone_named(tournament, entry.zone),
        seed=entry.seed,
    )
    for i, (one, two) in enumerate(entry.pairs, 1):
        try:
            pair = save_pair(tournament, PairEntry(f"{entry.name} {i}", one, two, entry.club))
        except PeopleError as exc:
            raise TeamError(exc.message, exc.status) from exc
        TeamPair.objects.create(team=team, pair=pair, order=i)
    return team


@transaction.atomic
def set_captain(team: Team, account) -> Team:
    """The account that hands in the team's line-ups (None: the director does)."""
    lock_open(team.tournament_id)
    if account is not None and not access.is_captain_account(account):
        raise TeamError(_("That account cannot be a team's captain."))
    team.captain = account
    team.save(update_fields=["captain"])
    return team


@transaction.atomic
def give_captain(team: Team, username: str, name: str = "") -> tuple[AbstractBaseUser, str | None]:
    """The team's captain by user name: that account linked when it exists (its password unchanged: None), else
    a new captain's account made, returned with its password (shown once)."""
    account = account_named(username)
    password = None
    if account is None:
        with free_name(username):
            account, password = new_account(username, name)
    set_captain(team, account)
    return account, password


def roster(team: Team) -> list:
    """The team's pairs in roster order."""
    return [tp.pair for tp in team.roster.select_related("pair__player1", "pair__player2")]


# --- fixtures ----------------------------------------------------------------------------------------------


def _rounds(tournament: Tournament, count: int) -> dict[int, Round]:
    have = {r.number: r for r in tournament.rounds.all()}
    for n in range(1, count + 1):
        if n not in have:
            have[n] = Round.objects.create(tournament=tournament, number=n, state=Round.State.PUBLISHED)
    return have


def due_time(event: TeamEvent | None) -> dt.time:
    """The time on a match day the line-ups fall due: the director's, else the first deal's start."""
    if event is None:
        return TeamEvent._meta.get_field("first_deal_at").get_default()
    return event.lineups_due_at or event.first_deal_at


def deadline_of(
    day: dt.date | None, event: TeamEvent | None = None, at: dt.time | None = None
) -> dt.datetime | None:
    """Line-ups are due on the match day at ``at`` (by default the event's time: see ``due_time``)."""
    if day is None:
        return None
    return timezone.make_aware(dt.datetime.combine(day, at or due_time(event)))


@transaction.atomic
def set_deadline(team_match: TeamMatch, at: dt.time) -> TeamMatch:
    """The director's time on the fixture's match day by which its line-ups are due; refused for a fixture
    without a date or already seated."""
    lock_open(team_match.round.tournament_id)
    if team_match.tables.exists():
        raise TeamError(_("Both line-ups are in and the tables are seated."), 409)
    if team_match.date is None:
        raise TeamError(_("Give the match a date before its line-ups' deadline."), 409)
    team_match.lineup_deadline = deadline_of(team_match.date, at=at)
    team_match.save(update_fields=["lineup_deadline"])
    return team_match


def redate_deadlines(tournament: Tournament, event: TeamEvent) -> int:
    """Every fixture not yet seated falls due at the event's time on its match day (after the settings
    change); returns how many."""
    open_fixtures = TeamMatch.objects.filter(
        round__tournament=tournament, date__isnull=False, tables__isnull=True
    )
    changed = 0
    for fx in open_fixtures.distinct():
        fx.lineup_deadline = deadline_of(fx.date, event)
        fx.save(update_fields=["lineup_deadline"])
        changed += 1
    return changed


@transaction.atomic
def schedule_league(tournament: Tournament, first_day: dt.date | None = None, days_apart: int = 7) -> int:
    """Every zone's double round robin: match day n is round n, a week apart by default, at the home team's
    venue; returns the fixtures made. Refused once a fixture exists."""
    tournament = lock_open(tournament.pk)
    if TeamMatch.objects.filter(round__tournament=tournament).exists():
        raise TeamError(_("The fixtures are already made."), 409)
    if first_day and tournament.start_date and first_day < tournament.start_date:
        raise TeamError(
            _("The first match day is before the tournament's first day (%(date)s).")
            % {"date": tournament.start_date.isoformat()}
        )
    event = team_event(tournament)
    zones: dict[int | None, list[Team]] = {}
    for team in tournament.teams.order_by("zone__order", "seed", "name"):
        zones.setdefault(team.zone_id, []).append(team)
    schedules = {z: double_round_robin(teams) for z, teams in zones.items() if len(teams) >= 2}
    if not schedules:
        raise TeamError(_("A league needs two teams in a zone."))
    rounds = _rounds(tournament, max(len(s) for s in schedules.values()))
    made = []
    numbers: dict[int, int] = {}
    for zone_id, days in schedules.items():
        for n, day in enumerate(days, 1):
            date = first_day + dt.timedelta(days=days_apart * (n - 1)) if first_day else None
            for home, away in day:
                if away is None:
                    continue
                numbers[n] = numbers.get(n, 0) + 1
                made.append(
                    TeamMatch(
                        round=rounds[n],
                        number=numbers[n],
                        zone_id=zone_id,
                        home=home,
                        away=away,
                        date=date,
                        venue=home.venue,
                        lineup_deadline=deadline_of(date, event),
                    )
                )
    TeamMatch.objects.bulk_create(made, batch_size=500)
    tournament.num_rounds = len(rounds)
    tournament.save(update_fields=["num_rounds"])
    return len(made)


@transaction.atomic
def postpone(team_match: TeamMatch, date: dt.date | None, by=None) -> TeamMatch:
    """A fixture moved to another date (None: postponed, date to follow); its line-ups fall due that day."""
    lock_open(team_match.round.tournament_id)
    if team_match.tables.exists():
        raise TeamError(_("A team match already seated cannot be postponed."), 409)
    team_match.postponed = True
    team_match.date = date
    team_match.lineup_deadline = deadline_of(date, team_event(team_match.round.tournament))
    team_match.save(update_fields=["postponed", "date", "lineup_deadline"])
    return team_match


# --- line-ups ----------------------------------------------------------------------------------------------


def side_of(team_match: TeamMatch, user) -> Team | None:
    """The team this user captains in this fixture, if any."""
    if not getattr(user, "is_authenticated", False):
        return None
    for team in (team_match.home, team_match.away):
        if team.captain_id == user.pk:
            return team
    return None


def deadline_passed(team_match: TeamMatch) -> bool:
    """Whether the fixture's line-ups were due before now."""
    return team_match.lineup_deadline is not None and timezone.now() > team_match.lineup_deadline


def may_hand_in(team_match: TeamMatch, team: Team, user) -> bool:
    """The team's captain before the deadline, or the director at any time, while the tables are not seated."""
    if access.directs(user, team_match.round.tournament):
        return True
    if team.captain_id is None or team.captain_id != getattr(user, "pk", None):
        return False
    return not deadline_passed(team_match)


def lineups_visible(team_match: TeamMatch, lineups: Sequence[LineUp]) -> bool:
    """Both line-ups are shown to everybody once both are in."""
    return len(lineups) == 2


@transaction.atomic
def hand_in_lineup(team_match: TeamMatch, team: Team, pair_ids: Sequence[int], by) -> LineUp:
    """A team's pairs in table order for one fixture; once both are in, the tables are seated."""
    team_match = TeamMatch.objects.select_for_update().select_related("home", "away").get(pk=team_match.pk)
    tournament = lock_open(team_match.round.tournament_id)
    if team.pk not in (team_match.home_id, team_match.away_id):
        raise TeamError(_("That team does not play this match."), 404)
    team = team_match.home if team.pk == team_match.home_id else team_match.away
    if not may_hand_in(team_match, team, by):
        if team.captain_id == getattr(by, "pk", None):
            raise TeamError(
                _("The line-ups were due by %(when)s; only the director can still hand one in.")
                % {"when": date_format(timezone.localtime(team_match.lineup_deadline), "Y-m-d H:i")},
                409,
            )
        raise TeamError(_("Only the team's captain or the director hands in its line-up."), 403)
    if team_match.tables.exists():
        raise TeamError(_("Both line-ups are in and the tables are seated."), 409)
    event = team_event(tournament)
    wanted = event.tables if event else 3
    pair_ids = [int(p) for p in pair_ids]
    own = {tp.pair_id: tp.pair for tp in team.roster.select_related("pair")}
    if len(pair_ids) != wanted or len(set(pair_ids)) != wanted:
        raise TeamError(_("Name %(n)s different pairs, one for each table.") % {"n": wanted})
    if any(p not in own or own[p].withdrawn for p in pair_ids):
        raise TeamError(_("Name only pairs on the team's roster."))
    lineup, _created = LineUp.objects.update_or_create(
        team_match=team_match, team=team, defaults={"pairs": pair_ids, "submitted_by": by}
    )
    lineups = list(team_match.lineups.all())
    if len(lineups) == 2:
        seat(team_match, event.tables if event else wanted)
    return lineup


def hall_table(team_match: TeamMatch, number: int, tables: int) -> int:
    """The hall's number of the fixture's table ``number``: the round's tables run on from the fixture before,
    as the cards, the match pages and the board number them."""
    return (team_match.number - 1) * tables + number


def seat(team_match: TeamMatch, tables: int) -> list[Match]:
    """The team match's tables from both line-ups: home pair i against away pair i, the home pair North–South
    at the odd tables; table numbers in the round run on from the fixture before."""
    by_team = {lu.team_id: lu.pairs for lu in team_match.lineups.all()}
    seated = seat_tables(by_team[team_match.home_id], by_team[team_match.away_id])
    matches = []
    for i, (ns, ew) in enumerate(seated, 1):
        match = Match(
            round=team_match.round, table=hall_table(team_match, i, tables), pair_ns_id=ns, pair_ew_id=ew
        )
        match.save()
        TeamTable.objects.create(team_match=team_match, number=i, match=match)
        matches.append(match)
    return matches
