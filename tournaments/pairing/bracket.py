"""The bracket as the pages and the workbook show it, and a knockout's final placings (1, 2, 3 or 3–4 shared,
5–8, 9–16 …; after a first stage, the pairs outside the bracket follow by its standings)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Generic, TypeVar

from django.utils.translation import gettext as _

from rules.knockout import Placing, Tie, bracket_rounds, placings
from tournaments.models import Match, Pair, Tournament
from tournaments.pairing.knockout import Bracket, bracket_of
from tournaments.standings.compute import compute_standings


def round_name(index: int, size: int) -> str:
    """A bracket round's name by how many rounds are left: the final, the semi-finals, the quarter-finals, the
    round of 16 …"""
    left = size - index
    if left == 1:
        return _("Final")
    if left == 2:
        return _("Semi-finals")
    if left == 3:
        return _("Quarter-finals")
    return _("Round of %(n)s") % {"n": 2**left}


def place_text(placing: Placing) -> str:
    return str(placing.place) if placing.last == placing.place else f"{placing.place}–{placing.last}"


def _third(bracket: Bracket):
    m = bracket.third
    return None if m is None or m.goes_through_id is None else (m.pair_ns_id, m.pair_ew_id, m.goes_through_id)


def final_placings(tournament: Tournament) -> list[tuple[str, Pair]]:
    """The places decided so far, best first: the bracket's, then (after a first stage) every pair outside the
    bracket by the stage's standings, placed after the bracket's field. Empty without a bracket."""
    bracket = bracket_of(tournament)
    if bracket is None:
        return []
    places = placings(
        bracket.lines, bracket.won, _third(bracket), third_place_match=tournament.third_place_match
    )
    pairs = Pair.objects.select_related("player1", "player2").in_bulk(places)
    seeds = bracket.seeds
    out = [
        (place_text(p), pairs[pk])
        for pk, p in sorted(places.items(), key=lambda item: (item[1].place, seeds.get(item[0], 0)))
    ]
    if tournament.format != Tournament.Format.KNOCKOUT and len(places) == len(seeds):
        field_size = len(seeds)
        rest = [
            x
            for x in compute_standings(tournament, up_to_round=tournament.num_rounds)
            if x.pair.pk not in seeds
        ]
        out += [(str(field_size + place), line.pair) for place, line in _shared(rest)]
    return out


def final_ranks(tournament: Tournament) -> list[tuple[Pair, int]]:
    """``final_placings`` as numbers, a shared place (3–4, 5–8) counting as its first: what a series' points
    table asks of a knockout. Empty without a bracket."""
    return [(pair, int(text.split("–")[0])) for text, pair in final_placings(tournament)]


def _shared(lines) -> list:
    """The lines numbered from 1, equal ranks sharing the place of the first of them (1, 2, 2, 4)."""
    out, place, previous = [], 0, None
    for i, line in enumerate(lines, start=1):
        if line.rank != previous:
            place, previous = i, line.rank
        out.append((place, line))
    return out


@dataclass
class Entry:
    """One line of a tie in the picture: the pair (None: a bye or not known yet), its seed, whether it went
    through or went out (shown only with the results)."""

    pair: Pair | None
    seed: int | None = None
    won: bool = False
    lost: bool = False
    level: str = ""


@dataclass
class TieBox:
    entries: list[Entry]
    match: Match | None = None
    bye: bool = False
    show_result: bool = False

    @property
    def decided(self) -> str:
        """Why a level match has a winner, as the picture notes it: the director's decision, or how the
        match ended (time with the bank, strikes, a forfeit)."""
        m = self.match
        if not self.show_result or m is None:
            return ""
        if not m.winner_id:
            if not m.tie_winner_id:
                return ""
            return _("Level: decided by the director (%(why)s).") % {"why": m.tie_reason}
        if m.state == Match.State.FINISHED and m.level_ns == m.level_ew:  # "10 : 10" and a winner: say why
            return _("Level: the match ended by %(how)s.") % {"how": m.get_ended_by_display()}
        return ""


B = TypeVar("B")  # a column's box: a pairs' tie here, a team tie in the league's playoffs


@dataclass
class Column(Generic[B]):
    title: str
    number: int
    ties: list[B] = field(default_factory=list)


def _level(match: Match | None, pair_id, show: bool) -> str:
    """The pair's final level in a finished match, when the results are shown."""
    if not show or match is None or match.state != Match.State.FINISHED:
        return ""
    return match.get_level_ns_display() if pair_id == match.pair_ns_id else match.get_level_ew_display()


def _box(tie: Tie, pairs: dict, seeds: dict, matches: dict, show: bool) -> TieBox:
    match = matches.get(frozenset((tie.a, tie.b)))
    entries = []
    for p in (tie.a, tie.b):
        decided = show and tie.winner is not None and p is not None and not tie.bye
        won, lost = decided and p == tie.winner, decided and p != tie.winner
        entries.append(Entry(pairs.get(p), seeds.get(p), won, lost, _level(match, p, show)))
    return TieBox(entries, match, tie.bye, show)


def bracket_picture(tournament: Tournament, rounds, *, show_results: bool) -> dict | None:
    """The bracket of the ``rounds`` the viewer may see: a column a round, the final last (rounds not paired yet
    are empty boxes), the third-place match and the placings; None until the first bracket round is seen.
    Without the results, no winner is marked and no pair is carried past the last round seen."""
    bracket, start = bracket_of(tournament, rounds), tournament.bracket_start
    if bracket is None or start is None:  # a bracket has a start: ``bracket_of`` found none without one
        return None
    won = bracket.won if show_results else bracket.won[: len(bracket.rounds) - 1]
    ties = bracket_rounds(bracket.lines, won)
    matches = {
        frozenset((m.pair_ns_id, m.pair_ew_id)): m
        for m in Match.objects.filter(round__in=bracket.rounds).select_related("winner", "tie_winner")
    }
    pairs = Pair.objects.in_bulk([p for p in bracket.lines if p is not None])
    seeds = bracket.seeds
    columns = [
        Column(
            round_name(r, bracket.size),
            start + r,
            [_box(t, pairs, seeds, matches, show_results) for t in column],
        )
        for r, column in enumerate(ties)
    ]
    third = None
    if bracket.third is not None:
        m = bracket.third
        a, b = m.pair_ns_id, m.pair_ew_id
        third = _box(
            Tie(a, b, m.goes_through_id if show_results else None), pairs, seeds, matches, show_results
        )
    return {
        "columns": columns,
        "third": third,
        "placings": final_placings(tournament) if show_results else [],
    }
