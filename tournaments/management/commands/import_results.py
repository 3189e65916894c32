from django.core.management.base import BaseCommand, CommandError

from tournaments.duplicate.movement import DuplicateError
from tournaments.duplicate.venues import import_results
from tournaments.management.commands._desk import get_tournament, read_text


class Command(BaseCommand):
    help = (
        "Read another venue's results of the same boards (tractor-results/1) into a duplicate session: every "
        "fingerprint must match this tournament's boards; the venue's earlier import is replaced."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("slug")
        parser.add_argument("file")

    def handle(self, *args, **o) -> None:
        tournament = get_tournament(o["slug"])
        text = read_text(o["file"])
        try:
            venue = import_results(tournament, text, None)
        except DuplicateError as exc:
            raise CommandError(exc.message) from None
        self.stdout.write(f"{venue.venue}: {venue.lines.count()} table results imported")
