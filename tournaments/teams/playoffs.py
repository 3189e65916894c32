"""The playoffs of a league's zone leaders: the top N of every zone (``rules.teams.zone_leaders``) in a knockout
bracket (``rules.knockout``) whose ties are team matches — k tables, line-ups from both captains, results
combined by the event's team result, as in the league.

The bracket is its first round's lines (``TeamEvent.playoff_lines``, team ids); every later round follows from
them and the results. A drawn team match is decided by ``rules.teams.playoff_winner``: table points, then level
difference, then the better seed. Each next fixture is made as soon as both ties before it are decided
(``advance_playoffs``): by the finishing of a playoff table (``after_table``, on commit, connected from the app's
``ready``) or by the desk. Its tables are seated when both line-ups are in, as any fixture's.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from functools import partial

from django.db import transaction
from django.db.models import Max
from django.db.models.signals import post_save
from django.utils.translation import gettext as _

from rules.knockout import Line, advance, bracket_rounds, pair_lines, placings, seed_numbers, seeded_lines
from rules.teams import TeamResult, TeamRow, playoff_winner, zone_leaders
from tournaments.competition.finishing import lock_open
from tournaments.models import Match, Round, Team, TeamEvent, TeamMatch, TeamTable, Tournament
from tournaments.pairing.bracket import Column, Entry, place_text, round_name
from tournaments.teams.models import team_event
from tournaments.teams.results import results, shown, zone_table
from tournaments.teams.services import TeamError

log = logging.getLogger(__name__)


@dataclass
class Playoffs:
    """A league's bracket so far: the first round's lines, its first round's number, each round's fixtures by
    the two teams, their results and who went through (``won``), and why each drawn one was decided."""

    lines: list[Line]
    start: int
    fixtures: list[dict[frozenset, TeamMatch]] = field(default_factory=list)
    won: list[set[int]] = field(default_factory=list)
    found: dict[int, TeamResult | None] = field(default_factory=dict)
    why: dict[int, str] = field(default_factory=dict)  # fixture id → the tie-break that decided a drawn match

    @property
    def seeds(self) -> dict[int, int]:
        return seed_numbers(self.lines)

    @property
    def size(self) -> int:
        return len(self.lines).bit_length() - 1


def playoffs_of(tournament: Tournament, event: TeamEvent | None = None) -> Playoffs | None:
    """The bracket of the league's playoffs, None until the director starts them."""
    event = event or team_event(tournament)
    if event is None or event.playoff_start is None or not event.playoff_lines:
        return None
    po = Playoffs(list(event.playoff_lines), event.playoff_start)
    po.fixtures = [{} for _r in range(po.size)]
    po.won = [set() for _r in range(po.size)]
    fixtures = list(
        TeamMatch.objects.filter(round__tournament=tournament, round__number__gte=po.start).select_related(
            "home", "away", "round"
        )
    )
    po.found = results(tournament, fixtures)
    seeds = po.seeds
    for fx in fixtures:
        index = fx.round.number - po.start
        if index >= po.size:
            continue
        po.fixtures[index][frozenset((fx.home_id, fx.away_id))] = fx
        res = po.found.get(fx.pk)
        if res is not None:
            side, why = playoff_winner(res, seeds.get(fx.home_id, 0), seeds.get(fx.away_id, 0))
            po.won[index].add(fx.home_id if side == "home" else fx.away_id)
            if why != "score":
                po.why[fx.pk] = why
    return po


def league_open(tournament: Tournament) -> bool:
    """Whether a league fixture still lacks its result (every table finished)."""
    fixtures = TeamMatch.objects.filter(round__tournament=tournament)
    found = results(tournament, fixtures)
    return any(found.get(pk) is None for pk in fixtures.values_list("pk", flat=True))


def leaders(tournament: Tournament, per_zone: int, seeding: str) -> list[int]:
    """The playoff field in seed order: the top ``per_zone`` of every zone's table (``rules.teams.zone_leaders``)."""
    tables: dict[str, list[TeamRow]] = {}
    for zone in list(tournament.zones.all()) or [None]:
        tables[str(zone.pk if zone else "")] = [
            TeamRow(s.rank, str(s.team.pk), s.score, s.played, s.wins, s.draws, s.losses, s.tiebreaks)
            for s in zone_table(tournament, zone)
        ]
    return [int(pk) for pk in zone_leaders(tables, per_zone, seeding)]


@transaction.atomic
def start_playoffs(tournament: Tournament, per_zone: int, seeding: str) -> Playoffs:
    """The bracket of the zone leaders, once every league match has its result; its first round's fixtures
    are made at once (a bye goes through). Refused for a team Swiss, twice, or with fewer than two teams."""
    tournament = lock_open(tournament.pk)
    event = team_event(tournament)
    if event is None or event.kind != TeamEvent.Kind.LEAGUE:
        raise TeamError(_("Only a league has playoffs."), 409)
    if event.playoff_start is not None:
        raise TeamError(_("The playoffs have started already."), 409)
    if not TeamMatch.objects.filter(round__tournament=tournament).exists():
        raise TeamError(_("Make the fixtures and play the league before the playoffs."), 409)
    if league_open(tournament):
        raise TeamError(_("Finish every league match before the playoffs."), 409)
    field_ = leaders(tournament, per_zone, seeding)
    if len(field_) < 2:
        raise TeamError(_("The playoffs need at least two teams."))
    last = tournament.rounds.aggregate(n=Max("number"))["n"] or 0
    event.playoff_per_zone, event.playoff_seeding = per_zone, seeding
    event.playoff_lines = seeded_lines(field_)
    event.playoff_start = last + 1
    event.full_clean(exclude=["tournament"])
    event.save()
    advance_playoffs(tournament)
    return playoffs_of(tournament, event)


@transaction.atomic
def advance_playoffs(tournament: Tournament) -> list[TeamMatch]:
    """Every playoff fixture whose two teams are known and not yet made, made now (the better seed at home, no
    date yet: the director sets it by postponing); returns them. Safe to call at any time, twice."""
    tournament = lock_open(tournament.pk)
    event = team_event(tournament)
    po = playoffs_of(tournament, event)
    if po is None:
        return []
    seeds = po.seeds
    teams = Team.objects.in_bulk([t for t in po.lines if t is not None])
    made: list[TeamMatch] = []
    current = po.lines
    for r in range(po.size):
        games, _byes = pair_lines(current, seeds)
        missing = [g for g in games if frozenset(g) not in po.fixtures[r]]
        if missing:
            number = po.start + r
            rnd, _created = Round.objects.get_or_create(
                tournament=tournament, number=number, defaults={"state": Round.State.PUBLISHED}
            )
            next_no = (rnd.team_matches.aggregate(n=Max("number"))["n"] or 0) + 1
            for i, (home, away) in enumerate(missing):
                made.append(
                    TeamMatch.objects.create(
                        round=rnd,
                        number=next_no + i,
                        home=teams[home],
                        away=teams[away],
                        venue=teams[home].venue,
                    )
                )
            if tournament.num_rounds < number:
                tournament.num_rounds = number
                tournament.save(update_fields=["num_rounds"])
        current = advance(current, po.won[r], first=r == 0)
    return made


def after_table(sender, instance: Match, **kwargs) -> None:
    """A finished table of a playoff fixture: the next fixtures are made once the write commits."""
    if instance.state != Match.State.FINISHED:
        return
    where = (
        TeamTable.objects.filter(match_id=instance.pk)
        .values_list("team_match__round__tournament_id", "team_match__round__number")
        .first()
    )
    if where is None:
        return
    tournament_id, number = where
    if TeamEvent.objects.filter(tournament_id=tournament_id, playoff_start__lte=number).exists():
        transaction.on_commit(partial(_advance, tournament_id), robust=True)


def _advance(tournament_id: int) -> None:
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is not None and not tournament.is_finished:
        made = advance_playoffs(tournament)
        if made:
            log.info("%s: %s playoff fixtures made by themselves", tournament.slug, len(made))


def connect() -> None:
    """Called from the app's ``ready``."""
    post_save.connect(after_table, sender=Match, dispatch_uid="team-playoffs-after-table")


# --- the picture -------------------------------------------------------------------------------------------


@dataclass
class TeamTie:
    """One tie of the playoff bracket as ``tournaments/standings/_bracket_tie.html`` draws it: its two entries
    (``Entry.pair`` holds the team), whether it is a bye, the fixture and how a drawn match was decided."""

    entries: list[Entry]
    fixture: TeamMatch | None = None
    bye: bool = False
    decided: str = ""


def decided_text(why: str) -> str:
    return {
        "table_points": _("Drawn: through on table points."),
        "level_diff": _("Drawn: through on the level difference."),
        "seed": _("Drawn: through as the higher seed."),
    }.get(why, "")


def playoff_picture(tournament: Tournament, event: TeamEvent, *, show_results: bool) -> dict | None:
    """The bracket a column a round (the final last), each tie with its teams, seeds and, with the results,
    the team scores and who went through; the placings so far. None before the playoffs start. Without the
    results, the teams are carried on only as far as the fixtures made show them."""
    po = playoffs_of(tournament, event)
    if po is None:
        return None
    if show_results:
        won = po.won
    else:  # the teams of the fixtures made, not the scores that put them there
        won = [{t for pair in po.fixtures[r + 1] for t in pair} for r in range(po.size - 1)]
    teams = Team.objects.in_bulk([t for t in po.lines if t is not None])
    seeds = po.seeds
    columns = []
    for r, column in enumerate(bracket_rounds(po.lines, won)):
        ties = []
        for tie in column:
            fx = po.fixtures[r].get(frozenset((tie.a, tie.b)))
            res = po.found.get(fx.pk) if fx else None
            entries = []
            for t in (tie.a, tie.b):
                decided = show_results and res is not None and t is not None
                score = ""
                if decided and fx is not None:
                    mine = res.home_score if t == fx.home_id else res.away_score
                    score = shown(mine, event.scoring)
                entries.append(
                    Entry(
                        teams.get(t),
                        seeds.get(t),
                        decided and t == tie.winner,
                        decided and t != tie.winner,
                        score,
                    )
                )
            why = decided_text(po.why.get(fx.pk, "")) if show_results and fx else ""
            ties.append(TeamTie(entries, fx, tie.bye, why))
        columns.append(Column(round_name(r, po.size), po.start + r, ties))
    places = []
    if show_results:
        got = placings(po.lines, po.won)
        places = [
            (place_text(p), teams[t])
            for t, p in sorted(got.items(), key=lambda item: (item[1].place, seeds.get(item[0], 0)))
        ]
    fixtures = [fx for by_teams in po.fixtures for fx in by_teams.values()]
    return {"columns": columns, "third": None, "placings": places, "fixtures": fixtures}
