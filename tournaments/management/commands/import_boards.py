from django.core.management.base import BaseCommand, CommandError

from tournaments.competition.finishing import TournamentFinished
from tournaments.duplicate.dealing import import_session
from tournaments.duplicate.movement import DuplicateError
from tournaments.management.commands._desk import get_tournament, read_text


class Command(BaseCommand):
    help = (
        "Take a duplicate session's boards from a boards file (tractor-boards/1): every fingerprint and card "
        "count is checked, and a bad board is refused with its number."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("slug")
        parser.add_argument("file")

    def handle(self, *args, **o) -> None:
        tournament = get_tournament(o["slug"])
        text = read_text(o["file"])
        try:
            import_session(tournament, text, None)
        except (DuplicateError, TournamentFinished) as exc:
            raise CommandError(exc.message) from None
        self.stdout.write(f"{tournament.boards.count()} boards imported")
