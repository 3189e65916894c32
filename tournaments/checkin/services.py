"""Check-in on the database: who is here for the next round, a pair checked in at the desk or by its PIN, and
the next round paired with the pairs checked in (the absent ones sit out, or are paired and forfeit when the
round is published: ``forfeits.publish_round``)."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from tournaments.competition.finishing import lock_open
from tournaments.models import Absence, CheckIn, Pair, Round, Tournament, by_seed
from tournaments.pairing.services import PairingError, pair_round
from tournaments.table_links.services import try_pin


class CheckInError(Exception):
    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


def next_round(tournament: Tournament) -> int:
    """The round check-in is for: the one after the last round paired."""
    last = tournament.rounds.order_by("-number").values_list("number", flat=True).first()
    return (last or 0) + 1


@dataclass
class Arrival:
    pair: Pair
    check_in: CheckIn | None
    absence: Absence | None = None


def arrivals(tournament: Tournament, number: int) -> list[Arrival]:
    """Every pair still playing, in seed order, with its check-in for round ``number`` (None: not here yet)."""
    pairs = by_seed(tournament.pairs.filter(withdrawn=False).select_related("player1", "player2", "entry"))
    here = {c.pair_id: c for c in CheckIn.objects.filter(pair__tournament=tournament, round_number=number)}
    return [Arrival(p, here.get(p.pk)) for p in pairs]


def pair_of(tournament: Tournament, pair_id) -> Pair:
    pair = None
    if isinstance(pair_id, int) and 0 < pair_id < 2**63:
        pair = tournament.pairs.filter(pk=pair_id, withdrawn=False).first()
    if pair is None:
        raise CheckInError(_("Choose a pair of this tournament."), 404)
    return pair


@transaction.atomic
def check_in(tournament: Tournament, pair: Pair, user, *, how: str = CheckIn.How.DESK) -> CheckIn:
    """The pair is here for the next round (checked in once: a second tap changes nothing)."""
    tournament = lock_open(tournament.pk)
    number = next_round(tournament)
    known = CheckIn.objects.filter(pair=pair, round_number=number).first()
    if known is not None:
        return known
    try:
        with transaction.atomic():
            return CheckIn.objects.create(pair=pair, round_number=number, how=how, by=user)
    except IntegrityError:
        return CheckIn.objects.get(pair=pair, round_number=number)


@transaction.atomic
def undo_check_in(tournament: Tournament, pair: Pair, user) -> None:
    """A check-in tapped by mistake is taken back (before the round is paired)."""
    tournament = lock_open(tournament.pk)
    CheckIn.objects.filter(pair=pair, round_number=next_round(tournament)).delete()


def check_in_by_pin(tournament: Tournament, pair: Pair, pin: str, user) -> CheckIn:
    """A pair checks itself in on the desk's tablet with its PIN; wrong PINs count on the pair's one budget,
    the table's too (``try_pin``): a pair locked out at its table is locked out here."""
    right = try_pin(pair, (pin or "").strip()[:20])
    if right is None:
        raise CheckInError(_("Too many wrong PINs for this pair: ask at the desk."), 429)
    if not right:
        raise CheckInError(_("That PIN is not this pair's."), 403)
    return check_in(tournament, pair, user, how=CheckIn.How.PIN)


@transaction.atomic
def pair_checked_in(tournament: Tournament, user, *, absent_as: str) -> Round:
    """Pair the next round from the pairs checked in; each absent pair sits the round out or is paired and
    forfeits (recorded when the round is published), as the director chose."""
    if absent_as not in Absence.Treated.values:
        raise CheckInError(_("Choose what happens to the absent pairs."))
    number = next_round(tournament)
    rows = arrivals(tournament, number)
    if not any(a.check_in for a in rows):
        raise CheckInError(_("No pair has checked in for this round yet."))
    absent = frozenset(a.pair.pk for a in rows if a.check_in is None)
    sitting_out = absent if absent_as == Absence.Treated.SIT_OUT else frozenset()
    try:
        rnd = pair_round(tournament, number, sitting_out=sitting_out)
    except PairingError as exc:
        raise CheckInError(str(exc), 409) from exc
    Absence.objects.bulk_create(Absence(round=rnd, pair_id=pk, treated=absent_as, by=user) for pk in absent)
    return rnd


def absences(rnd: Round) -> dict[int, Absence]:
    return {a.pair_id: a for a in rnd.absences.all()}
