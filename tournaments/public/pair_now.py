"""A pair's page answers a player's first question first: where do we sit now, against whom, how are we doing."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q

from tournaments.models import Bye, Match, Pair, Round, Tournament
from tournaments.public.screen_data import current_round


@dataclass
class Now:
    """The pair's place in the current round: a match (table, side, opponents), a bye, or neither."""

    round: Round | None
    match: Match | None = None
    side: str = ""
    opponent: Pair | None = None
    bye: bool = False


def pair_now(tournament: Tournament, pair: Pair) -> Now:
    rnd = current_round(tournament)
    if rnd is None:
        return Now(None)
    match = (
        Match.objects.filter(round=rnd)
        .filter(Q(pair_ns=pair) | Q(pair_ew=pair))
        .select_related("pair_ns__player1", "pair_ns__player2", "pair_ew__player1", "pair_ew__player2")
        .first()
    )
    if match is not None:
        side = "NS" if match.pair_ns_id == pair.pk else "EW"
        return Now(rnd, match, side, match.pair_of("EW" if side == "NS" else "NS"))
    return Now(rnd, bye=Bye.objects.filter(round=rnd, pair=pair).exists())
