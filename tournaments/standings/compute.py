"""Standings from the database: gathers match results as plain data for ``rules.standings`` (RULES §12).

Shared by the desk and public pages, the Excel workbook, the Swiss pairing and the tests. Deal totals are summed
from columns copied out of each verdict on save, so the large verdicts are never loaded.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count, Q, Sum
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from rules.match import time_points
from rules.ruleset import Ruleset
from rules.standings import TIEBREAKS, MatchResult, StandingsSettings, ladder_positions, standings
from tournaments.models import TIE_BREAKS, Adjustment, Bye, Deal, Match, Pair, Tournament, by_seed

TIE_BREAK_LABELS = dict(TIE_BREAKS)
BANKER_HELD = ("banker_holds", "match_won")
NS_SEATS = ("N", "S")


@dataclass
class Line:
    """One pair's line of the standings (tie-breaks keyed by the engine's codes, in the TD's order)."""

    rank: int
    pair: Pair
    match_points: int
    played: int
    wins: int
    draws: int
    losses: int
    tiebreaks: dict[str, int] = field(default_factory=dict)
    adjusted: bool = False  # the pair has a result the director adjusted (the standings mark it)

    @property
    def name(self) -> str:
        return self.pair.name

    def as_row(self) -> dict:
        return {
            "rank": self.rank,
            "pair": self.pair,
            "name": self.pair.name,
            "players": self.pair.players,
            "club": self.pair.club,
            "withdrawn": self.pair.withdrawn,
            "adjusted": self.adjusted,
            "match_points": self.match_points,
            "played": self.played,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            **self.tiebreaks,
        }


def tie_break_codes(tournament: Tournament) -> list[str]:
    """The tournament's tie-breaks the engine knows, in the TD's order."""
    return [code for code in tournament.tie_breaks or [] if code in TIEBREAKS]


def tie_break_columns(tournament: Tournament) -> list[tuple[str, str | Promise]]:
    """(code, label) of the tournament's tie-breaks in the TD's order."""
    return [(code, TIE_BREAK_LABELS[code]) for code in tie_break_codes(tournament)]


def settings_for(tournament: Tournament) -> StandingsSettings:
    return StandingsSettings(
        win=tournament.points_win,
        draw=tournament.points_draw,
        loss=tournament.points_loss,
        bye=tournament.bye_points,
        tiebreaks=tuple(tie_break_codes(tournament)),
    )


def deal_totals(match_ids) -> dict[int, dict[str, list[int]]]:
    """Per match: {"banker_wins": [NS, EW], "attackers_points": [NS, EW]} summed from its confirmed deals.

    Sums the columns ``Deal.save`` copies from each verdict, so the database never parses the verdicts.
    """
    ns_banks = Q(banker__in=NS_SEATS)
    rows = (
        Deal.objects.filter(match_id__in=match_ids, state=Deal.State.CONFIRMED)
        .exclude(pk__in=Adjustment.objects.void_deal_ids())
        .values("match_id")
        .annotate(
            ns_wins=Count("pk", filter=ns_banks & Q(banker_held=True)),
            ew_wins=Count("pk", filter=~ns_banks & Q(banker_held=True)),
            ns_points=Sum("attackers_total", filter=~ns_banks),
            ew_points=Sum("attackers_total", filter=ns_banks),
        )
    )
    return {
        row["match_id"]: {
            "banker_wins": [row["ns_wins"], row["ew_wins"]],
            "attackers_points": [row["ns_points"] or 0, row["ew_points"] or 0],
        }
        for row in rows
    }


def gather_results(tournament: Tournament, up_to_round: int | None = None) -> list[MatchResult]:
    """Plain results of the finished matches and byes (pair keys are pair ids as text); a match the ruleset's
    time rule scored itself (``points``: 2 / 1–1 at time) carries those points."""
    rs = Ruleset.from_spec(tournament.ruleset)
    positions = ladder_positions(rs)
    matches = Match.objects.of(tournament).filter(state=Match.State.FINISHED)
    byes = Bye.objects.of(tournament)
    if up_to_round is not None:
        matches = matches.filter(round__number__lte=up_to_round)
        byes = byes.filter(round__number__lte=up_to_round)
    rows = list(
        matches.values_list("pk", "pair_ns_id", "pair_ew_id", "winner_id", "level_ns", "level_ew", "ended_by")
    )
    totals = deal_totals([row[0] for row in rows]) if rows else {}
    empty = {"banker_wins": [0, 0], "attackers_points": [0, 0]}
    both_lose = Adjustment.objects.both_lose_ids(tournament) if rows else set()
    results = []
    for pk, ns, ew, winner, level_ns, level_ew, ended_by in rows:
        t = totals.get(pk, empty)
        fixed = time_points(rs, ended_by, None if winner is None else "NS" if winner == ns else "EW") or {}
        results.append(
            MatchResult(
                str(ns),
                str(ew),
                None if winner is None else str(winner),
                positions.get(level_ns, 0),
                positions.get(level_ew, 0),
                t["banker_wins"][0],
                t["banker_wins"][1],
                t["attackers_points"][0],
                t["attackers_points"][1],
                both_lose=pk in both_lose,
                points_a=fixed.get("NS"),
                points_b=fixed.get("EW"),
            )
        )
    for pair_id, points in byes.values_list("pair_id", "points"):
        results.append(MatchResult(str(pair_id), None, str(pair_id), bye_points=points))
    return results


def compute_standings(tournament: Tournament, up_to_round: int | None = None) -> list[Line]:
    """Every pair of the tournament (withdrawn ones keep their results), ranked; equal keys share a rank."""
    # In seed order: pairs tied on every key are listed by seed.
    pairs = {str(p.pk): p for p in by_seed(tournament.pairs.select_related("player1", "player2"))}
    rows = standings(gather_results(tournament, up_to_round), settings_for(tournament), pairs=pairs)
    marked = Adjustment.objects.adjusted_pair_ids(tournament)
    return [
        Line(
            r.rank,
            pairs[r.pair],
            r.match_points,
            r.played,
            r.wins,
            r.draws,
            r.losses,
            dict(r.tiebreaks),
            pairs[r.pair].pk in marked,
        )
        for r in rows
        if r.pair in pairs
    ]


def standings_title(tournament: Tournament, up_to_round: int | None = None):
    """The standings' heading: final once the tournament is finished, else live (or after a round)."""
    if up_to_round is None:
        return _("Final standings") if tournament.is_finished else _("Standings")
    return _("Standings after round %(n)s") % {"n": up_to_round}
