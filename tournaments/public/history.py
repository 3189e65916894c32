"""The top pairs' rank after each round: the standings "as of round n" (``compute_standings(t, n)``) in turn."""

from __future__ import annotations

import hashlib

from django.core.cache import cache
from django.utils.safestring import SafeString

from tournaments.models import Adjustment, Bye, Match, Round, Tournament
from tournaments.public.charts import RankLine, rank_chart
from tournaments.standings.compute import compute_standings, deal_totals

TOP = 8
HISTORY_SECONDS = 6 * 3600


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


def inputs_fingerprint(tournament: Tournament) -> str:
    """A digest of everything the standings of every round are computed from — the finished matches, the
    confirmed deals' totals, the byes, the pairs, the scoring settings — read in four small queries, so the
    history (one standings a round: 0.6 s for 64 pairs after 7 rounds) is computed again only when one changes."""
    matches = list(
        Match.objects.of(tournament)
        .filter(state=Match.State.FINISHED)
        .order_by("pk")
        .values_list(
            "pk", "round__number", "pair_ns_id", "pair_ew_id", "winner_id", "level_ns", "level_ew", "ended_by"
        )
    )
    totals = deal_totals([row[0] for row in matches]) if matches else {}
    byes = list(Bye.objects.of(tournament).order_by("pk").values_list("round__number", "pair_id", "points"))
    pairs = list(tournament.pairs.order_by("pk").values_list("pk", "name", "seed", "withdrawn"))
    scoring = (tournament.points_win, tournament.points_draw, tournament.points_loss, tournament.bye_points)
    everything = (
        tournament.pk,
        played_rounds(tournament),
        matches,
        sorted(totals.items()),
        byes,
        pairs,
        scoring,
        tournament.tie_breaks,
        tournament.ruleset,
        list(Adjustment.objects.of(tournament).order_by("pk").values_list("pk", "kind", "withdrawn_at")),
    )
    return hashlib.sha256(repr(everything).encode()).hexdigest()


def rank_picture(tournament: Tournament) -> SafeString:
    """The standings page's picture of the top pairs' rank round by round (empty before a second round),
    kept in the cache under the digest of its inputs (so never stale) and drawn in the active language."""
    key = f"rank-history:{inputs_fingerprint(tournament)}"
    history = cache.get(key)
    if history is None:
        history = rank_history(tournament)
        cache.set(key, history, HISTORY_SECONDS)
    rounds, lines = history
    return rank_chart(lines, rounds)
