"""What of a board may be shown, and to whom (RULES §14; issue 40 item 5): the one place every reader asks.

No result of a board — a deal's outcome, a traveller line, matchpoints, a standing built from them — is shown
before every table due to play the board has played it (an official, confirmed deal there) or the director has
scored it there (an ``ArtificialScore``); until then only the director sees it. The seed stays secret until the
session is over: every board complete, or the tournament finished. Pages, the API, the projector and the
workbook all read ``visible_board_ids`` / ``shown_deals`` / ``published_seed``; nothing else decides it.

Duplicate teams (RULES §14.5) keep the same rule: every team match of round ``r`` plays the round's set of
boards at both its tables, so a board of the set is due at both tables of every team match of the round (the
hall's table numbers, ``teams.services.hall_table``), seated or not yet; a board of a round not yet paired is
due nowhere yet and stays hidden. A team match's board result and its scale points are therefore hidden until
the other table of the match — and every other table playing the board — has played it.
"""

from __future__ import annotations

from django.db.models import Q, QuerySet

from rules.movement import MovementError, board_set
from tournaments.competition import access
from tournaments.duplicate.movement import DUPLICATE_FORMATS, DuplicateError, duplicate_event, seatings
from tournaments.duplicate.settings import TEAM_TABLES
from tournaments.models import ArtificialScore, Board, Deal, TeamMatch, Tournament


def session_rounds(tournament: Tournament, full: int) -> int:
    """Rounds the session plays: the tournament's rounds, at most the whole Mitchell's."""
    return max(1, min(tournament.num_rounds, full))


def due_tables(tournament: Tournament) -> dict[int, set[tuple[int, int]]]:
    """By board number, the (round, table) places that must play it in the session (empty: no movement)."""
    event = duplicate_event(tournament)
    if event is None:
        return {}
    if tournament.format == Tournament.Format.DUPLICATE_TEAMS:
        return team_due_tables(tournament, event.boards_per_round)
    try:
        rounds = seatings(tournament, event)
    except (DuplicateError, MovementError):
        return {}
    due: dict[int, set[tuple[int, int]]] = {}
    for row in rounds[: session_rounds(tournament, len(rounds))]:
        for seat in row:
            for number in seat.boards:
                due.setdefault(number, set()).add((seat.round, seat.table))
    return due


def team_due_tables(tournament: Tournament, boards_per_round: int) -> dict[int, set[tuple[int, int]]]:
    """Duplicate teams: by board number, both tables of every team match of the board's round."""
    due: dict[int, set[tuple[int, int]]] = {}
    fixtures = TeamMatch.objects.filter(round__tournament=tournament).values_list("round__number", "number")
    for rnd, number in fixtures:
        places = {(rnd, (number - 1) * TEAM_TABLES + i) for i in range(1, TEAM_TABLES + 1)}
        for board in board_set(rnd, boards_per_round):
            due.setdefault(board, set()).update(places)
    return due


def played_places(tournament: Tournament) -> set[tuple[int, int, int]]:
    """(round, table, board number) of every official deal of a board and every artificial score."""
    deals = Deal.objects.of(tournament).filter(board__isnull=False, state=Deal.State.CONFIRMED)
    done = set(deals.values_list("match__round__number", "match__table", "board__number"))
    scored = ArtificialScore.objects.of(tournament)
    done |= set(scored.values_list("match__round__number", "match__table", "board__number"))
    return done


def complete_board_ids(tournament: Tournament) -> set[int]:
    """The ids of the boards every table due to play them has played or had scored by the director."""
    due = due_tables(tournament)
    done = played_places(tournament)
    numbers = {n for n, places in due.items() if places and all((r, t, n) in done for r, t in places)}
    return set(Board.objects.of(tournament).filter(number__in=numbers).values_list("pk", flat=True))


def visible_board_ids(tournament: Tournament, user=None) -> set[int]:
    """The boards whose results ``user`` may see: every board for the tournament's director, else the complete
    ones (``user`` None: the public)."""
    if user is not None and access.directs(user, tournament):
        return set(Board.objects.of(tournament).values_list("pk", flat=True))
    return complete_board_ids(tournament)


def shown_deals(deals: QuerySet[Deal], tournament: Tournament, user=None) -> QuerySet[Deal]:
    """``deals`` without those of a board ``user`` may not see yet (deals dealt at the table all stay)."""
    if tournament.format not in DUPLICATE_FORMATS:
        return deals
    return deals.filter(Q(board__isnull=True) | Q(board_id__in=visible_board_ids(tournament, user)))


def session_over(tournament: Tournament) -> bool:
    """Every board of the session is complete, or the director finished the tournament."""
    if tournament.is_finished:
        return True
    total = Board.objects.of(tournament).count()
    return total > 0 and len(complete_board_ids(tournament)) == total


def published_seed(tournament: Tournament) -> str | None:
    """The seed the boards were dealt from, once the session is over; None before (or for imported boards that
    came without one)."""
    event = duplicate_event(tournament)
    if event is None or not event.seed or not session_over(tournament):
        return None
    return event.seed
