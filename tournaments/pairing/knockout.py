"""The knockout on the database: who enters the bracket, the bracket so far and the next bracket round's games.

The bracket is ``rules.knockout``'s: the first bracket round stores its lines (``Round.bracket``), every later
round follows from them and the results. A match that ends level (time called on equal levels with the ruleset's
draw, both sides out on strikes) cannot stand in a knockout: the director decides who goes through, with a
reason (``tournaments.pairing.ties``), and until then the next bracket round cannot be paired (``why_not_next``).
The first bracket round is paired by the desk's button, its draft the director's review of the seeding; every
later one pairs and publishes itself once the round before it is decided (``tournaments.pairing.advance``),
whether by the last table's result or by the director's decision.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from rules.knockout import Game, Line, advance, pair_lines, seed_numbers, seeded_lines, semifinal_losers
from tournaments.models import Match, Round, Tournament, by_seed
from tournaments.standings.compute import compute_standings


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
    matches = (
        Match.objects.filter(round__in=rounds).select_related("round").order_by("round__number", "table")
    )
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
    start = tournament.bracket_start
    if start is None or not is_bracket_round(tournament, number):
        return None
    if number > start:
        if bracket_of(tournament) is None:  # settings changed under a paired round: the admin's raw edits
            return _("Round %(n)s is no bracket round: the knockout cannot follow it.") % {"n": start}
        previous = tournament.rounds.filter(number=number - 1).first()
        level = level_match(previous) if previous else None
        if previous is not None and level is not None:
            return _(
                "Table %(t)s of round %(n)s ended level: decide who goes through on the round's page."
            ) % {"t": level.table, "n": previous.number}
    elif len(entrants(tournament)) < 2:
        return _("At least two pairs are needed.")
    return None


def draw(tournament: Tournament, number: int) -> tuple[list[Game], list[int], list[Line] | None]:
    """Bracket round ``number``'s games (bracket order, the better seed North–South) and byes, and, for the
    first bracket round, its lines to store. The final round adds the third-place match when it is played."""
    start = tournament.bracket_start
    if number == start:
        lines = seeded_lines(entrants(tournament))
        games, byes = pair_lines(lines, seed_numbers(lines))
        return games, byes, lines
    bracket = bracket_of(tournament)
    if start is None or bracket is None:  # never: ``why_not_next`` refuses the round first
        raise LookupError(f"round {number} of {tournament.slug} follows no bracket")
    index = number - start
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
