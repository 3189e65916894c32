from django.core.management.base import BaseCommand, CommandError

from tournaments.backup.models import BackupOutcome
from tournaments.backup.services import BackupError, take_backup


class Command(BaseCommand):
    help = (
        "Write a consistent, checked copy of the site's database while it serves (SQLite's online backup, or "
        "pg_dump) into BACKUP_DIR or --to DIR, named by the time, and print its one-line summary."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--to", metavar="DIR", help="the folder to write into (default: BACKUP_DIR)")
        parser.add_argument(
            "--reason",
            choices=BackupOutcome.Reason.values,
            default=BackupOutcome.Reason.COMMAND,
            help="who asked",
        )
        parser.add_argument(
            "--round", default="", help="SLUG#N: the backup taken after that round was published"
        )

    def handle(self, *args, **o) -> None:
        try:
            summary = take_backup(to=o["to"], reason=o["reason"], round_tag=o["round"][:120])
        except BackupError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(summary.line())
