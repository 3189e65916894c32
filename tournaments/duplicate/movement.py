"""The movement in the database: which pairs sit where and which boards each table plays, round by round.

The engine's ``rules.movement.mitchell`` is the only source: a round's matches are made from it
(``mitchell_games``) and a match's boards are read from it again (``boards_of``), so the two cannot disagree.
NS pair ``k`` is the ``k``-th pair of the roster, EW pair ``k`` the ``(t + k)``-th; the roster is the pairs
seated in round 1 once it exists (a later withdrawal does not move anyone), else the active pairs in seed order.
"""

from __future__ import annotations

from functools import cache

from django.utils.translation import gettext as _

from rules.movement import MovementError, Seating, board_set, mitchell, mitchell_rounds, pairs_for_tables
from tournaments.models import Board, Deal, DuplicateEvent, Match, Pair, Round, Tournament, by_seed


class DuplicateError(Exception):
    """A duplicate action refused; ``message`` is for the director (translated), ``status`` the HTTP code."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


DUPLICATE_FORMATS = (Tournament.Format.DUPLICATE, Tournament.Format.DUPLICATE_TEAMS)


def duplicate_event(tournament: Tournament) -> DuplicateEvent | None:
    """The tournament's duplicate settings (pairs or teams); None for any other format."""
    if tournament.format not in DUPLICATE_FORMATS:
        return None
    return DuplicateEvent.objects.filter(tournament=tournament).first()


def is_duplicate_match(match: Match) -> bool:
    """The match is one table's round of a duplicate session (its deals are boards)."""
    return match.round.tournament.format in DUPLICATE_FORMATS


def roster(tournament: Tournament) -> list[Pair]:
    """The movement's pairs in order: NS 1 … t, then EW 1 … t (see the module's docstring)."""
    first = tournament.rounds.filter(number=1).first()
    if first is None:
        return by_seed(tournament.pairs.filter(withdrawn=False))
    matches = list(first.matches.select_related("pair_ns", "pair_ew").order_by("table"))
    return [m.pair_ns for m in matches] + [m.pair_ew for m in matches]  # round 1: NS k and EW k at table k


def roster_size(tournament: Tournament) -> int:
    """How many pairs the movement seats (``roster``'s length, counted without reading the pairs)."""
    first = tournament.rounds.filter(number=1).first()
    if first is None:
        return tournament.pairs.filter(withdrawn=False).count()
    return 2 * first.matches.count()


def tables_for(tournament: Tournament) -> int:
    """Tables of the movement: half the roster; refused for an odd field or fewer than 4 pairs."""
    try:
        return pairs_for_tables(roster_size(tournament))
    except MovementError:
        raise DuplicateError(_("A Mitchell needs an even number of pairs, at least four.")) from None


def seatings(tournament: Tournament, event: DuplicateEvent) -> tuple[tuple[Seating, ...], ...]:
    """Every round's seatings of the session (the engine's Mitchell for this field and boards a round)."""
    return movement_of(tables_for(tournament), event.boards_per_round)


@cache
def movement_of(tables: int, boards_per_round: int) -> tuple[tuple[Seating, ...], ...]:
    """The engine's Mitchell, built once per size (it is pure and frozen)."""
    return mitchell(tables, boards_per_round)


def full_rounds(tournament: Tournament) -> int:
    """Rounds of the whole Mitchell for the field (``t`` odd, ``t − 1`` even)."""
    return mitchell_rounds(tables_for(tournament))


def board_count(tournament: Tournament, event: DuplicateEvent) -> int:
    """Boards the session needs: a set of ``boards_per_round`` for every table (duplicate teams: a set for every
    round, which every team match of the round plays)."""
    if tournament.format == Tournament.Format.DUPLICATE_TEAMS:
        return max(1, tournament.num_rounds) * event.boards_per_round
    return tables_for(tournament) * event.boards_per_round


def mitchell_games(tournament: Tournament, number: int) -> list[tuple[int, int]]:
    """Round ``number``'s (NS pair id, EW pair id) table by table, from the engine's movement."""
    event = duplicate_event(tournament)
    if event is None:
        raise DuplicateError(_("This tournament is not a duplicate."))
    pairs = roster(tournament)
    rounds = seatings(tournament, event)
    if not 1 <= number <= len(rounds):
        raise DuplicateError(_("The Mitchell for this field has %(n)s rounds.") % {"n": len(rounds)})
    t = len(pairs) // 2
    return [(pairs[s.ns - 1].pk, pairs[t + s.ew - 1].pk) for s in rounds[number - 1]]


def seating_of(match: Match) -> Seating:
    """The movement's seating of this table in this round."""
    tournament = match.round.tournament
    event = duplicate_event(tournament)
    if event is None:
        raise DuplicateError(_("This tournament is not a duplicate."))
    rounds = seatings(tournament, event)
    if not 1 <= match.round.number <= len(rounds) or not 1 <= match.table <= len(rounds[0]):
        raise DuplicateError(_("This table is not in the movement."))
    return rounds[match.round.number - 1][match.table - 1]


def is_team_duplicate(match: Match) -> bool:
    """The match is a table of a duplicate team match (RULES §14.5)."""
    return match.round.tournament.format == Tournament.Format.DUPLICATE_TEAMS


def team_boards(match: Match) -> tuple[int, ...]:
    """A duplicate team match's boards: both its tables, and every team match of the round, play the round's set
    (round ``r``: boards ``(r − 1)·b + 1`` … ``r·b``)."""
    event = duplicate_event(match.round.tournament)
    if event is None:
        raise DuplicateError(_("This tournament is not a duplicate."))
    return board_set(match.round.number, event.boards_per_round)


def boards_of(match: Match) -> list[Board]:
    """The boards this table plays in this round, in the order played (kept on the match object: a request
    asks several times, and a table's boards never change once it can play)."""
    known = getattr(match, "_movement_boards", None)
    if known is not None:
        return known
    numbers = team_boards(match) if is_team_duplicate(match) else seating_of(match).boards
    found = {
        b.number: b for b in Board.objects.filter(tournament_id=match.round.tournament_id, number__in=numbers)
    }
    if len(found) != len(numbers):
        raise DuplicateError(_("The boards are not dealt yet."), status=409)
    match._movement_boards = [found[n] for n in numbers]  # type: ignore[attr-defined]
    return match._movement_boards  # type: ignore[attr-defined]


def next_board(match: Match) -> Board | None:
    """The first board of this table's round with no deal and no artificial score yet (None: all done)."""
    done = set(Deal.objects.filter(match=match, board__isnull=False).values_list("board_id", flat=True))
    done |= set(match.artificial_scores.values_list("board_id", flat=True))
    return next((b for b in boards_of(match) if b.pk not in done), None)


def round_boards(rnd: Round) -> dict[int, tuple[int, ...]]:
    """By match id, the board numbers each table of the round plays (empty for a table off the movement)."""
    event = duplicate_event(rnd.tournament)
    if event is None:
        return {}
    try:
        rounds = seatings(rnd.tournament, event)
    except (DuplicateError, MovementError):
        return {}
    row = rounds[rnd.number - 1] if 1 <= rnd.number <= len(rounds) else ()
    by_table = {s.table: s.boards for s in row}
    return {m.pk: by_table.get(m.table, ()) for m in rnd.matches.all()}
