from django.core.management.base import BaseCommand, CommandError

from tournaments.competition.finishing import TournamentFinished
from tournaments.duplicate.dealing import deal_session
from tournaments.duplicate.movement import DuplicateError
from tournaments.management.commands._desk import get_tournament
from tournaments.models import Board


class Command(BaseCommand):
    help = (
        "Deal a duplicate session's boards from a fresh secret seed and print each board's fingerprint "
        "(the seed itself stays secret until the session is over)."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("slug")

    def handle(self, *args, **o) -> None:
        tournament = get_tournament(o["slug"])
        try:
            deal_session(tournament, None)
        except (DuplicateError, TournamentFinished) as exc:
            raise CommandError(exc.message) from None
        for board in Board.objects.of(tournament).order_by("number"):
            self.stdout.write(f"board {board.number:3}  {board.fingerprint}")
