from django.core.management.base import BaseCommand, CommandError

from tournaments.backup.archive import ArchiveError, import_archive, read_file


class Command(BaseCommand):
    help = (
        "Read a tractor-tournament/1 archive into this site in one transaction: ids remapped, players matched by "
        "name and listed, every deal judged again (the file is refused if a verdict differs)."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("file")
        parser.add_argument("--slug", help="import under this address (the archive's is taken here)")

    def handle(self, *args, **o) -> None:
        try:
            report = import_archive(read_file(o["file"]), slug=o["slug"])
        except ArchiveError as exc:
            raise CommandError(exc.message, returncode=2) from None
        for line in report.lines():
            self.stdout.write(line)
