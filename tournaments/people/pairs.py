"""The pairs of a tournament and their players at the desk: add, edit, withdraw, reinstate, late entries, delete
one entered by mistake.

One function per write, each in one transaction, shared by the desk's pages, commands and tests. A refusal is a
``PeopleError`` carrying the TD's message and an HTTP status.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from tournaments.competition import access
from tournaments.competition.finishing import lock_open, refusal
from tournaments.models import Bye, Match, Pair, Player, Round, Seating, TeamPair, Tournament
from tournaments.people.errors import PeopleError
from tournaments.people.registry import already_playing, forget_unused, player_for_pair

# --- pairs and players -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PairEntry:
    """What the TD types for one pair (the form's cleaned data)."""

    name: str
    player1: str
    player2: str
    club: str = ""
    seed: int | None = None


def _check_entry(tournament: Tournament, entry: PairEntry, pair: Pair | None) -> None:
    """Checked again inside the transaction: the form's checks may be stale by the time it is saved."""
    others = tournament.pairs.exclude(pk=pair.pk) if pair else tournament.pairs.all()
    if others.filter(name=entry.name).exists():
        raise PeopleError(_("Another pair of this tournament is called %(name)s.") % {"name": entry.name})
    if entry.seed is not None and others.filter(seed=entry.seed).exists():
        raise PeopleError(_("Another pair has seed %(seed)s.") % {"seed": entry.seed})
    if entry.player1 == entry.player2:
        raise PeopleError(_("The two players must be different."))
    if taken := already_playing(tournament, [entry.player1, entry.player2], pair):
        raise PeopleError(taken)


@transaction.atomic
def save_pair(tournament: Tournament, entry: PairEntry, pair: Pair | None = None) -> Pair:
    """Add a pair (a late entry once rounds are paired) or change one: its name, club, seed and both players.

    The players are the registry's (``people.registry``): a name already known is that player, whatever pair or
    tournament they played in; a typo corrected on a player no other pair uses renames that player. Refused
    once the tournament is finished (``finishing.lock_open``)."""
    tournament = lock_open(tournament.pk)
    _check_entry(tournament, entry, pair)
    before = set() if pair is None else {pair.player1_id, pair.player2_id}
    if pair is None:
        pair = Pair(tournament=tournament)
    pair.player1 = player_for_pair(entry.player1, entry.club, pair.player1 if before else None, pair)
    pair.player2 = player_for_pair(entry.player2, entry.club, pair.player2 if before else None, pair)
    if pair.player1_id == pair.player2_id:
        raise PeopleError(_("The two players must be different."))
    pair.name, pair.club, pair.seed = entry.name, entry.club, entry.seed
    pair.save()
    forget_unused(before - {pair.player1_id, pair.player2_id})
    return pair


def late_entry_round(tournament: Tournament) -> int | None:
    """The round a pair added now first plays, or None before round 1 (it simply plays from the start).

    Swiss and manual rounds pair the active pairs of the moment, so a late entry enters the next round to be
    paired; a draft round already made leaves it out until the TD places it. A round robin's schedule is fixed
    at round 1, so a late entry there is never scheduled (0)."""
    last = tournament.rounds.order_by("-number").first()
    if last is None:
        return None
    if tournament.format == Tournament.Format.ROUND_ROBIN:
        return 0
    return last.number if last.state == Round.State.DRAFT else last.number + 1


def late_entry_note(tournament: Tournament) -> str:
    """One sentence for the add-a-pair page: when the new pair plays."""
    number = late_entry_round(tournament)
    last = tournament.rounds.order_by("-number").first()
    if number is None or last is None:  # no round yet: the pair plays from the start
        return ""
    if number == 0:
        return _("The round robin's schedule was fixed at round 1: a pair added now is not scheduled.")
    if number > tournament.rounds_planned:
        return _("Every round is paired: a pair added now plays no more rounds.")
    start = tournament.bracket_start
    if start is not None and (number > start or number == start and last.state != Round.State.DRAFT):
        return _("The knockout's pairs are settled: a pair added now plays no more rounds.")
    if last.state == Round.State.DRAFT:
        return _(
            "Round %(n)s is a draft: place the new pair on its page, or it plays from round %(next)s."
        ) % {
            "n": number,
            "next": number + 1,
        }
    return _("A late entry: this pair enters the pairing of round %(n)s.") % {"n": number}


def open_matches(pair: Pair):
    """The pair's published matches not finished yet: what its withdrawal leaves to forfeit."""
    return (
        access.published(Match.objects.filter(pair_ns=pair) | Match.objects.filter(pair_ew=pair))
        .exclude(state=Match.State.FINISHED)
        .select_related("round", "pair_ns", "pair_ew")
        .order_by("round__number", "table")
    )


def rounds_placing(pair: Pair):
    """The rounds, draft or published, that place the pair: at a table (its match, or the seating that match
    keeps) or with a bye; by number."""
    return Round.objects.filter(
        Q(pk__in=Match.objects.filter(Q(pair_ns=pair) | Q(pair_ew=pair)).values("round"))
        | Q(pk__in=Seating.objects.filter(pair=pair).values("round"))
        | Q(pk__in=Bye.objects.filter(pair=pair).values("round"))
    ).order_by("number")


def draft_rounds_with(pair: Pair) -> list[int]:
    """Numbers of the draft rounds that seat the pair (or give it a bye): the TD changes those pairings."""
    return list(rounds_placing(pair).filter(state=Round.State.DRAFT).values_list("number", flat=True))


@transaction.atomic
def set_withdrawn(pair: Pair, withdrawn: bool, by=None) -> Pair:
    """Withdraw a pair (it keeps its results and is not paired again) or reinstate it (it is paired from the
    next round). Its open matches are not touched: the TD records each forfeit (``open_matches``). The pair's
    history keeps who (``by``) did it and when. Refused once the tournament is finished."""
    lock_open(pair.tournament_id)
    if pair.withdrawn == withdrawn:
        if withdrawn:
            raise PeopleError(_("%(pair)s has already withdrawn.") % {"pair": pair.name}, status=409)
        raise PeopleError(_("%(pair)s has not withdrawn.") % {"pair": pair.name}, status=409)
    pair.withdrawn = withdrawn
    if by is not None:
        pair._history_user = by
    pair.save(update_fields=["withdrawn"])
    return pair


# --- deleting a pair entered by mistake ---------------------------------------------------------------------


def why_not_delete_pair(pair: Pair) -> str | None:
    """Why the pair cannot be deleted, with what to do instead; None when it can: it has never been placed in a
    round (no table of a draft or published round, no bye), so nothing it played is lost, and the tournament is
    not finished (its final standings list the pair)."""
    if pair.tournament.is_finished:
        return refusal()
    place = TeamPair.objects.filter(pair=pair).select_related("team").first()
    if place is not None:
        return _(
            "%(pair)s is on the roster of %(team)s: a team's pair is not deleted; withdraw it instead."
        ) % {
            "pair": pair.name,
            "team": place.team.name,
        }
    placed = rounds_placing(pair)
    paired = placed.exclude(state=Round.State.DRAFT).first()
    if paired is not None:
        return _(
            "%(pair)s is paired in round %(n)s: a pair that has been paired is not deleted; withdraw it instead."
        ) % {"pair": pair.name, "n": paired.number}
    draft = placed.first()
    if draft is not None:
        return _("%(pair)s is placed in the draft of round %(n)s: edit or discard the draft first.") % {
            "pair": pair.name,
            "n": draft.number,
        }
    return None


def sharing_pairs(pair: Pair) -> list[tuple[Player, list[Pair]]]:
    """The pair's two players, each with the other pairs (of any tournament) that use it: a player with none is
    deleted with the pair, the others stay."""
    others = (
        Pair.objects.exclude(pk=pair.pk).select_related("tournament").order_by("tournament__name", "name")
    )
    return [
        (player, list(others.filter(Q(player1=player) | Q(player2=player))))
        for player in (pair.player1, pair.player2)
    ]


def delete_pairs(pairs: list[Pair], by=None) -> None:
    """Delete the pairs (each leaves a history record of who, ``by``, deleted it and when), then those of their
    players no pair uses any more. A captain's account is not touched: it is only no longer linked."""
    players = {pk for pair in pairs for pk in (pair.player1_id, pair.player2_id)}
    for pair in pairs:
        if by is not None:
            pair._history_user = by
        pair.delete()
    forget_unused(players)


@transaction.atomic
def delete_pair(pair: Pair, by=None) -> None:
    """Delete a pair entered by mistake (a typo in an import, a pair that never came), with its players no other
    pair uses, while it has never been placed in a round. Checked again under the tournament's lock, which
    pairing a round and adding a pair take too, and the pair's, so a pair paired a moment ago is not deleted. A
    finished tournament's pairs stay: its final standings list them."""
    lock_open(pair.tournament_id)
    locked = Pair.objects.select_for_update().filter(pk=pair.pk).first()
    if locked is None:
        raise PeopleError(_("%(name)s is already deleted.") % {"name": pair.name}, status=404)
    if reason := why_not_delete_pair(locked):
        raise PeopleError(reason, status=409)
    delete_pairs([locked], by)
