from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from tournaments.backup.restoring import RestoreError, restore


class Command(BaseCommand):
    help = (
        "Restore a backup (.sqlite3 onto SQLite, .pgdump onto PostgreSQL) into this site's database, the site "
        "stopped; a database holding newer work is refused unless --replace. Then `make serve` as usual."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("file")
        parser.add_argument(
            "--replace", action="store_true", help="overwrite a database that holds newer work"
        )

    def handle(self, *args, **o) -> None:
        try:
            done = restore(o["file"], replace=o["replace"])
        except RestoreError as exc:
            raise CommandError(exc.message) from None
        held = ", ".join(f"{n} {name}" for name, n in done.counts.items())
        when = timezone.localtime(done.taken_at).strftime("%Y-%m-%d %H:%M:%S")
        self.stdout.write(f"restored {done.file_name} (taken {when}): {held}")
