from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from tournaments.models import Player
from tournaments.people.registry import MergeError, merge_players


def _player(pk: int) -> Player:
    try:
        return Player.objects.get(pk=pk)
    except Player.DoesNotExist:
        raise CommandError(f"no player number {pk}") from None


class Command(BaseCommand):
    help = "Merge a duplicate player (a typo) into the player kept: every pair of the duplicate moves to the kept one."

    def add_arguments(self, parser) -> None:
        parser.add_argument("kept", type=int, help="the number of the player kept")
        parser.add_argument("duplicate", type=int, help="the number of the duplicate, merged then deleted")
        parser.add_argument("--by", help="the user name the merge is recorded under")

    def handle(self, *args, **o) -> None:
        by = None
        if o["by"]:
            by = get_user_model().objects.filter(username=o["by"]).first()
            if by is None:
                raise CommandError(f"no account {o['by']!r}")
        kept, duplicate = _player(o["kept"]), _player(o["duplicate"])
        try:
            record = merge_players(kept, duplicate, by)
        except MergeError as exc:
            raise CommandError(exc.message) from None
        self.stdout.write(f"{record.merged_name} merged into {kept.name}: {record.pairs} pairs moved")
