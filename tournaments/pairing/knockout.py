"""The knockout on the database: who enters the bracket, the bracket so far, the next bracket round's games, and
the director's decision of a match that ended level.

The bracket is ``rules.knockout``'s: the first bracket round stores its lines (``Round.bracket``), every later
round follows from them and the results. A match that ends level (time called on equal levels with the ruleset's
draw, both sides out on strikes) cannot stand in a knockout: the director decides who goes through, with a
reason (``decide_tie``, kept in the match's history with who and when), and until then the next bracket round
cannot be paired (``why_not_next``). The next round is paired by the desk's button, as every round is: its draft
is the director's review before it is published.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext as _

from rules.knockout import Game, Line, advance, pair_lines, seed_numbers, seeded_lines, semifinal_losers
from tournaments.competition.finishing import lock_open
from tournaments.models import Match, Pair, Round, Tournament, by_seed
from tournaments.standings.compute import compute_standings


class TieError(Exception):
    """A tie decision refused; the message is for the director."""

    def __init__(self, message: str, status: int = 409) -> None:
        super().__init__(message)
        self.message, self.status = message, status


def is_bracket_round(tournament: Tournament, number: int) -> bool:
    start = tournament.bracket_start
    return start is not None and number >= start


def entrants(tournament: Tournament) -> list[int]:
    """The pairs that enter the bracket, best seed first: a knockout's pairs in seed order; after a first stage,
    its top ``knockout_size`` by the standings after its last round. Withdrawn pairs are skipped."""
    if tournament.format == Tournament.Format.KNOCKOUT:
        return [p.pk for p in by_seed(tournament.pairs.filter(withdrawn=False))]
    lines = compute_standings(tournament, up_to_round=tournament.num_rounds)
    return [line.pair.pk for line in lines if not line.pair.withdrawn][: tournament.knockout_size]


@dataclass
class Bracket:
    """A tournament's bracket so far: the first round's lines, each pair's seed, the bracket rounds in order and
    who went through in each (``won``); ``third`` is the third-place match once paired."""

    lines: list[Line]
    rounds: list[Round]
    won: list[set[int]] = field(default_factory=list)
    third: Match | None = None

    @property
    def seeds(self) -> dict[int, int]:
        return seed_numbers(self.lines)

    @property
    def size(self) -> int:
        return len(self.lines).bit_length() - 1


def bracket_of(tournament: Tournament, rounds=None) -> Bracket | None:
    """The bracket of ``rounds`` (default: all the tournament's), None until its first round is paired."""
    start = tournament.bracket_start
    if start is None:
        return None
    rounds = list((rounds if rounds is not None else tournament.rounds.all()).filter(number__gte=start))
    rounds.sort(key=lambda r: r.number)
    if not rounds or rounds[0].number != start or not rounds[0].bracket:
        return None
    bracket = Bracket(list(rounds[0].bracket), rounds)
    matches = Match.objects.filter(round__in=rounds).select_related("round").order_by("round__number", "table")
    by_round: dict[int, list[Match]] = {}
    for m in matches:
        by_round.setdefault(m.round.number, []).append(m)
    for rnd in rounds:
        bracket.won.append({m.goes_through_id for m in by_round.get(rnd.number, []) if m.goes_through_id})
    if len(rounds) == bracket.size:
        losers = set(semifinal_losers(bracket.lines, bracket.won))
        final_round = by_round.get(rounds[-1].number, [])
        bracket.third = next((m for m in final_round if {m.pair_ns_id, m.pair_ew_id} == losers), None)
    return bracket


def current_lines(bracket: Bracket, index: int) -> list[Line]:
    """The lines of bracket round ``index`` (0: the first), from the winners before it."""
    lines = bracket.lines
    for r in range(index):
        lines = advance(lines, bracket.won[r] if r < len(bracket.won) else (), first=r == 0)
    return lines


def level_match(rnd: Round) -> Match | None:
    """The first finished match of a bracket round that ended level and is not decided yet."""
    return (
        rnd.matches.filter(state=Match.State.FINISHED, winner__isnull=True, tie_winner__isnull=True)
        .order_by("table")
        .first()
    )


def why_not_next(tournament: Tournament, number: int) -> str | None:
    """Why bracket round ``number`` cannot be paired yet, in one sentence; None when it can (or it is no
    bracket round). The round before it is published and finished (``why_not_pair`` asks that first)."""
    if not is_bracket_round(tournament, number):
        return None
    if number > tournament.bracket_start:
        if bracket_of(tournament) is None:  # settings changed under a paired round: the admin's raw edits
            return _("Round %(n)s is no bracket round: the knockout cannot follow it.") % {
                "n": tournament.bracket_start
            }
        previous = tournament.rounds.filter(number=number - 1).first()
        level = level_match(previous) if previous else None
        if level is not None:
            return _(
                "Table %(t)s of round %(n)s ended level: decide who goes through on the round's page."
            ) % {"t": level.table, "n": previous.number}
    elif len(entrants(tournament)) < 2:
        return _("At least two pairs are needed.")
    return None


def draw(tournament: Tournament, number: int) -> tuple[list[Game], list[int], list[Line] | None]:
    """Bracket round ``number``'s games (bracket order, the better seed North–South) and byes, and, for the
    first bracket round, its lines to store. The final round adds the third-place match when it is played."""
    if number == tournament.bracket_start:
        lines = seeded_lines(entrants(tournament))
        games, byes = pair_lines(lines, seed_numbers(lines))
        return games, byes, lines
    bracket = bracket_of(tournament)
    index = number - tournament.bracket_start
    lines = current_lines(bracket, index)
    games, byes = pair_lines(lines, bracket.seeds)
    if index == bracket.size - 1 and tournament.third_place_match:
        losers = semifinal_losers(bracket.lines, bracket.won)
        if len(losers) == 2:
            a, b = sorted(losers, key=lambda p: bracket.seeds[p])
            games.append((a, b))
    return games, byes, None


def swapped_lines(rnd: Round, a: int, b: int) -> list[Line] | None:
    """The first bracket round's lines with two pairs' places exchanged (a pair not in the bracket takes the
    other's place): the director's change of the seeding in the draft."""
    if not rnd.bracket:
        return None
    swap = {a: b, b: a}
    return [swap.get(p, p) if p is not None else None for p in rnd.bracket]


@transaction.atomic
def decide_tie(match: Match, pair_id: int, reason: str, user) -> Match:
    """The director's decision of a bracket match that ended level: ``pair_id`` goes through, for ``reason``.
    Refused once the next round is paired (its tables were drawn from the decision)."""
    lock_open(match.round.tournament_id)
    match = get_object_or_404(Match.objects.select_for_update().select_related("round__tournament"), pk=match.pk)
    tournament = match.round.tournament
    if not is_bracket_round(tournament, match.round.number):
        raise TieError(_("Only a knockout match that ended level is decided at the desk."))
    if match.state != Match.State.FINISHED or match.winner_id is not None:
        raise TieError(_("Only a knockout match that ended level is decided at the desk."))
    if pair_id not in (match.pair_ns_id, match.pair_ew_id):
        raise TieError(_("Choose one of the match's two pairs."), 400)
    reason = (reason or "").strip()
    if not reason:
        raise TieError(_("Say why this pair goes through."), 400)
    if tournament.rounds.filter(number=match.round.number + 1).exists():
        raise TieError(_("The next round is paired already: discard its draft first."))
    match.tie_winner = Pair.objects.get(pk=pair_id)
    match.tie_reason = reason[:200]
    match.tie_decided_by = user
    match.tie_decided_at = timezone.now()
    match._history_user = user
    match.save(update_fields=["tie_winner", "tie_reason", "tie_decided_by", "tie_decided_at"])
    return match
