"""Pairing rounds: round robin, Swiss and manual drafts; the TD's edits; publishing.

The draw itself is ``rules.pairing`` (plain ids in, games out); these services read what it needs from the
database and write the round, each in one transaction, and each first asks ``finishing.lock_open``: a finished
tournament's rounds are final. A draft round is changed by deleting its matches and
creating them again (``Match.save`` keeps one ``Seating`` per pair and round, so moving pairs between existing
matches one by one would collide with that constraint).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from django.db import transaction
from django.db.models import Q
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from rules.pairing import (
    REPEAT,
    SAME_CLUB,
    GaveWay,
    SwissRound,
    circle_schedule,
    round_robin_round,
    seed_order_draft,
    swiss_round,
)
from tournaments.competition.finishing import lock_open, refusal
from tournaments.duplicate.movement import DuplicateError, mitchell_games
from tournaments.models import Bye, Match, Pair, Round, Seating, TableLink, Tournament, by_seed
from tournaments.pairing import knockout
from tournaments.standings.compute import compute_standings


class PairingError(Exception):
    """A round that cannot be paired or changed; the message is for the TD."""


def active_pairs(tournament: Tournament) -> list[Pair]:
    """Pairs still playing, in seed order."""
    return by_seed(tournament.pairs.filter(withdrawn=False))


def played_before(tournament: Tournament, before: int) -> set[frozenset]:
    rows = (
        Match.objects.of(tournament).filter(round__number__lt=before).values_list("pair_ns_id", "pair_ew_id")
    )
    return {frozenset(r) for r in rows}


def seat_balance(tournament: Tournament) -> Counter:
    """North–South sittings minus East–West sittings per pair id, over the event so far."""
    out: Counter = Counter()
    for pair_id, side in Seating.objects.of(tournament).values_list("pair_id", "side"):
        out[pair_id] += 1 if side == "NS" else -1
    return out


def why_not_pair(tournament: Tournament, number: int | None = None) -> str | None:
    """Why round ``number`` (default: the next one) cannot be paired now, in words; None when it can. The desk
    offers the next round only when this says nothing, and shows its reason instead."""
    if tournament.is_finished:
        return refusal()
    last = tournament.rounds.order_by("-number").first()
    expected = (last.number + 1) if last else 1
    number = expected if number is None else number
    if number != expected:
        return _("The next round to pair is round %(n)s.") % {"n": expected}
    if number > tournament.rounds_planned:
        return _("This tournament has %(n)s rounds.") % {"n": tournament.rounds_planned}
    if last and last.state == Round.State.DRAFT:
        return _("Publish round %(n)s before pairing the next one.") % {"n": last.number}
    # A Swiss round and a bracket round are drawn from the results before them.
    from_results = tournament.format == Tournament.Format.SWISS or knockout.is_bracket_round(
        tournament, number
    )
    if last and from_results and last.matches.exclude(state=Match.State.FINISHED).exists():
        return _("Round %(n)s still has unfinished matches.") % {"n": last.number}
    return knockout.why_not_next(tournament, number)


def _check_can_pair(tournament: Tournament, number: int) -> None:
    reason = why_not_pair(tournament, number)
    if reason is not None:
        raise PairingError(reason)


def _swiss_games(
    tournament: Tournament, number: int, sitting_out: frozenset[int] = frozenset()
) -> SwissRound:

    active = {p.pk: p for p in active_pairs(tournament) if p.pk not in sitting_out}
    if len(active) < 2:
        raise PairingError(_("At least two pairs are needed."))
    points: dict[int, int] = {}
    if number == 1:
        ranked = list(active)
    else:
        lines = [line for line in compute_standings(tournament) if line.pair.pk in active]
        ranked = [line.pair.pk for line in lines]
        points = {line.pair.pk: line.match_points for line in lines}
    return swiss_round(
        ranked,
        first_round=number == 1,
        played=played_before(tournament, number),
        clubs={pk: p.club for pk, p in active.items()},
        avoid_same_club=tournament.avoid_same_club,
        had_bye=set(Bye.objects.of(tournament).values_list("pair_id", flat=True)),
        ns_minus_ew=seat_balance(tournament),
        points=points,
    )


def gave_way_notes(gave_way: Sequence[GaveWay]) -> list[str]:
    """What the draw could not keep, one sentence per table, for the TD."""
    if not gave_way:
        return []
    names = dict(Pair.objects.filter(pk__in={p for g in gave_way for p in g.pairs}).values_list("pk", "name"))
    sentences = {
        REPEAT: _(
            "Table %(table)s: %(a)s and %(b)s meet again: no pairing of this round avoids every repeat."
        ),
        SAME_CLUB: _(
            "Table %(table)s: %(a)s and %(b)s are from one club: "
            "no pairing of this round keeps clubs apart without a repeat."
        ),
    }
    return [
        sentences[g.constraint] % {"table": g.table, "a": names.get(g.pairs[0]), "b": names.get(g.pairs[1])}
        for g in gave_way
    ]


def round_robin_roster(tournament: Tournament) -> list[int]:
    """The pairs of the round robin: those of round 1 once it exists (so withdrawals keep the schedule)."""
    first = tournament.rounds.filter(number=1).first()
    if first is None:
        return [p.pk for p in active_pairs(tournament)]
    seated = set(Seating.objects.filter(round=first).values_list("pair_id", flat=True))
    seated |= set(first.byes.values_list("pair_id", flat=True))
    return [p.pk for p in by_seed(Pair.objects.filter(pk__in=seated))]


def _round_robin_games(
    tournament: Tournament, number: int, sitting_out: frozenset[int] = frozenset()
) -> tuple[list[tuple[int, int]], list[int]]:
    roster = round_robin_roster(tournament)
    schedule = circle_schedule(roster)
    if len(roster) < 2:
        raise PairingError(_("At least two pairs are needed."))
    if number > len(schedule):
        raise PairingError(_("The round robin has only %(n)s rounds.") % {"n": len(schedule)})
    withdrawn = set(Pair.objects.filter(pk__in=roster, withdrawn=True).values_list("pk", flat=True))
    return round_robin_round(schedule[number - 1], withdrawn | sitting_out)


def _manual_games(
    tournament: Tournament, sitting_out: frozenset[int] = frozenset()
) -> tuple[list[tuple[int, int]], list[int]]:
    return seed_order_draft([p.pk for p in active_pairs(tournament) if p.pk not in sitting_out])


def _movement_games(tournament: Tournament, number: int) -> list[tuple[int, int]]:
    """A duplicate's round: the movement's seats, whoever checked in (the boards are at every table)."""
    try:
        return mitchell_games(tournament, number)
    except DuplicateError as exc:
        raise PairingError(exc.message) from None


def _write_round(
    rnd: Round, games: Iterable[tuple[int, int] | tuple[int, int, int | None]], byes: Iterable[int]
) -> None:
    for table, game in enumerate(games, start=1):
        ns, ew, *rest = game
        Match.objects.create(
            round=rnd, table=table, pair_ns_id=ns, pair_ew_id=ew, judge_id=rest[0] if rest else None
        )
    for pair_id in byes:
        Bye.objects.create(round=rnd, pair_id=pair_id, points=rnd.tournament.bye_points)


@transaction.atomic
def pair_round(
    tournament: Tournament, number: int | None = None, *, sitting_out: frozenset[int] = frozenset()
) -> Round:
    """Create round ``number`` (default: the next one) as a draft, paired by the tournament's format. A Swiss
    draw that had to repeat a meeting or seat one club at a table says so in ``gave_way_notes``. The pairs
    ``sitting_out`` (absent at check-in) are left out of this round only (a knockout's bracket ignores it)."""
    tournament = lock_open(tournament.pk)
    if number is None:
        last = tournament.rounds.order_by("-number").first()
        number = (last.number + 1) if last else 1
    _check_can_pair(tournament, number)
    gave_way: list[GaveWay] = []
    bracket = None
    if knockout.is_bracket_round(tournament, number):
        games, byes, bracket = knockout.draw(tournament, number)
    elif tournament.format == Tournament.Format.ROUND_ROBIN:
        games, byes = _round_robin_games(tournament, number, sitting_out)
    elif tournament.format == Tournament.Format.DUPLICATE:
        games, byes = _movement_games(tournament, number), []
    elif tournament.format == Tournament.Format.SWISS:
        draw = _swiss_games(tournament, number, sitting_out)
        games, byes, gave_way = draw.games, [] if draw.bye is None else [draw.bye], draw.gave_way
    else:
        games, byes = _manual_games(tournament, sitting_out)
    rnd = Round.objects.create(tournament=tournament, number=number, state=Round.State.DRAFT, bracket=bracket)
    _write_round(rnd, games, byes)
    rnd.gave_way_notes = gave_way_notes(gave_way)  # not stored: said once, when the draft is made
    return rnd


def _draft(rnd: Round) -> None:
    if rnd.state != Round.State.DRAFT:
        raise PairingError(_("Only a draft round can be changed."))


@transaction.atomic
def set_round_matches(
    rnd: Round, games: Sequence[tuple[int, int, int | None]], byes: Iterable[int] = (), *, swap=None
) -> None:
    """Replace a draft round's matches (table = position + 1) and byes; every pair at most once. A bracket
    round changes only by a swap (``swap``: the two pairs), which moves them in the bracket too."""
    lock_open(rnd.tournament_id)
    rnd = get_object_or_404(Round.objects.select_for_update().select_related("tournament"), pk=rnd.pk)
    _draft(rnd)
    if knockout.is_bracket_round(rnd.tournament, rnd.number):
        if swap is None:
            raise PairingError(_("A bracket round is changed by swapping two pairs only."))
        if not rnd.bracket:
            raise PairingError(_("A later bracket round follows from the results and cannot be changed."))
        rnd.bracket = knockout.swapped_lines(rnd, *swap)
        rnd.save(update_fields=["bracket"])
    byes = list(byes)
    seen = Counter([p for g in games for p in g[:2]] + byes)
    twice = [pk for pk, n in seen.items() if n > 1]
    if twice:
        names = ", ".join(Pair.objects.filter(pk__in=twice).values_list("name", flat=True))
        raise PairingError(_("A pair is placed twice: %(names)s") % {"names": names})
    valid = set(rnd.tournament.pairs.filter(withdrawn=False).values_list("pk", flat=True))
    if set(seen) - valid:
        raise PairingError(_("Only pairs of this tournament that have not withdrawn can be placed."))
    rnd.matches.all().delete()
    rnd.byes.all().delete()
    _write_round(rnd, games, byes)


def round_games(rnd: Round) -> list[tuple[int, int, int | None]]:
    return list(rnd.matches.order_by("table").values_list("pair_ns_id", "pair_ew_id", "judge_id"))


def swap_pairs(rnd: Round, a: int, b: int) -> None:
    """Exchange two pairs' places in a draft round (seats, tables or a bye)."""
    with transaction.atomic():
        games = [list(g) for g in round_games(rnd)]
        byes = list(rnd.byes.values_list("pair_id", flat=True))
        swap = {a: b, b: a}
        games = [(swap.get(ns, ns), swap.get(ew, ew), judge) for ns, ew, judge in games]
        byes = [swap.get(p, p) for p in byes]
        set_round_matches(rnd, games, byes, swap=(a, b))


@transaction.atomic
def publish_pairing(rnd: Round) -> None:
    """The draft's pairing made public. The desk publishes with ``checkin.forfeits.publish_round``, which also
    records the forfeits of the pairs absent at check-in; the knockout's own rounds have none."""
    lock_open(rnd.tournament_id)
    rnd = get_object_or_404(
        Round.objects.select_for_update(), pk=rnd.pk
    )  # a draft edited or discarded meanwhile
    _draft(rnd)
    if not rnd.matches.exists() and not rnd.byes.exists():
        raise PairingError(_("An empty round cannot be published."))
    rnd.state = Round.State.PUBLISHED
    rnd.save(update_fields=["state"])


def why_not_unpublish(rnd: Round) -> str | None:
    """Why a published round cannot go back to draft, in words; None when it can: it is the last round and no
    table has begun (no deal, no forfeit, no time called), so hiding its pairing loses nothing."""
    if rnd.tournament.is_finished:
        return refusal()
    if rnd.state == Round.State.DRAFT:
        return _("Round %(n)s is a draft already.") % {"n": rnd.number}
    if rnd.tournament.rounds.filter(number__gt=rnd.number).exists():
        return _("Only the last round can go back to draft.")
    begun = Q(deals__isnull=False) | Q(time_called_at__isnull=False) | ~Q(state=Match.State.SCHEDULED)
    begun = rnd.matches.filter(begun).order_by("table").first()
    if begun is not None:
        return _("Table %(t)s has begun: round %(n)s stays published.") % {"t": begun.table, "n": rnd.number}
    return None


@transaction.atomic
def unpublish_round(rnd: Round) -> None:
    """A round published by mistake goes back to draft: the judges and the public no longer see it, its table
    links stop for good, and the TD edits it and publishes it again (with new cards)."""
    lock_open(rnd.tournament_id)
    rnd = get_object_or_404(Round.objects.select_for_update().select_related("tournament"), pk=rnd.pk)
    list(rnd.matches.select_for_update())  # a table beginning now waits, and is then seen (or finds a draft)
    reason = why_not_unpublish(rnd)
    if reason is not None:
        raise PairingError(reason)
    rnd.state = Round.State.DRAFT
    rnd.save(update_fields=["state"])
    TableLink.objects.filter(match__round=rnd).revoke()  # its cards are void: publishing again takes new ones


@transaction.atomic
def set_bye_points(bye: Bye, points: int, by=None) -> Bye:
    """One bye worth other points than the tournament's (the TD's ruling: a half bye, say); the standings count
    it and its history keeps who changed it and when. A draft's byes are made again at each edit, with the
    tournament's points, so only a published round's are changed."""
    lock_open(bye.round.tournament_id)
    bye = get_object_or_404(Bye.objects.select_for_update().select_related("round"), pk=bye.pk)
    if bye.round.state == Round.State.DRAFT:
        raise PairingError(_("Publish the round first: a draft's byes get the tournament's bye points."))
    if bye.points != points:
        bye.points = points
        bye._history_user = by
        bye.save(update_fields=["points"])
    return bye


@transaction.atomic
def delete_draft_round(rnd: Round) -> None:
    lock_open(rnd.tournament_id)
    rnd = get_object_or_404(
        Round.objects.select_for_update(), pk=rnd.pk
    )  # published meanwhile: not discarded
    _draft(rnd)
    rnd.delete()
