"""Pairing rounds: round robin (circle method), Swiss and manual; the TD's edits; publishing; withdrawals.

The pure functions (``circle_schedule``, ``swiss_pairs``, ``balance_seats``) work on plain ids so they are easy
to test; the services below them read and write the database, each in one transaction. A draft round is
changed by deleting its matches and creating them again (``Match.save`` keeps one ``Seating`` per pair and
round, so moving pairs between existing matches one by one would collide with that constraint).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.models import Bye, Match, Pair, Round, Seating, Tournament


class PairingError(Exception):
    """A round that cannot be paired or changed; the message is for the TD."""


# --- pure pairing maths ------------------------------------------------------------------------------------


def circle_schedule(ids: Sequence[Hashable]) -> list[list[tuple[Hashable, Hashable | None]]]:
    """A full round robin by the circle method: ``len(ids) - 1`` rounds (``len(ids)`` when odd).

    Each round is a list of ``(north_south, east_west)``; ``east_west`` None is a bye. The team at an odd position
    of the circle sits North–South, so everyone alternates seats from round to round and, over the whole event,
    sits North–South and East–West equally often (within one).
    """
    teams: list[Hashable | None] = list(ids)
    if len(teams) < 2:
        return []
    if len(teams) % 2:
        teams.append(None)
    n = len(teams)
    fixed, rot, m = teams[-1], teams[:-1], n - 1
    rounds = []
    for r in range(m):
        cur = rot[r:] + rot[:r]
        games = [(cur[0], fixed) if r % 2 == 0 else (fixed, cur[0])]
        for i in range(1, n // 2):
            a, b = cur[i], cur[m - i]
            games.append((a, b) if i % 2 else (b, a))
        out = []
        for a, b in games:
            if a is None or b is None:
                out.append((a if b is None else b, None))
            else:
                out.append((a, b))
        # Byes last, so table numbers run without gaps.
        out.sort(key=lambda g: g[1] is None)
        rounds.append(out)
    return rounds


class _Budget(Exception):
    pass


def swiss_pairs(
    order: Sequence[Hashable],
    played: Iterable[frozenset] = (),
    clubs: Mapping[Hashable, str] | None = None,
    *,
    avoid_same_club: bool = False,
    budget: int = 200_000,
) -> list[tuple[Hashable, Hashable]]:
    """Pair an even list ranked best first: neighbours meet, never again while avoidable.

    Tries, in turn: no rematch and (when asked) no two pairs of one club; no rematch; anything (neighbours).
    Backtracking is bounded by ``budget`` steps per attempt.
    """
    if len(order) % 2:
        raise ValueError("swiss_pairs needs an even number of pairs")
    met = set(played)
    clubs = clubs or {}

    def same_club(a, b) -> bool:
        ca, cb = clubs.get(a, ""), clubs.get(b, "")
        return bool(ca) and ca == cb

    attempts = []
    if avoid_same_club:
        attempts.append(lambda a, b: frozenset((a, b)) not in met and not same_club(a, b))
    attempts.append(lambda a, b: frozenset((a, b)) not in met)
    for allowed in attempts:
        steps = [0]

        def solve(rest: list, allowed=allowed, steps=steps):
            if not rest:
                return []
            a = rest[0]
            for j in range(1, len(rest)):
                steps[0] += 1
                if steps[0] > budget:
                    raise _Budget
                b = rest[j]
                if allowed(a, b):
                    tail = solve(rest[1:j] + rest[j + 1 :])
                    if tail is not None:
                        return [(a, b), *tail]
            return None

        try:
            found = solve(list(order))
        except (_Budget, RecursionError):
            found = None
        if found is not None:
            return found
    return [(order[i], order[i + 1]) for i in range(0, len(order), 2)]


def balance_seats(
    games: Iterable[tuple[Hashable, Hashable]], ns_minus_ew: Mapping[Hashable, int]
) -> list[tuple[Hashable, Hashable]]:
    """Orient each game: North–South to the pair that sat East–West more often (the first one on a tie)."""
    out = []
    for a, b in games:
        if ns_minus_ew.get(a, 0) > ns_minus_ew.get(b, 0):
            a, b = b, a
        out.append((a, b))
    return out


def first_round_order(ranked: Sequence[Hashable]) -> list[Hashable]:
    """Round 1 of a Swiss: top half against bottom half (1 v n/2+1, 2 v n/2+2 …), as neighbours."""
    half = len(ranked) // 2
    out: list[Hashable] = []
    for top, bottom in zip(ranked[:half], ranked[half:], strict=True):
        out += [top, bottom]
    return out


# --- services ----------------------------------------------------------------------------------------------


def active_pairs(tournament: Tournament) -> list[Pair]:
    """Pairs still playing, by seed (unseeded last) then name."""
    pairs = tournament.pairs.filter(withdrawn=False)
    return sorted(pairs, key=lambda p: (p.seed is None, p.seed or 0, p.name, p.pk))


def played_before(tournament: Tournament, before: int) -> set[frozenset]:
    rows = Match.objects.filter(round__tournament=tournament, round__number__lt=before).values_list(
        "pair_ns_id", "pair_ew_id"
    )
    return {frozenset(r) for r in rows}


def seat_balance(tournament: Tournament) -> Counter:
    """North–South sittings minus East–West sittings per pair id, over the event so far."""
    out: Counter = Counter()
    for pair_id, side in Seating.objects.filter(round__tournament=tournament).values_list("pair_id", "side"):
        out[pair_id] += 1 if side == "NS" else -1
    return out


def _check_can_pair(tournament: Tournament, number: int) -> None:
    last = tournament.rounds.order_by("-number").first()
    expected = (last.number + 1) if last else 1
    if number != expected:
        raise PairingError(_("The next round to pair is round %(n)s.") % {"n": expected})
    if number > tournament.num_rounds:
        raise PairingError(_("This tournament has %(n)s rounds.") % {"n": tournament.num_rounds})
    if last and last.state == Round.State.DRAFT:
        raise PairingError(_("Publish round %(n)s before pairing the next one.") % {"n": last.number})
    if (
        last
        and tournament.format == Tournament.Format.SWISS
        and last.matches.exclude(state=Match.State.FINISHED).exists()
    ):
        raise PairingError(_("Round %(n)s still has unfinished matches.") % {"n": last.number})


def _swiss_games(tournament: Tournament, number: int) -> tuple[list[tuple[int, int]], int | None]:
    from tournaments.standings import compute_standings

    active = {p.pk: p for p in active_pairs(tournament)}
    if len(active) < 2:
        raise PairingError(_("At least two pairs are needed."))
    if number == 1:
        ranked = list(active)
    else:
        ranked = [line.pair.pk for line in compute_standings(tournament) if line.pair.pk in active]
    bye = None
    if len(ranked) % 2:
        had_bye = set(Bye.objects.filter(round__tournament=tournament).values_list("pair_id", flat=True))
        bye = next((p for p in reversed(ranked) if p not in had_bye), ranked[-1])
        ranked.remove(bye)
    order = first_round_order(ranked) if number == 1 else ranked
    games = swiss_pairs(
        order,
        played_before(tournament, number),
        {pk: p.club for pk, p in active.items()},
        avoid_same_club=tournament.avoid_same_club,
    )
    return balance_seats(games, seat_balance(tournament)), bye


def round_robin_roster(tournament: Tournament) -> list[int]:
    """The pairs of the round robin: those of round 1 once it exists (so withdrawals keep the schedule)."""
    first = tournament.rounds.filter(number=1).first()
    if first is None:
        return [p.pk for p in active_pairs(tournament)]
    seated = set(Seating.objects.filter(round=first).values_list("pair_id", flat=True))
    seated |= set(first.byes.values_list("pair_id", flat=True))
    pairs = Pair.objects.filter(pk__in=seated)
    return [p.pk for p in sorted(pairs, key=lambda p: (p.seed is None, p.seed or 0, p.name, p.pk))]


def _round_robin_games(tournament: Tournament, number: int) -> tuple[list[tuple[int, int]], list[int]]:
    roster = round_robin_roster(tournament)
    schedule = circle_schedule(roster)
    if len(roster) < 2:
        raise PairingError(_("At least two pairs are needed."))
    if number > len(schedule):
        raise PairingError(_("The round robin has only %(n)s rounds.") % {"n": len(schedule)})
    withdrawn = set(Pair.objects.filter(pk__in=roster, withdrawn=True).values_list("pk", flat=True))
    games, byes = [], []
    for ns, ew in schedule[number - 1]:
        if ew is None:
            if ns not in withdrawn:
                byes.append(ns)
        elif ns in withdrawn or ew in withdrawn:
            byes += [p for p in (ns, ew) if p not in withdrawn]
        else:
            games.append((ns, ew))
    return games, byes


def _manual_games(tournament: Tournament) -> tuple[list[tuple[int, int]], list[int]]:
    ids = [p.pk for p in active_pairs(tournament)]
    games = [(ids[i], ids[i + 1]) for i in range(0, len(ids) - 1, 2)]
    return games, ids[len(games) * 2 :]


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
def pair_round(tournament: Tournament, number: int | None = None) -> Round:
    """Create round ``number`` (default: the next one) as a draft, paired by the tournament's format."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if number is None:
        last = tournament.rounds.order_by("-number").first()
        number = (last.number + 1) if last else 1
    _check_can_pair(tournament, number)
    if tournament.format == Tournament.Format.ROUND_ROBIN:
        games, byes = _round_robin_games(tournament, number)
    elif tournament.format == Tournament.Format.SWISS:
        games, bye = _swiss_games(tournament, number)
        byes = [bye] if bye else []
    else:
        games, byes = _manual_games(tournament)
    rnd = Round.objects.create(tournament=tournament, number=number, state=Round.State.DRAFT)
    _write_round(rnd, games, byes)
    return rnd


def _draft(rnd: Round) -> None:
    if rnd.state != Round.State.DRAFT:
        raise PairingError(_("Only a draft round can be changed."))


@transaction.atomic
def set_round_matches(
    rnd: Round, games: Sequence[tuple[int, int, int | None]], byes: Iterable[int] = ()
) -> None:
    """Replace a draft round's matches (table = position + 1) and byes; every pair at most once."""
    rnd = Round.objects.select_for_update().get(pk=rnd.pk)
    _draft(rnd)
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
        set_round_matches(rnd, games, byes)


@transaction.atomic
def publish_round(rnd: Round) -> None:
    _draft(rnd)
    if not rnd.matches.exists() and not rnd.byes.exists():
        raise PairingError(_("An empty round cannot be published."))
    rnd.state = Round.State.PUBLISHED
    rnd.save(update_fields=["state"])


@transaction.atomic
def delete_draft_round(rnd: Round) -> None:
    _draft(rnd)
    rnd.delete()


def set_withdrawn(pair: Pair, withdrawn: bool = True) -> None:
    """A withdrawn pair keeps its results and is not paired again; it may come back between rounds."""
    pair.withdrawn = withdrawn
    pair.save(update_fields=["withdrawn"])
