from django.core.management.base import BaseCommand, CommandError

from tournaments.competition.finishing import FinishError, finish_tournament
from tournaments.management.commands._desk import get_tournament


class Command(BaseCommand):
    help = "Finish a tournament, as the desk's button does: refused, in words, while anything is still open."

    def add_arguments(self, parser) -> None:
        parser.add_argument("slug")

    def handle(self, *args, **o) -> None:
        try:
            tournament = finish_tournament(get_tournament(o["slug"]), None)
        except FinishError as exc:
            raise CommandError(exc.message) from None
        self.stdout.write(f"{tournament.slug} is finished")
