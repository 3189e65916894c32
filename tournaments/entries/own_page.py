"""What a pair's own page shows, read from the database: where it sits next and against whom (once the round is
published), whether its match has started, whether it is called to check in, its results round by round with
its rank, its own table's confirmed deals, and the referee's calls and the director's adjustments at its
tables.

Only the pair's own matches are read: another table's deals never reach this page, whatever the round.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Q
from django.utils.translation import gettext as _

from tournaments.checkin.services import next_round
from tournaments.models import (
    SEAT_CHOICES,
    Adjustment,
    CheckIn,
    Deal,
    Match,
    Pair,
    Round,
    TableCall,
    Tournament,
)
from tournaments.public.pair_now import Now, pair_now
from tournaments.standings.compute import compute_standings

SEAT_NAMES = dict(SEAT_CHOICES)


@dataclass
class Played:
    """One of the pair's matches: its round and table, the opponents, the pair's result and its deals."""

    match: Match
    opponent: Pair
    outcome: str
    deals: list[dict] = field(default_factory=list)


@dataclass
class OwnPage:
    now: Now
    seats: list[tuple[str, str]]  # (seat's name, player) for the four seats of the next table
    started: bool  # the next table's match is being played
    over: bool  # it is finished (the round's last table may still be playing)
    check_in_round: int | None  # the round the pair is called to check in for
    checked_in: bool
    played: list[Played]
    rank: int | None
    match_points: int | None
    calls: list[TableCall]
    adjustments: list[Adjustment]


def outcome_for(match: Match, pair: Pair) -> str:
    """The pair's result of a match, from its side: won, lost, drawn, or the match's state while it is played."""
    if match.state != Match.State.FINISHED:
        return str(match.get_state_display())
    if match.winner_id is None:
        return _("drawn")
    return _("won") if match.winner_id == pair.pk else _("lost")


def seats_of(match: Match) -> list[tuple[str, str]]:
    players = match.seat_players()
    return [(str(SEAT_NAMES[seat]), players[seat]) for seat in ("N", "E", "S", "W")]


def deal_rows(match: Match) -> list[dict]:
    """The match's confirmed deals, as the pair's own table recorded them."""
    players = match.seat_players()
    return [
        {
            "number": deal.number,
            "banker": players.get(deal.banker, ""),
            "level": deal.get_level_display(),
            "trump": deal.get_trump_display(),
            "points": deal.attackers_total,
            "held": deal.banker_held,
        }
        for deal in match.deals.filter(state=Deal.State.CONFIRMED).order_by("number")
    ]


def own_page(tournament: Tournament, pair: Pair) -> OwnPage:
    now = pair_now(tournament, pair)
    mine = Q(pair_ns=pair) | Q(pair_ew=pair)
    matches = (
        Match.objects.filter(mine, round__tournament=tournament)
        .exclude(round__state=Round.State.DRAFT)
        .select_related(
            "round", "pair_ns__player1", "pair_ns__player2", "pair_ew__player1", "pair_ew__player2"
        )
        .order_by("round__number")
    )
    played = [
        Played(m, m.pair_ew if m.pair_ns_id == pair.pk else m.pair_ns, outcome_for(m, pair), deal_rows(m))
        for m in matches
    ]
    upcoming = next_round(tournament)
    called = CheckIn.objects.filter(pair__tournament=tournament, round_number=upcoming)
    line = None
    if tournament.public_standings:
        line = next((x for x in compute_standings(tournament) if x.pair.pk == pair.pk), None)
    ids = [p.match.pk for p in played]
    return OwnPage(
        now=now,
        seats=seats_of(now.match) if now.match else [],
        started=bool(now.match and now.match.state == Match.State.IN_PROGRESS),
        over=bool(now.match and now.match.state == Match.State.FINISHED),
        check_in_round=upcoming if called.exists() and upcoming <= tournament.rounds_planned else None,
        checked_in=called.filter(pair=pair).exists(),
        played=played,
        rank=line.rank if line and line.played else None,
        match_points=line.match_points if line else None,
        calls=list(
            TableCall.objects.filter(match_id__in=ids).select_related("match__round").order_by("called_at")
        ),
        adjustments=list(
            Adjustment.objects.filter(match_id__in=ids, withdrawn_at__isnull=True)
            .select_related("match__round")
            .order_by("made_at")
        ),
    )
