"""Players' ratings: openskill's Plackett–Luce model replayed over every finished match, in order.

Nothing is stored: the ratings are computed from the match history each time (the last replay kept in the
process, keyed by the history itself), so a corrected result, a merged player or a reopened match changes every
rating after it and no stale state is left. Order: the tournament's date (its start date, else the day it was
created), the tournament, the round, the table. A pair is a team of its two players; the winner ranks first, a
draw ranks both teams equal. A forfeit or a bye is not a game played and rates no one.

Every player starts at openskill's defaults, mu 25 and sigma 25/3. The number shown is the conservative
ordinal, mu − 3·sigma, scaled: ``1000 + 40 × (mu − 3σ)``, so a new player shows 1000 and a rating rises as wins
both raise mu and shrink sigma.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from functools import lru_cache

from django.db.models import F
from django.db.models.functions import Coalesce, TruncDate
from openskill.models import PlackettLuce

from tournaments.models import Match

MU = 25.0
SIGMA = 25.0 / 3
BASE, SCALE = 1000, 40
MODEL = PlackettLuce(mu=MU, sigma=SIGMA)

# (match, tournament, NS players, EW players, ranks [NS, EW])
Game = tuple[int, int, tuple[int, int], tuple[int, int], tuple[int, int]]


def shown(mu: float, sigma: float) -> int:
    """The displayed rating: the ordinal mu − 3σ, scaled so a new player shows 1000."""
    return round(BASE + SCALE * (mu - 3 * sigma))


@dataclass(frozen=True)
class Point:
    """A player's rating after one match."""

    match_id: int
    tournament_id: int
    mu: float
    sigma: float

    @property
    def shown(self) -> int:
        return shown(self.mu, self.sigma)


@dataclass
class Ratings:
    """Every player's rating now (mu, sigma) and after each of their matches."""

    now: dict[int, tuple[float, float]] = field(default_factory=dict)
    history: dict[int, list[Point]] = field(default_factory=lambda: defaultdict(list))

    def of(self, player_id: int) -> int:
        mu, sigma = self.now.get(player_id, (MU, SIGMA))
        return shown(mu, sigma)

    def team(self, *player_ids: int) -> float:
        """A pair's strength for seeding: its players' ordinals added up."""
        return sum(self.now.get(p, (MU, SIGMA))[0] - 3 * self.now.get(p, (MU, SIGMA))[1] for p in player_ids)


def games() -> tuple[Game, ...]:
    """Every finished match played (not a forfeit, not a bye) in the order they are rated."""
    rows = (
        Match.objects.filter(state=Match.State.FINISHED, round__tournament__is_public=True)
        .exclude(ended_by__in=[Match.EndedBy.FORFEIT, Match.EndedBy.BYE])
        .annotate(
            day=Coalesce(F("round__tournament__start_date"), TruncDate("round__tournament__created_at"))
        )
        .order_by("day", "round__tournament_id", "round__number", "table", "pk")
        .values_list(
            "pk",
            "round__tournament_id",
            "pair_ns_id",
            "pair_ns__player1_id",
            "pair_ns__player2_id",
            "pair_ew__player1_id",
            "pair_ew__player2_id",
            "winner_id",
        )
    )
    out = []
    for pk, tournament_id, ns, ns1, ns2, ew1, ew2, winner in rows:
        ranks = (1, 1) if winner is None else ((1, 2) if winner == ns else (2, 1))
        out.append((pk, tournament_id, (ns1, ns2), (ew1, ew2), ranks))
    return tuple(out)


@lru_cache(maxsize=1)
def replay(history: tuple[Game, ...]) -> Ratings:
    """The ratings after the games, in their order (kept for the last history asked: the same games rate the
    same)."""
    ratings = Ratings()
    for match_id, tournament_id, ns, ew, ranks in history:
        teams = [[MODEL.rating(*ratings.now.get(p, (MU, SIGMA))) for p in team] for team in (ns, ew)]
        rated = MODEL.rate(teams, ranks=list(ranks))
        for team, new in zip((ns, ew), rated, strict=True):
            for player_id, r in zip(team, new, strict=True):
                ratings.now[player_id] = (r.mu, r.sigma)
                ratings.history[player_id].append(Point(match_id, tournament_id, r.mu, r.sigma))
    return ratings


def current() -> Ratings:
    """Every player's rating from the match history as it stands."""
    return replay(games())
