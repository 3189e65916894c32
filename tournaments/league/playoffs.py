"""The playoffs of a league's zone leaders: the top N of every zone (``rules.teams.zone_leaders``) in a knockout
bracket (``rules.knockout``) whose ties are team matches — k tables, line-ups from both captains, results
combined by the event's team result, as in the league.

The bracket is its first round's lines (``TeamEvent.playoff_lines``, team ids); every later round follows from
them and the results. A drawn team match is decided by ``rules.teams.playoff_winner``: table points, then level
difference, then the better seed. Each next fixture is made as soon as both ties before it are decided
(``advance_playoffs``): by the finishing of a playoff table (``after_table``, on commit, connected from the app's
``ready``) or by the desk. Its tables are seated when both line-ups are in, as any fixture's. With
``TeamEvent.playoff_third_place`` the semi-finals' losers play for third place. A next fixture made before a
tie's result was corrected is re-seated by the same step while it has not started; one under way is left as it
is and named to the director (``stale_fixtures``).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from functools import partial

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from rules.knockout import (
    Line,
    advance,
    bracket_rounds,
    placings,
    seed_numbers,
    seeded_lines,
    semifinal_losers,
)
from rules.teams import TeamResult, TeamRow, playoff_winner, shared_places, zone_leaders
from tournaments.competition.finishing import lock_open
from tournaments.league.errors import TeamError
from tournaments.league.results import results, shown, zone_table
from tournaments.models import (
    Deal,
    Match,
    Round,
    Team,
    TeamEvent,
    TeamMatch,
    TeamTable,
    Tournament,
    team_event,
    zones_or_field,
)
from tournaments.pairing.bracket import Column, Entry, place_text, round_name

log = logging.getLogger(__name__)


@dataclass
class Playoffs:
    """A league's bracket so far: the first round's lines, its first round's number, each round's fixtures by
    their tie's place in the round (0: the first), who went through in each round (``won``), the third-place
    match (the second fixture of the final's round) and its winner, the results and why each drawn one was
    decided."""

    lines: list[Line]
    start: int
    third_place: bool = False
    fixtures: list[dict[int, TeamMatch]] = field(default_factory=list)
    won: list[set[int]] = field(default_factory=list)
    third: TeamMatch | None = None
    third_won: int | None = None
    found: dict[int, TeamResult | None] = field(default_factory=dict)
    why: dict[int, str] = field(default_factory=dict)  # fixture id → the tie-break that decided a drawn match

    @property
    def seeds(self) -> dict[int, int]:
        return seed_numbers(self.lines)

    @property
    def size(self) -> int:
        return len(self.lines).bit_length() - 1


def playoffs_of(tournament: Tournament, event: TeamEvent | None = None) -> Playoffs | None:
    """The bracket of the league's playoffs, None until the director starts them. A fixture's tie is found by
    where its home team entered the bracket (a fixture left with a team a corrected result no longer sends
    there stays in its tie's place)."""
    event = event or team_event(tournament)
    if event is None or event.playoff_start is None or not event.playoff_lines:
        return None
    po = Playoffs(list(event.playoff_lines), event.playoff_start, event.playoff_third_place)
    po.fixtures = [{} for _r in range(po.size)]
    po.won = [set() for _r in range(po.size)]
    fixtures = list(
        TeamMatch.objects.filter(round__tournament=tournament, round__number__gte=po.start)
        .select_related("home", "away", "round")
        .order_by("round__number", "number")
    )
    po.found = results(tournament, fixtures)
    seeds = po.seeds
    where = {t: i for i, t in enumerate(po.lines) if t is not None}
    for fx in fixtures:
        r = fx.round.number - po.start
        if r >= po.size or fx.home_id not in where:
            continue
        index = where[fx.home_id] >> (r + 1)
        if index in po.fixtures[r]:
            if r == po.size - 1 and po.third_place and po.size >= 2 and po.third is None:
                po.third = fx  # the final's round: the final first, then the third-place match
            continue
        po.fixtures[r][index] = fx
    for r, by_index in enumerate(po.fixtures):
        for fx in [*by_index.values(), *([po.third] if po.third and r == po.size - 1 else [])]:
            res = po.found.get(fx.pk)
            if res is None:
                continue
            side, why = playoff_winner(res, seeds.get(fx.home_id, 0), seeds.get(fx.away_id, 0))
            winner = fx.home_id if side == "home" else fx.away_id
            if fx is po.third:
                po.third_won = winner
            else:
                po.won[r].add(winner)
            if why != "score":
                po.why[fx.pk] = why
    return po


def due_games(po: Playoffs) -> list[tuple[int, TeamMatch | None, tuple[int, int]]]:
    """Every playoff game the results so far call for, as (round index, its fixture or None, (home, away)):
    each tie whose two teams are known, the better seed at home, and the third-place match once both
    semi-finals are decided (with the fixture the round holds for it)."""
    seeds = po.seeds
    out = []
    current = po.lines
    for r in range(po.size):
        for i, (a, b) in enumerate(zip(current[0::2], current[1::2], strict=True)):
            if a is not None and b is not None:
                game = (a, b) if seeds.get(a, 0) <= seeds.get(b, 0) else (b, a)
                out.append((r, po.fixtures[r].get(i), game))
        current = advance(current, po.won[r], first=r == 0)
    if po.third_place and po.size >= 2:
        losers = semifinal_losers(po.lines, po.won)
        if len(losers) == 2:
            a, b = sorted(losers, key=lambda t: seeds.get(t, 0))
            out.append((po.size - 1, po.third, (a, b)))
    return out


def _started(fx: TeamMatch) -> bool:
    """Whether a fixture is under way: a line-up handed in or a table seated."""
    return fx.lineups.exists() or fx.tables.exists()


def _moved(fx: TeamMatch, game: tuple[int, int]) -> bool:
    return {fx.home_id, fx.away_id} != set(game)


def stale_fixtures(tournament: Tournament) -> list[tuple[TeamMatch, Team, Team]]:
    """The playoff fixtures under way whose teams a corrected result no longer sends there, each with the
    two teams that should play it: the director fixes them by hand (``advance_playoffs`` re-seats only a
    fixture not yet started)."""
    po = playoffs_of(tournament)
    if po is None:
        return []
    moved = [(fx, game) for _r, fx, game in due_games(po) if fx is not None and _moved(fx, game)]
    teams = Team.objects.in_bulk([t for _fx, game in moved for t in game])
    return [(fx, teams[game[0]], teams[game[1]]) for fx, game in moved if _started(fx)]


def league_open(tournament: Tournament) -> bool:
    """Whether a league fixture still lacks its result (every table finished)."""
    fixtures = TeamMatch.objects.filter(round__tournament=tournament)
    found = results(tournament, fixtures)
    return any(found.get(pk) is None for pk in fixtures.values_list("pk", flat=True))


def zone_tables(tournament: Tournament) -> tuple[dict[str, list[TeamRow]], dict[str, str]]:
    """Every zone's table as the rules take it (by the zone's id), and each zone's name."""
    tables: dict[str, list[TeamRow]] = {}
    names: dict[str, str] = {}
    for zone in zones_or_field(tournament):
        key = str(zone.pk if zone else "")
        names[key] = zone.name if zone else ""
        tables[key] = [
            TeamRow(s.rank, str(s.team.pk), s.score, s.played, s.wins, s.draws, s.losses, s.tiebreaks)
            for s in zone_table(tournament, zone)
        ]
    return tables, names


@dataclass(frozen=True)
class SharedPlace:
    """A zone's last qualifying place shared on every criterion: the zone, the place and the teams sharing it."""

    zone: str
    zone_name: str
    place: int
    teams: list[Team]
    slots: int = 1  # how many of them go through

    @property
    def text(self) -> str:
        names = "、".join(t.name for t in self.teams)
        if self.zone_name:
            return _(
                "%(zone)s: %(teams)s share place %(place)s on every criterion; choose who goes through."
            ) % {
                "zone": self.zone_name,
                "teams": names,
                "place": self.place,
            }
        return _("%(teams)s share place %(place)s on every criterion; choose who goes through.") % {
            "teams": names,
            "place": self.place,
        }


def shared(tournament: Tournament, per_zone: int) -> list[SharedPlace]:
    """The zones whose last qualifying place is shared on every criterion: the director chooses who goes on."""
    tables, names = zone_tables(tournament)
    found = shared_places(tables, per_zone)
    teams = Team.objects.in_bulk([int(t) for group in found.values() for t in group])
    out = []
    for z, group in found.items():
        above = sum(
            1 for row in tables[z] if row.team not in group and row.rank < tables[z][per_zone - 1].rank
        )
        out.append(SharedPlace(z, names[z], above + 1, [teams[int(t)] for t in group], per_zone - above))
    return out


def leaders(
    tournament: Tournament, per_zone: int, seeding: str, chosen: dict[str, list[int]] | None = None
) -> list[int]:
    """The playoff field in seed order: the top ``per_zone`` of every zone's table (``rules.teams.zone_leaders``);
    ``chosen``: by zone id, the teams the director chose for a shared last place. Refused, naming the place,
    while a shared place has no choice."""
    tables, _names = zone_tables(tournament)
    open_places = [
        sp
        for sp in shared(tournament, per_zone)
        if len({t.pk for t in sp.teams} & set((chosen or {}).get(sp.zone, []))) != sp.slots
    ]
    if open_places:
        raise TeamError(open_places[0].text, 409)
    picks = {z: [str(t) for t in teams] for z, teams in (chosen or {}).items()}
    return [int(pk) for pk in zone_leaders(tables, per_zone, seeding, picks)]


def playoff_deal_started(tournament: Tournament, event: TeamEvent) -> bool:
    """Whether a deal of a playoff table has been started (the draw then stands)."""
    if event.playoff_start is None:
        return False
    return Deal.objects.filter(
        match__round__tournament=tournament, match__round__number__gte=event.playoff_start
    ).exists()


def draw_lines(
    tournament: Tournament, per_zone: int, seeding: str, chosen: dict[str, list[int]] | None = None
) -> list[Line]:
    """The first round's lines the draw would make, saving nothing (the desk shows them before saving)."""
    _refuse_unready(tournament)
    field_ = leaders(tournament, per_zone, seeding, chosen)
    if len(field_) < 2:
        raise TeamError(_("The playoffs need at least two teams."))
    return seeded_lines(field_)


def _refuse_unready(tournament: Tournament) -> TeamEvent:
    event = team_event(tournament)
    if event is None or event.kind != TeamEvent.Kind.LEAGUE:
        raise TeamError(_("Only a league has playoffs."), 409)
    if not TeamMatch.objects.filter(round__tournament=tournament).exists():
        raise TeamError(_("Make the fixtures and play the league before the playoffs."), 409)
    if event.playoff_start is None and league_open(tournament):
        raise TeamError(_("Finish every league match before the playoffs."), 409)
    if playoff_deal_started(tournament, event):
        raise TeamError(_("A playoff deal has started: the draw stands."), 409)
    return event


def _undraw(tournament: Tournament, event: TeamEvent) -> None:
    """The playoffs drawn before are taken back (no playoff deal started): their rounds, fixtures, line-ups and
    tables go, the league's stay."""
    start = event.playoff_start
    if start is None:  # nothing drawn
        return
    tournament.rounds.filter(number__gte=start).delete()
    tournament.num_rounds = start - 1
    tournament.save(update_fields=["num_rounds"])
    event.playoff_start, event.playoff_lines = None, []


@transaction.atomic
def start_playoffs(
    tournament: Tournament,
    per_zone: int,
    seeding: str,
    third_place: bool = False,
    chosen: dict[str, list[int]] | None = None,
) -> Playoffs:
    """The bracket of the zone leaders, once every league match has its result; its first round's fixtures
    are made at once (a bye goes through); with ``third_place``, the semi-finals' losers play for third place;
    ``chosen``: who takes a shared last place (see ``leaders``). Drawn again (the fixtures made before taken
    back) until the first playoff deal starts. Refused for a team Swiss or with fewer than two teams."""
    tournament = lock_open(tournament.pk)
    event = _refuse_unready(tournament)
    if event.playoff_start is not None:
        _undraw(tournament, event)
    lines = draw_lines(tournament, per_zone, seeding, chosen)
    last = tournament.rounds.aggregate(n=Max("number"))["n"] or 0
    event.playoff_per_zone, event.playoff_seeding = per_zone, seeding
    event.playoff_third_place = third_place
    event.playoff_lines = lines
    event.playoff_start = last + 1
    event.full_clean(exclude=["tournament"])
    event.save()
    advance_playoffs(tournament)
    drawn = playoffs_of(tournament, event)
    if drawn is None:  # never: the lines were just stored
        raise LookupError(f"{tournament.slug}'s playoffs were drawn but are not found")
    return drawn


@transaction.atomic
def advance_playoffs(tournament: Tournament) -> list[TeamMatch]:
    """Every playoff fixture whose two teams are known and not yet made, made now (the better seed at home, no
    date yet: the director sets it by postponing), the third-place match after the final; a fixture made
    before a tie's result was corrected, and not started yet (no line-up, no table), re-seated with the teams
    the results now send there. Returns the fixtures made or re-seated. Safe to call at any time, twice."""
    tournament = lock_open(tournament.pk)
    event = team_event(tournament)
    po = playoffs_of(tournament, event)
    if po is None:
        return []
    teams = Team.objects.in_bulk([t for t in po.lines if t is not None])
    done: list[TeamMatch] = []
    missing: dict[int, list[tuple[int, int]]] = {}
    for r, fx, (home, away) in due_games(po):
        if fx is None:
            missing.setdefault(r, []).append((home, away))
        elif _moved(fx, (home, away)) and not _started(fx):
            fx.home, fx.away, fx.venue = teams[home], teams[away], teams[home].venue
            fx.save(update_fields=["home", "away", "venue"])
            log.info("%s: playoff fixture %s re-seated after a corrected result", tournament.slug, fx.pk)
            done.append(fx)
    for r, games in missing.items():
        number = po.start + r
        rnd, _created = Round.objects.get_or_create(
            tournament=tournament, number=number, defaults={"state": Round.State.PUBLISHED}
        )
        next_no = (rnd.team_matches.aggregate(n=Max("number"))["n"] or 0) + 1
        for i, (home, away) in enumerate(games):
            done.append(
                TeamMatch.objects.create(
                    round=rnd, number=next_no + i, home=teams[home], away=teams[away], venue=teams[home].venue
                )
            )
        if tournament.num_rounds < number:
            tournament.num_rounds = number
            tournament.save(update_fields=["num_rounds"])
    return done


def after_table(match: Match) -> None:
    """A finished table of a playoff fixture: the next fixtures are made once the write commits (asked by the
    match fold, ``scoring.fold.recompute_match``, after every match it folds)."""
    if match.state != Match.State.FINISHED:
        return
    where = (
        TeamTable.objects.filter(match_id=match.pk)
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
            log.info("%s: %s playoff fixtures made or re-seated by themselves", tournament.slug, len(made))


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


def _tie(
    a, b, winner, fx: TeamMatch | None, po: Playoffs, event: TeamEvent, teams: dict, show: bool
) -> TeamTie:
    """One tie of the picture: teams ``a`` and ``b`` (``winner``: who went through), the fixture's team scores
    and how a drawn match was decided, when the results are shown."""
    res = po.found.get(fx.pk) if fx else None
    seeds = po.seeds
    entries = []
    for t in (a, b):
        decided = show and res is not None and t is not None
        score = ""
        if decided and fx is not None and res is not None and t in (fx.home_id, fx.away_id):
            score = shown(res.home_score if t == fx.home_id else res.away_score, event.scoring)
        known = decided and winner is not None
        entries.append(Entry(teams.get(t), seeds.get(t), known and t == winner, known and t != winner, score))
    why = decided_text(po.why.get(fx.pk, "")) if show and fx else ""
    return TeamTie(entries, fx, False, why)


def playoff_picture(tournament: Tournament, event: TeamEvent, *, show_results: bool) -> dict | None:
    """The bracket a column a round (the final last), each tie with its teams, seeds and, with the results,
    the team scores and who went through; the third-place match once made; the placings so far. None before
    the playoffs start. Without the results, the teams are carried on only as far as the fixtures made show
    them."""
    po = playoffs_of(tournament, event)
    if po is None:
        return None
    if show_results:
        won = po.won
    else:  # the teams of the fixtures made, not the scores that put them there
        won = [
            {t for fx in po.fixtures[r + 1].values() for t in (fx.home_id, fx.away_id)}
            for r in range(po.size - 1)
        ]
    teams = Team.objects.in_bulk([t for t in po.lines if t is not None])
    columns = []
    for r, column in enumerate(bracket_rounds(po.lines, won)):
        ties = []
        for i, tie in enumerate(column):
            box = _tie(tie.a, tie.b, tie.winner, po.fixtures[r].get(i), po, event, teams, show_results)
            box.bye = tie.bye
            ties.append(box)
        columns.append(Column(round_name(r, po.size), po.start + r, ties))
    third = None
    if po.third is not None:
        fx = po.third
        third = _tie(fx.home_id, fx.away_id, po.third_won, fx, po, event, teams, show_results)
    places = []
    if show_results:
        losers = set(semifinal_losers(po.lines, po.won))
        played = po.third if po.third and {po.third.home_id, po.third.away_id} == losers else None
        got = placings(
            po.lines,
            po.won,
            (played.home_id, played.away_id, po.third_won) if played else None,
            third_place_match=po.third_place,
        )
        seeds = po.seeds
        places = [
            (place_text(p), teams[t])
            for t, p in sorted(got.items(), key=lambda item: (item[1].place, seeds.get(item[0], 0)))
        ]
    fixtures = [fx for by_index in po.fixtures for fx in by_index.values()] + ([po.third] if po.third else [])
    return {"columns": columns, "third": third, "placings": places, "fixtures": fixtures}
