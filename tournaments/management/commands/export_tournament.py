from django.core.management.base import BaseCommand, CommandError

from tournaments.backup.archive.writing import export_tournament, summary_line
from tournaments.management.commands._desk import get_tournament


class Command(BaseCommand):
    help = (
        "Write the whole tournament (settings, people, rounds, deals with every play, penalties, adjustments, calls, "
        "check-ins and the audit trail) to FILE as a tractor-tournament/1 archive; gzip when FILE ends in .gz."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("slug")
        parser.add_argument("file")

    def handle(self, *args, **o) -> None:
        tournament = get_tournament(o["slug"])
        try:
            summary = export_tournament(tournament, o["file"])
        except OSError as exc:
            raise CommandError(f"cannot write {o['file']}: {exc.strerror or exc}") from None
        self.stdout.write(summary_line(summary, o["file"]))
