"""The player registry: one ``Player`` row per person, found by name whenever a pair is entered (the desk's
form, the import, the demo), so the same person in different pairs and tournaments is one player; and a
director's merge of a duplicate entered with a typo into the player kept.

A name is matched as typed, spaces at its ends and runs of spaces inside it ignored (``张 三`` and ``张三`` are two
names: a space may be part of a romanised name). Two rows of one name made before the registry are both
found; the oldest is used, and the director merges the other.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from tournaments.models import Pair, Player, PlayerMerge


class MergeError(Exception):
    """A merge the desk refuses; ``message`` is for the director (translated), ``status`` for the page."""

    def __init__(self, message: str, status: int = 409) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


def clean_name(name: str) -> str:
    return " ".join(name.split())


def known_player(name: str) -> Player | None:
    """The registry's player of this name (the oldest of two made before the registry), or None: how a person is
    identified wherever a pair is entered or a tournament imported."""
    return Player.objects.filter(name=clean_name(name)).order_by("pk").first()


def player_named(name: str, club: str = "") -> Player:
    """The registry's player of this name, made when there is none; a known player without a club takes it."""
    name = clean_name(name)
    player = known_player(name)
    if player is None:
        return Player.objects.create(name=name, club=club)
    if club and not player.club:
        player.club = club
        player.save(update_fields=["club"])
    return player


def pairs_of(player: Player):
    """Every pair, of any tournament, the player plays in."""
    return Pair.objects.filter(Q(player1=player) | Q(player2=player))


def playing(tournament, exclude: Pair | None = None) -> dict[str, str]:
    """The names of the players already in a pair of the tournament, each with its pair's name: one person plays
    in one pair of a tournament (two people of one name are told apart by the director, 张伟 and 张伟（朝阳）)."""
    pairs = tournament.pairs.exclude(pk=exclude.pk) if exclude is not None else tournament.pairs.all()
    rows = pairs.values_list("name", "player1__name", "player2__name")
    return {player: pair for pair, *players in rows for player in players}


def already_playing(tournament, names: list[str], exclude: Pair | None = None) -> str | None:
    """The refusal when one of the names already plays in another pair of the tournament, or None."""
    taken = playing(tournament, exclude)
    for name in names:
        if clean_name(name) in taken:
            return _("%(player)s already plays in %(pair)s in this tournament.") % {
                "player": clean_name(name),
                "pair": taken[clean_name(name)],
            }
    return None


def player_for_pair(name: str, club: str, current: Player | None, pair: Pair | None) -> Player:
    """The player for a pair's seat as the director typed it: the same row when the name is unchanged; a typo
    corrected on a player no other pair uses renames that row (unless the corrected name is a known player);
    otherwise the registry's player of that name."""
    name = clean_name(name)
    if current is not None and current.name == name:
        return current
    only_here = (
        current is not None and pair is not None and not pairs_of(current).exclude(pk=pair.pk).exists()
    )
    if (
        current is not None
        and only_here
        and not Player.objects.filter(name=name).exclude(pk=current.pk).exists()
    ):
        current.name = name
        current.save(update_fields=["name"])
        return current
    return player_named(name, club)


def forget_unused(players: set[int]) -> None:
    """Delete those of the players no pair uses any more (a pair deleted or given another player)."""
    used = Pair.objects.filter(Q(player1__in=players) | Q(player2__in=players)).values_list(
        "player1", "player2"
    )
    Player.objects.filter(pk__in=players - {pk for row in used for pk in row}).delete()


def why_not_merge(kept: Player, duplicate: Player) -> str | None:
    """Why the two cannot be merged, or None: one player is not merged into itself, nor two players of one pair."""
    if kept.pk == duplicate.pk:
        return _("Choose two different players.")
    together = (
        pairs_of(kept)
        .filter(Q(player1=duplicate) | Q(player2=duplicate))
        .select_related("tournament")
        .first()
    )
    if together is not None:
        return _("%(a)s and %(b)s play together in %(pair)s (%(tournament)s): they are two people.") % {
            "a": kept.name,
            "b": duplicate.name,
            "pair": together.name,
            "tournament": together.tournament.name,
        }
    return None


@transaction.atomic
def merge_players(kept: Player, duplicate: Player, by=None) -> PlayerMerge:
    """Merge a duplicate (a typo) into the player kept: every pair pointing to it points to the kept one (each
    pair's history records who and when), the merge is recorded, and the duplicate is deleted. A finished
    tournament's pairs move too: the results are the same people's."""
    rows = {p.pk: p for p in Player.objects.select_for_update().filter(pk__in=[kept.pk, duplicate.pk])}
    if kept.pk not in rows or duplicate.pk not in rows:
        raise MergeError(_("That player is no longer in the registry."), status=404)
    kept, duplicate = rows[kept.pk], rows[duplicate.pk]
    if reason := why_not_merge(kept, duplicate):
        raise MergeError(reason)
    moved = 0
    for pair in pairs_of(duplicate).select_for_update():
        if pair.player1_id == duplicate.pk:
            pair.player1 = kept
        if pair.player2_id == duplicate.pk:
            pair.player2 = kept
        if by is not None:
            pair._history_user = by
        pair.save(update_fields=["player1", "player2"])
        moved += 1
    for field in ("club", "contact", "notes"):
        if not getattr(kept, field) and getattr(duplicate, field):
            setattr(kept, field, getattr(duplicate, field))
    kept.save()
    record = PlayerMerge.objects.create(
        kept=kept, merged_name=duplicate.name, merged_id=duplicate.pk, pairs=moved, merged_by=by
    )
    duplicate.delete()
    return record
