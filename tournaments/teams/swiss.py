"""A team Swiss at the desk: the next round paired from the standings so far with the pairs' matching
(``rules.teams.team_swiss_round``), every fixture of the round before finished first."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from rules.teams import TeamsError, team_swiss_round
from tournaments.competition.finishing import lock_open
from tournaments.league.errors import TeamError
from tournaments.league.results import results, zone_table
from tournaments.models import Round, TeamMatch, Tournament


@transaction.atomic
def pair_swiss_round(tournament: Tournament) -> Round:
    """The next round of a team Swiss: teams ranked by the standings so far, no repeat where it can be avoided;
    the team without an opponent rests."""
    tournament = lock_open(tournament.pk)
    fixtures = TeamMatch.objects.filter(round__tournament=tournament)
    found = results(tournament)
    if any(found.get(pk) is None for pk in fixtures.values_list("pk", flat=True)):
        raise TeamError(_("Finish every team match of the round before pairing the next."), 409)
    teams = {str(t.pk): t for t in tournament.teams.all()}
    if len(teams) < 2:
        raise TeamError(_("A team Swiss needs two teams."))
    done = list(TeamMatch.objects.filter(round__tournament=tournament).values_list("home_id", "away_id"))
    table = zone_table(tournament, None)
    ranked = [str(line.team.pk) for line in table]
    home_minus_away: dict[str, int] = {}
    for h, a in done:
        home_minus_away[str(h)] = home_minus_away.get(str(h), 0) + 1
        home_minus_away[str(a)] = home_minus_away.get(str(a), 0) - 1
    number = (tournament.rounds.order_by("-number").values_list("number", flat=True).first() or 0) + 1
    try:
        games = team_swiss_round(
            ranked,
            first_round=not done,
            played=[frozenset({str(h), str(a)}) for h, a in done],
            home_minus_away=home_minus_away,
            scores={str(line.team.pk): line.score for line in table},
        ).games
    except TeamsError as exc:
        raise TeamError(_("No pairing of the teams is possible."), 409) from exc
    rnd = Round.objects.create(tournament=tournament, number=number, state=Round.State.PUBLISHED)
    TeamMatch.objects.bulk_create(
        TeamMatch(round=rnd, number=i, home=teams[h], away=teams[a], venue=tournament.venue)
        for i, (h, a) in enumerate(games, 1)
    )
    tournament.num_rounds = max(tournament.num_rounds, number)
    tournament.save(update_fields=["num_rounds"])
    return rnd
