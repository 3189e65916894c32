"""The top pairs' rank after each round: the standings "as of round n" (``compute_standings(t, n)``) in turn."""

from __future__ import annotations

from django.utils.safestring import SafeString

from tournaments.models import Round, Tournament
from tournaments.public.charts import RankLine, rank_chart
from tournaments.standings.compute import compute_standings

TOP = 8


def played_rounds(tournament: Tournament) -> list[int]:
    """The numbers of the rounds that have begun counting: published or finished, not a draft."""
    return list(
        tournament.rounds.exclude(state=Round.State.DRAFT).order_by("number").values_list("number", flat=True)
    )


def rank_history(tournament: Tournament, top: int = TOP) -> tuple[list[int], list[RankLine]]:
    """The rounds, and the ``top`` pairs of the latest standings with their rank after each of those rounds."""
    rounds = played_rounds(tournament)
    if not rounds:
        return [], []
    tables = {n: {line.pair.pk: line.rank for line in compute_standings(tournament, n)} for n in rounds}
    latest = compute_standings(tournament, rounds[-1])[:top]
    return rounds, [
        RankLine(line.pair.name, [tables[n].get(line.pair.pk) for n in rounds]) for line in latest
    ]


def rank_picture(tournament: Tournament) -> SafeString:
    """The standings page's picture of the top pairs' rank round by round (empty before a second round)."""
    rounds, lines = rank_history(tournament)
    return rank_chart(lines, rounds)
